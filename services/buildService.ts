import { fileURLToPath } from 'node:url'
import { build } from 'vite'

/**
 * Compiles a service's `main.ts` into one ES module, `dist/main.js` in its folder, for `node <folder>/dist/main.js`
 * (same variables as under tsx); its dependencies stay in node_modules. Run this way a service idles far lower than under
 * tsx, which keeps a module loader thread and each module's source map. Resolves to the compiled entry's path.
 * @example const entry = await buildService(new URL('./api/', import.meta.url))
 */
export async function buildService(folder: URL): Promise<string> {
  const outDir = fileURLToPath(new URL('./dist/', folder))
  await build({
    configFile: false,
    logLevel: 'warn',
    root: fileURLToPath(new URL('..', import.meta.url)),
    build: {
      ssr: fileURLToPath(new URL('./main.ts', folder)),
      outDir,
      emptyOutDir: true,
      target: 'node20',
      minify: false,
      sourcemap: false,
      rollupOptions: { output: { entryFileNames: 'main.js', chunkFileNames: 'chunks/[name]-[hash].js', format: 'es' } },
    },
  })
  return `${outDir}main.js`
}
