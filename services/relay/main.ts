// The relay on its own (`tsx services/relay/main.ts`), with its default limits: HOST and PORT from the environment, a
// line with its URL once it listens. With REDIS_URL (redis://[:password@]host:port[/db]) it keeps messages in Redis, so
// several instances behind one load balancer serve the same clients; without it, in memory (one instance). SIGTERM or
// SIGINT drains it: no new connections, every client's closed with 1012 (service restart), then exit. A parent process
// (the hostile benchmark) may ask it over IPC for its RSS and relayStats(), and it leaves with that parent.
import { createRelay } from './createRelay'
import { redactRedisUrl, redisStore } from './redisStore'

const port = Number(process.env.PORT ?? 8790)
if (!Number.isInteger(port) || port < 1 || port > 65_535) {
  console.error(`PORT must be a port number from 1 to 65535, got "${process.env.PORT}".`)
  process.exit(1)
}
const redisUrl = process.env.REDIS_URL || undefined
const relay = createRelay({ host: process.env.HOST ?? '127.0.0.1', port, store: redisUrl ? redisStore({ url: redisUrl }) : undefined })

let isStopping = false
const stop = () => {
  if (isStopping) return
  isStopping = true
  void relay.close().then(() => process.exit(0))
}
process.on('message', (message) => {
  if (message !== 'stats') return
  void relay.relayStats().then(
    (stats) => {
      const { rss, heapUsed } = process.memoryUsage()
      process.send?.({ rssBytes: rss, heapUsedBytes: heapUsed, ...stats })
    },
    () => {}, // the store does not answer: the parent asks again
  )
})
process.on('disconnect', stop)
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, stop)

if (redisUrl) console.log(`Connecting to Redis at ${redactRedisUrl(redisUrl)}…`)
await relay.ready
console.log(`WalletConnect relay on ${relay.url} (messages ${redisUrl ? `in Redis at ${redactRedisUrl(redisUrl)}` : 'in memory'})`)
