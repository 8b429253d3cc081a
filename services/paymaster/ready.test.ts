import { describe, expect, it } from 'vitest'
import { createPaymasterApp } from './app'
import { createDailyGasUsage, type DailyGasUsage } from './dailyGasUsage'
import { startPaymaster } from './server'

const config = {
  signerKey: '0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6',
  chains: [{ chainId: 31337, rpcUrl: 'http://127.0.0.1:1', paymasterAddress: '0x1111111111111111111111111111111111111111', entryPointAddress: '0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108' }],
  projects: [{ id: 'site', allowedOrigins: [], chainIds: [31337], dailyGasPerAccount: 1_000_000 }],
}
const memoryUsage = () => createDailyGasUsage({ maxAccounts: 10 })
const ready = async (app: ReturnType<typeof createPaymasterApp>) => {
  const response = await app.request('/ready')
  return { status: response.status, body: await response.json() }
}

describe('the paymaster’s GET /ready, which a load balancer checks', () => {
  it('answers 200 when its count of sponsored gas answers', async () => {
    expect(await ready(createPaymasterApp({ ...config, usage: memoryUsage() }))).toEqual({ status: 200, body: { status: 'ready' } })
  })

  it('answers 503 naming Redis while the shared count does not answer', async () => {
    const unreachable: DailyGasUsage = { ...memoryUsage(), stats: () => Promise.reject(new Error('Redis is not connected')) }
    expect(await ready(createPaymasterApp({ ...config, usage: unreachable }))).toEqual({ status: 503, body: { status: 'unavailable', reason: 'The count of sponsored gas (Redis) does not answer.' } })
  })

  it('answers 503 while it drains', async () => {
    let isDraining = false
    const app = createPaymasterApp({ ...config, usage: memoryUsage(), isDraining: () => isDraining })
    expect((await ready(app)).status).toBe(200)
    isDraining = true
    expect(await ready(app)).toEqual({ status: 503, body: { status: 'unavailable', reason: 'The paymaster is stopping.' } })
  })

  it('is answered by the started service, whose stop closes it', async () => {
    const server = await startPaymaster({ ...config, port: 0 })
    expect(await (await fetch(`${server.url}/ready`)).json()).toEqual({ status: 'ready' })
    await server.stop()
    expect(await fetch(`${server.url}/ready`).then(() => 'answered', () => 'refused')).toBe('refused')
  })
})
