import { createServer } from 'node:net'

/** One port of the local stack: who uses it, its default, and the variable that overrides it. */
export type PortSpec = { name: string; envVar: string; defaultPort: number }

export const stackPorts = {
  anvil: { name: 'anvil (chain 31337)', envVar: 'TESSERA_ANVIL_PORT', defaultPort: 8545 },
  anvil2: { name: 'second anvil (chain 31338)', envVar: 'TESSERA_ANVIL2_PORT', defaultPort: 8546 },
  // Solana's own defaults (solana-test-validator): tools that derive PubSub from RPC take RPC port + 1.
  solana: { name: 'Solana local RPC', envVar: 'TESSERA_SOLANA_PORT', defaultPort: 8899 },
  solanaWs: { name: 'Solana local PubSub', envVar: 'TESSERA_SOLANA_WS_PORT', defaultPort: 8900 },
  // electrs' regtest HTTP port, where Esplora clients look for a local chain.
  bitcoin: { name: 'Bitcoin local Esplora API', envVar: 'TESSERA_BITCOIN_PORT', defaultPort: 3002 },
  // Substrate's own default RPC port, where polkadot.js apps and extensions look for a local node.
  polkadot: { name: 'Polkadot local chain (chopsticks)', envVar: 'TESSERA_POLKADOT_PORT', defaultPort: 9944 },
  api: { name: 'data service', envVar: 'TESSERA_API_PORT', defaultPort: 8787 },
  demo: { name: 'demo page', envVar: 'TESSERA_DEMO_PORT', defaultPort: 5173 },
  relay: { name: 'WalletConnect relay', envVar: 'TESSERA_RELAY_PORT', defaultPort: 8790 },
  // ERC-4337: the port the bundler's own docs use, and our paymaster service beside the other services.
  bundler: { name: 'ERC-4337 bundler (Alto)', envVar: 'TESSERA_BUNDLER_PORT', defaultPort: 4337 },
  paymaster: { name: 'paymaster service', envVar: 'TESSERA_PAYMASTER_PORT', defaultPort: 8793 },
  // The on-ramp sandbox's API and checkout page, on an origin of its own as a real provider's is.
  onramp: { name: 'on-ramp sandbox', envVar: 'TESSERA_ONRAMP_PORT', defaultPort: 8794 },
  // E-mail and social sign-in: the secure frame's own origin, the auth service, its local stand-ins.
  frame: { name: 'secure frame', envVar: 'TESSERA_FRAME_PORT', defaultPort: 5174 },
  auth: { name: 'auth service', envVar: 'TESSERA_AUTH_PORT', defaultPort: 8791 },
  oidc: { name: 'local identity providers', envVar: 'TESSERA_OIDC_PORT', defaultPort: 8792 },
  // mailpit's defaults, where developers look for a local mail catcher.
  smtp: { name: 'SMTP capture', envVar: 'TESSERA_SMTP_PORT', defaultPort: 1025 },
  mail: { name: 'local inbox', envVar: 'TESSERA_MAIL_PORT', defaultPort: 8025 },
} as const satisfies Record<string, PortSpec>

export type StackPortName = keyof typeof stackPorts
export type StackPorts = Record<StackPortName, number>

export class PortInUseError extends Error {
  constructor(readonly spec: PortSpec, readonly port: number) {
    super(`Port ${port} (${spec.name}) is already in use: set ${spec.envVar} to a free port.`)
    this.name = 'PortInUseError'
  }
}

function listenOnce(port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.unref()
    server.once('error', reject)
    server.listen({ port, host, exclusive: true }, () => {
      const address = server.address()
      const bound = typeof address === 'object' && address ? address.port : port
      server.close(() => resolve(bound))
    })
  })
}

/** Reads each port from its variable (or the default) and fails with one clear line if it is taken. */
export async function resolvePorts(env: NodeJS.ProcessEnv, host = '127.0.0.1'): Promise<StackPorts> {
  const ports = {} as StackPorts
  for (const [key, spec] of Object.entries(stackPorts) as [StackPortName, PortSpec][]) {
    const raw = env[spec.envVar]
    const port = raw === undefined || raw === '' ? spec.defaultPort : Number(raw)
    if (!Number.isInteger(port) || port < 1 || port > 65_535) {
      throw new Error(`${spec.envVar} must be a port number from 1 to 65535, got "${raw}".`)
    }
    try {
      await listenOnce(port, host)
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new PortInUseError(spec, port)
      throw error
    }
    ports[key] = port
  }
  return ports
}

/**
 * The variables that make `resolvePorts` choose these ports, for a child `npm start`.
 * @example spawn(process.execPath, ['scripts/start.mjs'], { env: { ...process.env, ...stackPortsEnv(await freePorts()) } })
 */
export function stackPortsEnv(ports: StackPorts): Record<string, string> {
  return Object.fromEntries((Object.entries(stackPorts) as [StackPortName, PortSpec][]).map(([key, spec]) => [spec.envVar, String(ports[key])]))
}

/**
 * Where `freePorts` picks: under the range Linux takes outgoing connections' ports from (32768–60999), so no
 * connection this process opens can take a port between its pick and its service's listen, and, for a test file run
 * beside others (vitest's `VITEST_POOL_ID`, Playwright's `TEST_WORKER_INDEX`), a slice of its own, so two files never
 * pick the same one.
 */
export function freePortRange(env: NodeJS.ProcessEnv = process.env): { from: number; to: number } {
  const slices = 8
  const size = Math.floor((32_768 - 20_000) / slices)
  const worker = Number(env.VITEST_POOL_ID ?? env.TEST_WORKER_INDEX ?? 0)
  const slice = Number.isSafeInteger(worker) && worker > 0 ? worker % slices : 0
  return { from: 20_000 + slice * size, to: 20_000 + (slice + 1) * size - 1 }
}

/** The next port `freePorts` tries: from a random start in this process's range, then each in turn. */
let nextPort: number | undefined

/** Picks free ports for every service (tests run beside a developer's `npm start`, and beside each other). */
export async function freePorts(host = '127.0.0.1'): Promise<StackPorts> {
  const { from, to } = freePortRange()
  const anywhere = () => from + Math.floor(Math.random() * (to - from))
  const after = (port: number | undefined) => (port === undefined || port < from || port > to ? anywhere() : port === to ? from : port + 1)
  const ports = {} as StackPorts
  for (const key of Object.keys(stackPorts) as StackPortName[]) {
    for (let tried = 0; ; tried++) {
      if (tried > to - from) throw new Error(`No free port from ${from} to ${to} on ${host}.`)
      nextPort = after(nextPort)
      const port = nextPort
      const isFree = await listenOnce(port, host).then(
        () => true,
        (error: NodeJS.ErrnoException) => {
          if (error.code === 'EADDRINUSE' || error.code === 'EACCES') return false
          throw error
        },
      )
      if (isFree) {
        ports[key] = port
        break
      }
    }
  }
  return ports
}
