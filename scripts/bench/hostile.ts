// `npm run bench:hostile`: what a hostile client gets from our services, on loopback only and bounded in time.
// Prints JSON: the data service's answers to bad input (goal: no 5xx), forgeries accepted (goal: 0), the relay's RSS
// after a flood of topics and a slow reader (goal: under its stated bound) and RPC fallback p99 per fault.
// Exits 1 when a goal is missed.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openDatabase } from '../../services/api/db/createDatabase'
import { startApiServer } from '../../services/api/server'
import { freePorts } from '../../services/stack/ports'
import { benchApiInputs } from './hostile/api'
import { benchFallback } from './hostile/fallback'
import { benchNameForgeries, benchRelayForgeries, benchSessionForgeries } from './hostile/forgeries'
import { benchRelay } from './hostile/relay'

const ORIGIN = 'http://site.test'

async function benchDataService() {
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-hostile-'))
  const server = await startApiServer({
    port: (await freePorts()).api,
    db: await openDatabase({ dataDir }),
    projects: [{ id: 'hostile', allowedOrigins: [ORIGIN] }, { id: 'twin', allowedOrigins: [ORIGIN] }],
    chains: [],
  })
  try {
    const inputs = await benchApiInputs(server.url, 'hostile', ORIGIN)
    const sessions = await benchSessionForgeries({ baseUrl: server.url, projectId: 'hostile', twinProjectId: 'twin', origin: ORIGIN })
    const names = await benchNameForgeries({ baseUrl: server.url, projectId: 'hostile', origin: ORIGIN })
    return { inputs, sessions, names }
  } finally {
    await server.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

const { inputs, sessions, names } = await benchDataService()
const relayJwts = await benchRelayForgeries()
const forgeries = { attempts: sessions.attempts + names.attempts + relayJwts.attempts, accepted: sessions.accepted + names.accepted + relayJwts.accepted, sessions, names, relayJwts }
const relay = await benchRelay()
const fallback = await benchFallback()
const goals = {
  dataService5xx: inputs.status5xx === 0,
  forgeriesAccepted: forgeries.accepted === 0,
  relayRssUnderBound: relay.relayRssMbAfterFlood <= relay.rssBoundMb && relay.relayRssMbAfterSlowReader <= relay.rssBoundMb,
  fallbackP99: fallback.meetsTargets,
}
console.log(JSON.stringify({ dataService: inputs, forgeries, relay, fallback, goals }, null, 2))
process.exit(Object.values(goals).every(Boolean) ? 0 : 1)
