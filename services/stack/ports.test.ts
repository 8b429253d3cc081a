import { createServer, type Server } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { knownNetworks } from '../../src/shared/protocol/networks'
import { freePortRange, freePorts, PortInUseError, resolvePorts, stackPorts, stackPortsEnv } from './ports'

const servers: Server[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))))
})

async function occupyPort(port: number): Promise<number> {
  const server = createServer()
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  return port
}

async function occupy(): Promise<number> {
  const server = createServer()
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return (server.address() as { port: number }).port
}

describe('resolvePorts', () => {
  it('reads each port from its variable', async () => {
    const free = await freePorts()
    const ports = await resolvePorts({
      TESSERA_ANVIL_PORT: String(free.anvil),
      TESSERA_ANVIL2_PORT: String(free.anvil2),
      TESSERA_SOLANA_PORT: String(free.solana),
      TESSERA_SOLANA_WS_PORT: String(free.solanaWs),
      TESSERA_BITCOIN_PORT: String(free.bitcoin),
      TESSERA_POLKADOT_PORT: String(free.polkadot),
      TESSERA_API_PORT: String(free.api),
      TESSERA_DEMO_PORT: String(free.demo),
      TESSERA_RELAY_PORT: String(free.relay),
      TESSERA_FRAME_PORT: String(free.frame),
      TESSERA_AUTH_PORT: String(free.auth),
      TESSERA_OIDC_PORT: String(free.oidc),
      TESSERA_SMTP_PORT: String(free.smtp),
      TESSERA_MAIL_PORT: String(free.mail),
      TESSERA_BUNDLER_PORT: String(free.bundler),
      TESSERA_PAYMASTER_PORT: String(free.paymaster),
      TESSERA_ONRAMP_PORT: String(free.onramp),
    })
    expect(ports).toEqual(free)
  })

  it.each([
    ['api', 'data service', 'TESSERA_API_PORT'],
    ['solana', 'Solana local RPC', 'TESSERA_SOLANA_PORT'],
    ['solanaWs', 'Solana local PubSub', 'TESSERA_SOLANA_WS_PORT'],
    ['bitcoin', 'Bitcoin local Esplora API', 'TESSERA_BITCOIN_PORT'],
    ['polkadot', 'Polkadot local chain (chopsticks)', 'TESSERA_POLKADOT_PORT'],
    ['auth', 'auth service', 'TESSERA_AUTH_PORT'],
    ['smtp', 'SMTP capture', 'TESSERA_SMTP_PORT'],
    ['bundler', 'ERC-4337 bundler (Alto)', 'TESSERA_BUNDLER_PORT'],
    ['paymaster', 'paymaster service', 'TESSERA_PAYMASTER_PORT'],
    ['onramp', 'on-ramp sandbox', 'TESSERA_ONRAMP_PORT'],
  ] as const)('names the %s port and the variable to change when it is taken', async (key, name, envVar) => {
    const taken = await occupy()
    const env = { ...stackPortsEnv(await freePorts()), [envVar]: String(taken) }
    const error = await resolvePorts(env).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(PortInUseError)
    expect((error as PortInUseError).spec).toBe(stackPorts[key])
    expect((error as Error).message).toBe(`Port ${taken} (${name}) is already in use: set ${envVar} to a free port.`)
  })

  it('defaults the Solana chain to the ports the known local Solana network points at (8899, PubSub 8900)', () => {
    const local = knownNetworks.find((n) => n.name === 'Solana Local')
    expect(local?.rpcUrls.default).toEqual({
      http: [`http://127.0.0.1:${stackPorts.solana.defaultPort}`],
      webSocket: [`ws://127.0.0.1:${stackPorts.solanaWs.defaultPort}`],
    })
    expect([stackPorts.solana.defaultPort, stackPorts.solanaWs.defaultPort]).toEqual([8899, 8900])
  })

  it.each(['abc', '0', '70000', '80.5'])('rejects %s as a port number', async (raw) => {
    await expect(resolvePorts({ TESSERA_DEMO_PORT: raw })).rejects.toThrow(
      `TESSERA_DEMO_PORT must be a port number from 1 to 65535, got "${raw}".`,
    )
  })
})

describe('freePorts', () => {
  it('gives a distinct port to every part of the stack, the Solana RPC and PubSub, the Bitcoin API and the Polkadot chain included', async () => {
    const ports = await freePorts()
    expect(Object.keys(ports)).toEqual(['anvil', 'anvil2', 'solana', 'solanaWs', 'bitcoin', 'polkadot', 'api', 'demo', 'relay', 'bundler', 'paymaster', 'onramp', 'frame', 'auth', 'oidc', 'smtp', 'mail'])
    expect(new Set(Object.values(ports)).size).toBe(17)
  })

  it('picks under the ports Linux gives outgoing connections (32768 and up), in a range of its own for each test worker', () => {
    const ranges = ['0', '1', '2', '3'].map((id) => freePortRange({ VITEST_POOL_ID: id }))
    for (const [index, range] of ranges.entries()) {
      expect(range.from).toBeGreaterThanOrEqual(20_000)
      expect(range.to).toBeLessThan(32_768)
      for (const other of ranges.slice(index + 1)) expect(other.from > range.to || other.to < range.from).toBe(true)
    }
    expect(freePortRange({ TEST_WORKER_INDEX: '1' })).toEqual(ranges[1])
    expect(freePortRange({ VITEST_POOL_ID: 'x' })).toEqual(ranges[0])
  })

  it("stays in this worker's range, hands out no port twice, and passes over a port that is taken", async () => {
    const { from, to } = freePortRange()
    const first = Object.values(await freePorts())
    const taken = await occupyPort(first.at(-1)! === to ? from : first.at(-1)! + 1)
    const second = Object.values(await freePorts())
    const all = [...first, ...second]
    for (const port of all) expect(port >= from && port <= to).toBe(true)
    expect(new Set(all).size).toBe(34)
    expect(second).not.toContain(taken)
  })
})

