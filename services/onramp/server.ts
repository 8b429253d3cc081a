import type { AddressInfo } from 'node:net'
import type { ServerType } from '@hono/node-server'
import { listen } from '../listen'
import { createOnrampSandboxApp, type CreateOnrampSandboxAppParameters, type OnrampSandboxApp, type OnrampSandboxStats } from './app'
import { parseOnrampSandboxConfig } from './config'

export type StartOnrampSandboxParameters = CreateOnrampSandboxAppParameters & {
  host?: string
  /** 0 picks a free port (see `url`). */
  port: number
}

export type OnrampSandboxServer = {
  /** http://host:port, the port the server listens on. */
  url: string
  /** The origin checkout URLs are made with: publicUrl, or `url` when none is configured. */
  publicUrl: string
  /** Orders, quotes, reports waiting and transfers under way. */
  stats: () => OnrampSandboxStats
  /** Closes the server (and its idle connections), gives up waiting reports, and resolves once it is closed. */
  stop: () => Promise<void>
}

/**
 * Starts the on-ramp sandbox on host:port and resolves once it listens. Slow clients are cut off (headers and request
 * timeouts) and connections are bounded, as the data service does. Throws OnrampSandboxConfigError naming the fields
 * of a configuration it cannot run with (before it listens).
 * @example const sandbox = await startOnrampSandbox({ port: 8794, partners, prices, assets, treasuries })
 */
export async function startOnrampSandbox({ host = '127.0.0.1', port, ...parameters }: StartOnrampSandboxParameters): Promise<OnrampSandboxServer> {
  const { limits } = parseOnrampSandboxConfig(parameters)
  // The app needs its public origin, which a port of 0 gives only once listening: it is made then, before any request is read.
  const made: { sandbox?: OnrampSandboxApp } = {}
  const server = await listen({
    fetch: (request, env) => (made.sandbox ? made.sandbox.app.fetch(request, env) : new Response(null, { status: 503 })),
    host,
    port,
    limits,
  })
  const { port: boundPort } = server.address() as AddressInfo
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${boundPort}`
  let started: OnrampSandboxApp
  try {
    started = createOnrampSandboxApp({ ...parameters, publicUrl: parameters.publicUrl ?? url })
  } catch (error) {
    server.close()
    throw error
  }
  made.sandbox = started
  return {
    url,
    publicUrl: parameters.publicUrl?.replace(/\/+$/, '') ?? url,
    stats: started.stats,
    stop: async () => {
      await Promise.all([
        started.stop(),
        new Promise<void>((resolve) => {
          server.close(() => resolve())
          ;(server as ServerType & { closeIdleConnections?: () => void }).closeIdleConnections?.()
        }),
      ])
    },
  }
}
