// `npx tsx services/paymaster/build.ts`: the paymaster service as one compiled ES module, services/paymaster/dist/main.js,
// for `node services/paymaster/dist/main.js` (same variables as services/paymaster/main.ts).
import { fileURLToPath } from 'node:url'
import { buildService } from '../buildService'

export const PAYMASTER_DIST_ENTRY = fileURLToPath(new URL('./dist/main.js', import.meta.url))

/** Compiles services/paymaster/main.ts into PAYMASTER_DIST_ENTRY. */
export const buildPaymaster = () => buildService(new URL('./', import.meta.url))

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) console.log(await buildPaymaster())
