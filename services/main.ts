// `npm run services`: Tessera's back-ends without the local chains or the demo, for self-hosting. The data service
// (balances, history, names, sessions, the wallet registry, analytics), the WalletConnect relay, and when configured
// the auth service and the paymaster, in one process.
//
//   TESSERA_API_CONFIG  JSON file: { projects: [{ id, allowedOrigins }], chains, prices?, nameSuffix?, onramp?, wallets? }
//   DATABASE_URL        PostgreSQL (postgres://…); without it, embedded PGlite in TESSERA_DATA_DIR (.tessera/api-data)
//   HOST                interface to listen on (127.0.0.1)
//   API_PORT            data service port (8787); health: GET /health, readiness: GET /ready (both services)
//   RELAY_PORT          relay port (8790); health: GET /health, readiness: GET /ready (503 while its store is unreachable
//                       or it drains), WebSocket on the same port
//   REDIS_URL           the relay's store (redis://[:password@]host:port[/db]), shared by any number of relay
//                       instances; without it, messages are kept in this process's memory (one instance)
//   AUTH_PORT           auth service port (8791), started when TESSERA_API_CONFIG has an `auth` section
//                       ({ publicUrl, frameOrigins, mailFrom, social?, farcaster?, trustProxy? }, services/auth/README.md)
//   TESSERA_SMTP_URL    the SMTP server the auth service sends codes through (smtp://user:pass@host:587, smtps://…)
//   TESSERA_AUTH_SECRET optional key for hashing codes at rest (else a random one kept in the database)
//   RELAY_PUBLIC_URL    the relay's URL as clients reach it (wss://relay.example.com behind a balancer; a comma-separated
//                       list for several): clients sign their JWT for it. ws://HOST:RELAY_PORT is accepted as well.
//   TESSERA_PAYMASTER_CONFIG  JSON file { signerKey, chains, projects, limits? } (or TESSERA_PAYMASTER_CONFIG_JSON, the
//                       JSON itself; the key may come from TESSERA_PAYMASTER_SIGNER_KEY): starts the paymaster service
//                       (ERC-7677, services/paymaster) on PAYMASTER_PORT (8793); with REDIS_URL its count of sponsored gas
//                       per account and day is shared by every instance
//
// `--instances N` (N > 1) runs N instances of all this behind HAProxy on those ports, sharing DATABASE_URL and REDIS_URL
// (services/cluster/runCluster.ts; docs/deploy.md).
// The configuration is read first; what serves is loaded after it, so that a mistake in it is said at once.
import { readFileSync } from 'node:fs'
import type { ApiConfig } from './api/config'
import { readAuthDeployConfig } from './auth/deployConfig'
import type { AuthServer } from './auth/server'
import { PaymasterConfigError, parsePaymasterConfig } from './paymaster/config'
import { PaymasterDeployConfigError, readPaymasterDeployConfig } from './paymaster/deployConfig'
import type { PaymasterServer } from './paymaster/server'
import { readInstanceCount } from './cluster/readInstanceCount'

function fail(message: string): never {
  console.error(message)
  process.exit(1)
}
function portOf(name: string, fallback: number) {
  const value = Number(process.env[name] ?? fallback)
  if (!Number.isInteger(value) || value < 1 || value > 65_535) fail(`${name} must be a port number from 1 to 65535, got "${process.env[name]}".`)
  return value
}

