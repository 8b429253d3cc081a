// `npm test` runs this beside its tests, at the lowest priority: it builds every host app of the packed-package tests
// ahead (hostAppBuilds.ts) into TESSERA_HOST_APPS, so the browser tests do not wait for npm and the bundlers. An app
// that fails here is built again by its test, whose failure then says why.
import { buildHostApp, hostAppBuilds, recordBuilder, recordBuiltAhead, type HostAppName } from './hostAppBuilds'

recordBuilder()

for (const name of Object.keys(hostAppBuilds) as HostAppName[]) {
  const started = Date.now()
  try {
    recordBuiltAhead(name, await buildHostApp(name))
    console.log(`${name}: built in ${((Date.now() - started) / 1000).toFixed(1)} s`)
  } catch (error) {
    console.log(`${name}: not built (its test builds it again): ${(error as Error).message.split('\n')[0]}`)
  }
}
