import { Hono } from 'hono'
import { afterEach, describe, expect, it } from 'vitest'
import { listen } from '../listen'
import { freePorts } from '../stack/ports'
import { resolveLimits } from './config'
import { visitorIp } from './visitorIp'

const appTrusting = (trustedProxies: string[]) => new Hono().get('/', (c) => c.text(visitorIp(c, trustedProxies) ?? 'unknown'))
const from = (remoteAddress: string) => ({ incoming: { socket: { remoteAddress } } })

describe('visitorIp', () => {
  const servers: { close: (done: () => void) => void }[] = []
  afterEach(async () => {
    for (const server of servers.splice(0)) await new Promise<void>((resolve) => server.close(() => resolve()))
  })

  it('is the connection’s peer on a real socket, an IPv4 peer written as IPv4', async () => {
    const { api: port } = await freePorts()
    const server = await listen({ fetch: appTrusting([]).fetch, host: '127.0.0.1', port, limits: resolveLimits() })
    servers.push(server)
    expect(await (await fetch(`http://127.0.0.1:${port}/`, { headers: { 'x-forwarded-for': '203.0.113.7' } })).text()).toBe('127.0.0.1')
  })

  it('believes X-Forwarded-For only from a trusted proxy, and then only its last address', async () => {
    const app = appTrusting(['10.0.0.2'])
    const ask = async (peer: string, forwarded?: string) => (await app.request('/', { headers: forwarded ? { 'x-forwarded-for': forwarded } : {} }, from(peer))).text()
    expect(await ask('::ffff:10.0.0.2', '198.51.100.1, 203.0.113.7')).toBe('203.0.113.7')
    expect(await ask('10.0.0.2', '2001:db8::1')).toBe('2001:db8::1')
    expect(await ask('192.0.2.44', '203.0.113.7')).toBe('192.0.2.44')
    expect(await ask('10.0.0.2', 'not an address')).toBe('10.0.0.2')
    expect(await ask('10.0.0.2')).toBe('10.0.0.2')
  })

  it('is unknown without a socket', async () => {
    expect(await (await appTrusting([]).request('/')).text()).toBe('unknown')
  })
})
