// `npx tsx services/onramp/build.ts`: the on-ramp sandbox as one compiled ES module, services/onramp/dist/main.js, for
// `node services/onramp/dist/main.js` (same variables as services/onramp/main.ts).
import { fileURLToPath } from 'node:url'
import { buildService } from '../buildService'

export const ONRAMP_SANDBOX_DIST_ENTRY = fileURLToPath(new URL('./dist/main.js', import.meta.url))

/** Compiles services/onramp/main.ts into ONRAMP_SANDBOX_DIST_ENTRY. */
export const buildOnrampSandbox = () => buildService(new URL('./', import.meta.url))

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) console.log(await buildOnrampSandbox())
