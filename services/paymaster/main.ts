// The paymaster service on its own (`tsx services/paymaster/main.ts`): its configuration from the JSON file that
// TESSERA_PAYMASTER_CONFIG names, or as JSON in TESSERA_PAYMASTER_CONFIG_JSON; the signer key may come instead from
// TESSERA_PAYMASTER_SIGNER_KEY (so the file can be shared without it). HOST and PORT from the environment, a line with
// its URL once it listens. With REDIS_URL the sponsored gas per account and day is counted in Redis, shared by every
// instance. A parent process (the benchmarks) may ask it over IPC for its memory and usage counts
// ('stats'), and it leaves with that parent.
import { PaymasterConfigError } from './config'
import { readPaymasterDeployConfig } from './deployConfig'
import { startPaymaster } from './server'

const fail = (message: string): never => {
  console.error(message)
  process.exit(1)
}

const port = Number(process.env.PORT ?? 8793)
if (!Number.isInteger(port) || port < 0 || port > 65_535) fail(`PORT must be a port number from 0 to 65535, got "${process.env.PORT}".`)

let config: Record<string, unknown> | undefined
try {
  config = readPaymasterDeployConfig(process.env)
} catch (error) {
  fail((error as Error).message)
}
if (!config) fail('Set TESSERA_PAYMASTER_CONFIG to a JSON file (or TESSERA_PAYMASTER_CONFIG_JSON to JSON) with { signerKey, chains, projects, limits? }; the signer key may come from TESSERA_PAYMASTER_SIGNER_KEY instead.')

let server: Awaited<ReturnType<typeof startPaymaster>>
try {
  server = await startPaymaster({ ...(config as Parameters<typeof startPaymaster>[0]), host: process.env.HOST ?? '127.0.0.1', port, redisUrl: process.env.REDIS_URL || undefined })
} catch (error) {
  if (error instanceof PaymasterConfigError) fail(error.message)
  throw error
}
console.log(`Tessera paymaster on ${server.url}`)

const stop = () => void server.stop().then(() => process.exit(0))
process.on('message', (message) => {
  if (message === 'stats') {
    const { rss, heapUsed } = process.memoryUsage()
    void Promise.resolve(server.stats()).then(
      (stats) => process.send?.({ rssBytes: rss, heapUsedBytes: heapUsed, ...stats }),
      () => process.send?.({ rssBytes: rss, heapUsedBytes: heapUsed }),
    )
  }
})
process.on('disconnect', stop)
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, stop)
