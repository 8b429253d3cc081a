// `npx tsx services/api/build.ts`: the data service as one compiled ES module, services/api/dist/main.js, for
// `node services/api/dist/main.js` (same variables as `npm run api`), beside assets/ and wallets/, which it finds
// relative to itself. It idles about 50 MB lower than under tsx.
import { fileURLToPath } from 'node:url'
import { buildService } from '../buildService'

export const API_DIST_ENTRY = fileURLToPath(new URL('./dist/main.js', import.meta.url))

/** Compiles services/api/main.ts into API_DIST_ENTRY. */
export const buildApi = () => buildService(new URL('./', import.meta.url))

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) console.log(await buildApi())
