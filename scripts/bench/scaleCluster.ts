// The cluster `npm run bench:scale` measures: runCluster (what `npm run services -- --instances N` runs for N > 1) for any
// N, 1 included, so one instance is reached through HAProxy exactly as three are. Usage: tsx scaleCluster.ts N, with
// services/main.ts's variables (TESSERA_API_CONFIG, DATABASE_URL, REDIS_URL, API_PORT, RELAY_PORT, AUTH_PORT).
import { runCluster } from '../../services/cluster/runCluster'

const port = (name: string) => Number(process.env[name])

await runCluster({
  instances: Number(process.argv[2]),
  host: '127.0.0.1',
  publicPorts: { api: port('API_PORT'), relay: port('RELAY_PORT'), auth: port('AUTH_PORT') },
  env: process.env,
})
