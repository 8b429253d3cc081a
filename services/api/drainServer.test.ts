import { Agent, get } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { listen } from '../listen'
import { drainServer } from './drainServer'

const limits = { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, maxConnections: 100 }

/** A server whose answers wait until the test lets them go. */
async function startHeldServer() {
  const held: (() => void)[] = []
  const server = await listen({
    fetch: () => new Promise<Response>((resolve) => held.push(() => resolve(new Response('done')))),
    host: '127.0.0.1',
    port: 0,
    limits,
  })
  const { port } = server.address() as { port: number }
  return { server, port, held }
}

/** GET / over a keep-alive agent: the answer's status and body, or the error's code. */
const request = (port: number, agent: Agent) =>
  new Promise<string>((resolve) => {
    const req = get({ host: '127.0.0.1', port, agent }, (res) => {
      let body = ''
      res.on('data', (chunk: Buffer) => void (body += chunk.toString()))
      res.on('end', () => resolve(`${res.statusCode} ${body}`))
      res.on('error', () => resolve('aborted'))
    })
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message))
  })

describe('drainServer', () => {
  const agent = new Agent({ keepAlive: true })
  afterEach(() => agent.destroy())

  it('answers the requests under way, takes no new ones, and resolves once they are answered', async () => {
    const { server, port, held } = await startHeldServer()
    const inFlight = request(port, agent)
    await expect.poll(() => held.length).toBe(1)
    let drainedAt: number | undefined
    const drained = drainServer(server, { graceMs: 5_000 }).then(() => void (drainedAt = performance.now()))
    expect(await request(port, new Agent())).toBe('ECONNREFUSED')
    held[0]!()
    const answeredAt = performance.now()
    expect(await inFlight).toBe('200 done')
    await drained
    // The keep-alive connection is closed once idle, not left to its timeout.
    expect(drainedAt! - answeredAt).toBeLessThan(1_000)
  })

  it('closes what is still open after the grace period', async () => {
    const { server, port, held } = await startHeldServer()
    const inFlight = request(port, agent)
    await expect.poll(() => held.length).toBe(1)
    const startedAt = performance.now()
    await drainServer(server, { graceMs: 300 })
    expect(performance.now() - startedAt).toBeGreaterThanOrEqual(290)
    expect(await inFlight).toMatch(/ECONNRESET|socket hang up|aborted/)
  })
})
