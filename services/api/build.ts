// `npx tsx services/api/build.ts`: the data service as one compiled ES module, services/api/dist/main.js, for
// `node services/api/dist/main.js` (same variables as `npm run api`). Its dependencies stay in node_modules. Run this
// way it idles about 50 MB lower than under tsx, which keeps a module loader thread and each module's source map.
import { fileURLToPath } from 'node:url'
import { build } from 'vite'

/** Where the compiled service goes: beside assets/ and wallets/, which it finds relative to itself. */
export const API_DIST_DIR = fileURLToPath(new URL('./dist/', import.meta.url))
export const API_DIST_ENTRY = `${API_DIST_DIR}main.js`

/** Compiles services/api/main.ts into API_DIST_ENTRY. */
export async function buildApi() {
  await build({
    configFile: false,
    logLevel: 'warn',
    root: fileURLToPath(new URL('../..', import.meta.url)),
    build: {
      ssr: fileURLToPath(new URL('./main.ts', import.meta.url)),
      outDir: API_DIST_DIR,
      emptyOutDir: true,
      target: 'node20',
      minify: false,
      sourcemap: false,
      rollupOptions: { output: { entryFileNames: 'main.js', chunkFileNames: 'chunks/[name]-[hash].js', format: 'es' } },
    },
  })
  return API_DIST_ENTRY
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) console.log(await buildApi())
