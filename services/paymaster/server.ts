import type { AddressInfo } from 'node:net'
import type { ServerType } from '@hono/node-server'
import { listen } from '../listen'
import { escapeForLog } from '../api/config'
import { createPaymasterApp, createPaymasterUsage, fullLine, type CreatePaymasterAppParameters } from './app'
import { createRedisDailyGasUsage } from './redisDailyGasUsage'
import { parsePaymasterConfig } from './config'
import type { DailyGasUsageStats } from './dailyGasUsage'

export type StartPaymasterParameters = CreatePaymasterAppParameters & {
  /** Counts sponsored gas in this Redis, shared by every instance (REDIS_URL); in the process without it. */
  redisUrl?: string
  host?: string
  /** 0 picks a free port (see `url`). */
  port: number
}

export type PaymasterServer = {
  /** http://host:port, the port the server listens on. */
  url: string
  /** The accounts counted today against their sponsored gas, and the limit. */
  stats: () => DailyGasUsageStats | Promise<DailyGasUsageStats>
  /** Answers 503 on `/ready` from now on, closes the server (and its idle connections) and resolves once it is closed. */
  stop: () => Promise<void>
}

/**
 * Starts the paymaster service on host:port and resolves once it listens. Slow clients are cut off (headers and
 * request timeouts) and connections are bounded, as the data service does. Throws PaymasterConfigError naming the
 * fields of a configuration it cannot run with.
 * @example const paymaster = await startPaymaster({ port: 8793, signerKey, chains, projects })
 */
export async function startPaymaster({ host = '127.0.0.1', port, redisUrl, ...parameters }: StartPaymasterParameters): Promise<PaymasterServer> {
  const { now = Date.now, log = console.error } = parameters
  const { limits } = parsePaymasterConfig(parameters)
  const shared = !parameters.usage && redisUrl ? createRedisDailyGasUsage({ url: redisUrl, maxAccounts: limits.trackedAccounts, now, onFull: ({ day, maxAccounts }) => log(escapeForLog(fullLine(day, maxAccounts))) }) : undefined
  const usage = parameters.usage ?? shared ?? createPaymasterUsage({ limits, now, log: (line) => log(escapeForLog(line)) })
  let isDraining = false
  const app = createPaymasterApp({ ...parameters, usage, isDraining: () => isDraining })
  const server = await listen({ fetch: app.fetch, host, port, limits })
  const { port: boundPort } = server.address() as AddressInfo
  return {
    url: `http://${host.includes(':') ? `[${host}]` : host}:${boundPort}`,
    stats: () => usage.stats(),
    stop: async () => {
      isDraining = true
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        ;(server as ServerType & { closeIdleConnections?: () => void }).closeIdleConnections?.()
      })
      await shared?.close()
    },
  }
}
