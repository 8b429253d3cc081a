// The relay on its own (`tsx services/relay/main.ts`), with its default limits: HOST and PORT from the environment, a
// line with its URL once it listens. A parent process (the hostile benchmark) may ask it over IPC for its RSS and
// relayStats(), and it leaves with that parent.
import { createRelay } from './createRelay'

const port = Number(process.env.PORT ?? 8790)
if (!Number.isInteger(port) || port < 1 || port > 65_535) {
  console.error(`PORT must be a port number from 1 to 65535, got "${process.env.PORT}".`)
  process.exit(1)
}
const relay = createRelay({ host: process.env.HOST ?? '127.0.0.1', port })
await relay.ready
console.log(`WalletConnect relay on ${relay.url}`)

const stop = () => void relay.close().then(() => process.exit(0))
process.on('message', (message) => {
  if (message === 'stats') {
    const { rss, heapUsed } = process.memoryUsage()
    process.send?.({ rssBytes: rss, heapUsedBytes: heapUsed, ...relay.relayStats() })
  }
})
process.on('disconnect', stop)
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, stop)
