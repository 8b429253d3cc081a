// `npx tsx services/paymaster/build.ts`: the paymaster service as one compiled ES module, services/paymaster/dist/main.js,
// for `node services/paymaster/dist/main.js` (same variables as services/paymaster/main.ts). Its dependencies stay in
// node_modules. Run this way it idles far lower than under tsx, which keeps a module loader thread and source maps.
import { fileURLToPath } from 'node:url'
import { build } from 'vite'

export const PAYMASTER_DIST_DIR = fileURLToPath(new URL('./dist/', import.meta.url))
export const PAYMASTER_DIST_ENTRY = `${PAYMASTER_DIST_DIR}main.js`

/** Compiles services/paymaster/main.ts into PAYMASTER_DIST_ENTRY. */
export async function buildPaymaster() {
  await build({
    configFile: false,
    logLevel: 'warn',
    root: fileURLToPath(new URL('../..', import.meta.url)),
    build: {
      ssr: fileURLToPath(new URL('./main.ts', import.meta.url)),
      outDir: PAYMASTER_DIST_DIR,
      emptyOutDir: true,
      target: 'node20',
      minify: false,
      sourcemap: false,
      rollupOptions: { output: { entryFileNames: 'main.js', chunkFileNames: 'chunks/[name]-[hash].js', format: 'es' } },
    },
  })
  return PAYMASTER_DIST_ENTRY
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) console.log(await buildPaymaster())
