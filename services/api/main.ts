// The data service on its own (`npm run api`), configured by a JSON file: deploy it without the rest of the stack.
import './v8Flags'
import { readFileSync } from 'node:fs'
import type { ApiConfig } from './config'
import { openDatabase } from './db/createDatabase'
import { loadWallets } from './routes/wallets'
import { startApiServer } from './server'

const configPath = process.env.TESSERA_API_CONFIG
if (!configPath) {
  console.error('Set TESSERA_API_CONFIG to a JSON file with { projects, chains, prices?, nameSuffix?, onramp?, trustedProxies? } (see README, "Data service").')
  process.exit(1)
}
const config = JSON.parse(readFileSync(configPath, 'utf8')) as Omit<ApiConfig, 'db'>
const db = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir: process.env.TESSERA_DATA_DIR ?? '.tessera/api-data' })
const server = await startApiServer({ ...config, wallets: config.wallets ?? loadWallets(), db, host: process.env.HOST ?? '127.0.0.1', port: Number(process.env.PORT ?? 8787) })
console.log(`Tessera data service on ${server.url} (${db.kind})`)
// Drain on the first signal: /ready turns 503, requests under way are answered, the indexer lock is released for another
// instance, the database is closed; then exit 0.
let isStopping = false
const stop = () => {
  if (isStopping) return
  isStopping = true
  server.stop().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(`Tessera data service: stopping failed: ${(error as Error)?.message ?? String(error)}`)
      process.exit(1)
    },
  )
}
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, stop)
