import { createClient } from 'viem'
import { afterEach, describe, expect, it } from 'vitest'
import { answer, httpStatus, rpcError, startFaultServer, type FaultServer } from './faultServer'
import { fallbackTransport, shouldThrow } from './fallback'
import { httpTransport } from './http'
import type { TransportRanking } from './ranking'

const servers: FaultServer[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()))
})

async function twoServers(first: Parameters<typeof startFaultServer>[0]) {
  const a = await startFaultServer(first)
  const b = await startFaultServer(answer(() => '0xb'))
  servers.push(a, b)
  const noWait = { retryCount: 0 }
  const client = createClient({ transport: fallbackTransport([httpTransport(a.url, noWait), httpTransport(b.url, noWait)]) })
  return { a, b, request: () => client.request({ method: 'eth_blockNumber' } as never) }
}

describe('fallbackTransport', () => {
  it.each([
    ['an HTTP 503', httpStatus(503)],
    ['a reset connection', ((_b, res) => void res.socket?.destroy()) as Parameters<typeof startFaultServer>[0]],
    ['a method the node lacks', rpcError(-32601, 'method not found')],
    ['a rate limit', rpcError(-32005, 'limit exceeded')],
  ])('moves to the next transport after %s', async (_name, fault) => {
    const { a, b, request } = await twoServers(fault)
    expect(await request()).toBe('0xb')
    expect(a.requests).toHaveLength(1)
    expect(b.requests).toHaveLength(1)
  })

  it.each([
    ['a revert', rpcError(3, 'execution reverted: no')],
    ['a revert reported as -32000', rpcError(-32000, 'execution reverted')],
    ['an internal error', rpcError(-32603, 'internal error')],
    ['nonce too low', rpcError(-32000, 'nonce too low')],
    ['insufficient funds', rpcError(-32000, 'insufficient funds for gas * price + value')],
    ['a user rejection', rpcError(4001, 'User rejected the request.')],
  ])('stops at %s: the next node would answer the same', async (_name, fault) => {
    const { b, request } = await twoServers(fault)
    await expect(request()).rejects.toThrow()
    expect(b.requests).toHaveLength(0)
  })

  it('throws the last error when every transport fails', async () => {
    const a = await startFaultServer(httpStatus(502))
    const b = await startFaultServer(httpStatus(504))
    servers.push(a, b)
    const transport = fallbackTransport([httpTransport(a.url, { retryCount: 0 }), httpTransport(b.url, { retryCount: 0 })])
    const error = await createClient({ transport }).request({ method: 'eth_blockNumber' } as never).catch((e: unknown) => e)
    expect((error as { status: number }).status).toBe(504)
  })

  it('puts the faster transport first once ranking has run', async () => {
    const slow = await startFaultServer(async (body, res) => {
      await new Promise((resolve) => setTimeout(resolve, 80))
      answer(() => '0xa')(body, res, undefined as never)
    })
    const fast = await startFaultServer(answer(() => '0xb'))
    servers.push(slow, fast)
    let ranking: TransportRanking | undefined
    const transport = fallbackTransport([httpTransport(slow.url), httpTransport(fast.url)], {
      rank: { intervalMs: 20, pingTimeoutMs: 500 },
      onRanking: (r) => (ranking = r),
    })
    const client = createClient({ transport })
    await expect.poll(() => ranking?.getRanked()[0]?.index, { timeout: 3_000 }).toBe(1)
    expect(await client.request({ method: 'eth_chainId' } as never)).toBe('0xb')
    ranking?.stop()
  })
})

describe('shouldThrow', () => {
  it.each([
    [{ code: 3, message: 'execution reverted' }, true],
    [{ code: -32603, message: 'x' }, true],
    [{ code: -32000, message: 'max fee per gas less than block base fee' }, true],
    [{ code: -32000, message: 'intrinsic gas too low' }, true],
    [{ code: -32000, message: 'transaction type not valid' }, true],
    [{ code: -32000, message: 'header not found' }, false],
    [{ code: -32005, message: 'limit exceeded' }, false],
    [new Error('fetch failed'), false],
  ])('%o → %s', (error, expected) => {
    expect(shouldThrow(error)).toBe(expected)
  })
})