let instances = 1
try {
  instances = readInstanceCount(process.argv.slice(2))
} catch (error) {
  fail((error as Error).message)
}
const configPath = process.env.TESSERA_API_CONFIG || fail('Set TESSERA_API_CONFIG to a JSON file with { projects, chains, prices?, nameSuffix?, onramp? } (see README, "Self-hosting").')
let config: Omit<ApiConfig, 'db'>
try {
  config = JSON.parse(readFileSync(configPath, 'utf8')) as Omit<ApiConfig, 'db'>
} catch (error) {
  fail(`TESSERA_API_CONFIG: ${configPath} could not be read as JSON: ${(error as Error).message}`)
}
const host = process.env.HOST ?? '127.0.0.1'
const apiPort = portOf('API_PORT', 8787)
const relayPort = portOf('RELAY_PORT', 8790)
const authSection = (config as { auth?: unknown }).auth
const authPort = portOf('AUTH_PORT', 8791)
let authConfig: ReturnType<typeof readAuthDeployConfig> | undefined
try {
  authConfig = authSection === undefined ? undefined : readAuthDeployConfig({ section: authSection, projectIds: config.projects.map((p) => p.id), env: process.env })
} catch (error) {
  fail(`TESSERA_API_CONFIG: ${(error as Error).message}`)
}
const paymasterPort = portOf('PAYMASTER_PORT', 8793)
let paymasterConfig: Record<string, unknown> | undefined
try {
  paymasterConfig = readPaymasterDeployConfig(process.env)
  // Checked here too, so that a bad one stops the launcher before any instance starts.
  if (paymasterConfig) parsePaymasterConfig(paymasterConfig as Parameters<typeof parsePaymasterConfig>[0])
} catch (error) {
  if (error instanceof PaymasterConfigError || error instanceof PaymasterDeployConfigError) fail(error.message)
  throw error
}
if (instances > 1) {
  const { runCluster } = await import('./cluster/runCluster')
  await runCluster({ instances, host, publicPorts: { api: apiPort, relay: relayPort, auth: authConfig && authPort, paymaster: paymasterConfig && paymasterPort }, env: process.env })
}

// Drain once, on the first signal (one during the start waits until every service has started): each service answers
// what is under way (/ready turns 503), the data service releases its indexer lock for another instance. The auth
// service first: it shares the data service's database, which the data service closes.
let drain = async (): Promise<unknown> => undefined
let markStarted = () => {}
const whenStarted = new Promise<void>((resolve) => (markStarted = resolve))
let isStopping = false
const stop = () => {
  if (isStopping) return
  isStopping = true
  void whenStarted.then(() => drain()).then(() => process.exit(0))
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, stop)
// An instance started by `--instances` leaves with its launcher (its IPC channel closes).
process.on('disconnect', stop)

const [{ openDatabase }, { loadWallets }, { startApiServer }, { createRelay }, { redactRedisUrl, redisStore }] = await Promise.all([
  import('./api/db/createDatabase'),
  import('./api/routes/wallets'),
  import('./api/server'),
  import('./relay/createRelay'),
  import('./relay/redisStore'),
])
const db = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: process.env.TESSERA_DATA_DIR ?? '.tessera/api-data' })
const api = await startApiServer({ ...config, wallets: config.wallets ?? loadWallets(), db, host, port: apiPort })
const redisUrl = process.env.REDIS_URL || undefined
const relayPublicUrls = process.env.RELAY_PUBLIC_URL?.split(',').map((url) => url.trim()).filter(Boolean)
const relay = createRelay({ host, port: relayPort, publicUrls: relayPublicUrls && [...relayPublicUrls, `ws://${host}:${relayPort}`], store: redisUrl ? redisStore({ url: redisUrl }) : undefined })
await relay.ready
console.log(`Tessera data service on ${api.url} (${db.kind}; health ${api.url}/health)`)
console.log(`WalletConnect relay on ${relay.url} (messages ${redisUrl ? `in Redis at ${redactRedisUrl(redisUrl)}` : 'in memory'}; health ${relay.url.replace('ws:', 'http:')}/health)`)
let auth: AuthServer | undefined
if (authConfig) {
  const { startAuthServer } = await import('./auth/server')
  auth = await startAuthServer({ ...authConfig, db, host, port: authPort })
  console.log(`Tessera auth service on ${auth.url} (for ${authConfig.frameOrigins.join(', ')}; health ${auth.url}/health)`)
} else {
  console.log('Auth service off: add an `auth` section to TESSERA_API_CONFIG for e-mail and social sign-in.')
}
let paymaster: PaymasterServer | undefined
if (paymasterConfig) {
  const { startPaymaster } = await import('./paymaster/server')
  paymaster = await startPaymaster({ ...(paymasterConfig as Parameters<typeof startPaymaster>[0]), host, port: paymasterPort, redisUrl })
  console.log(`Tessera paymaster on ${paymaster.url} (sponsored gas counted ${redisUrl ? `in Redis at ${redactRedisUrl(redisUrl)}` : 'in memory'}; health ${paymaster.url}/health)`)
} else {
  console.log('Paymaster off: set TESSERA_PAYMASTER_CONFIG to sponsor smart accounts\' gas (services/paymaster).')
}

drain = () => Promise.allSettled([auth?.stop(), paymaster?.stop()]).then(() => Promise.allSettled([api.stop(), relay.close()]))
markStarted()
