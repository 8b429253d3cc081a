import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

/** The npm package: ESM, React and React DOM left to the host, the core's worker emitted as its own file. */
export default defineConfig({
  // Relative URLs: the worker file is found next to the package's code wherever a host's bundler puts it.
  base: './',
  plugins: [react()],
  // @solana/kit (in the worker's Solana chunk) reads process.env.NODE_ENV, which no browser has: fixed at build time.
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  // A host's bundler re-bundles our worker files but does not emit their own lazy chunks (the worker's Solana client,
  // viem's ccip, WalletConnect's sign client): in the package each worker is one file. From source (the demo) they
  // stay lazy chunks.
  worker: { format: 'es', rolldownOptions: { output: { codeSplitting: false } } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    lib: { entry: 'src/main/index.ts', formats: ['es'], fileName: 'tessera' },
    rollupOptions: { external: ['react', 'react-dom', 'react-dom/client', 'react/jsx-runtime'] },
  },
})
