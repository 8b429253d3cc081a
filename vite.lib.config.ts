import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

/** The npm package: ESM, React and React DOM left to the host, the core's worker emitted as its own file. */
export default defineConfig({
  // Relative URLs: the worker file is found next to the package's code wherever a host's bundler puts it.
  base: './',
  plugins: [react()],
  worker: { format: 'es' },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    lib: { entry: 'src/main/index.ts', formats: ['es'], fileName: 'tessera' },
    rollupOptions: { external: ['react', 'react-dom', 'react-dom/client', 'react/jsx-runtime'] },
  },
})
