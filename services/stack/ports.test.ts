import { createServer, type Server } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { freePorts, PortInUseError, resolvePorts } from './ports'

const servers: Server[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))))
})

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
      TESSERA_API_PORT: String(free.api),
      TESSERA_DEMO_PORT: String(free.demo),
      TESSERA_RELAY_PORT: String(free.relay),
    })
    expect(ports).toEqual(free)
  })

  it('names the port and the variable to change when a port is taken', async () => {
    const free = await freePorts()
    const taken = await occupy()
    const env = {
      TESSERA_ANVIL_PORT: String(free.anvil),
      TESSERA_ANVIL2_PORT: String(free.anvil2),
      TESSERA_API_PORT: String(taken),
      TESSERA_DEMO_PORT: String(free.demo),
      TESSERA_RELAY_PORT: String(free.relay),
    }
    const error = await resolvePorts(env).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(PortInUseError)
    expect((error as Error).message).toBe(`Port ${taken} (data service) is already in use: set TESSERA_API_PORT to a free port.`)
  })

  it.each(['abc', '0', '70000', '80.5'])('rejects %s as a port number', async (raw) => {
    await expect(resolvePorts({ TESSERA_DEMO_PORT: raw })).rejects.toThrow(
      `TESSERA_DEMO_PORT must be a port number from 1 to 65535, got "${raw}".`,
    )
  })
})

describe('freePorts', () => {
  it('gives a distinct port to every part of the stack', async () => {
    const ports = Object.values(await freePorts())
    expect(new Set(ports).size).toBe(5)
  })
})
