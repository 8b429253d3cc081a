import { createClient, HttpRequestError, TimeoutError } from 'viem'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { answer, delayed, garbage, hang, httpStatus, rpcError, startFaultServer, wrongIds, type FaultHandler, type FaultServer } from './faultServer'
import { fallbackTransport, getHedgeDelayMs, shouldThrow, type FallbackTransportParameters } from './fallback'
import { httpTransport, type HttpTransportParameters } from './http'
import { ResponseIdsMismatchError } from './httpRpcClient'
import type { TransportRanking } from './ranking'

const servers: FaultServer[] = []
afterEach(async () => {
  vi.useRealTimers()
  await Promise.all(servers.splice(0).map((s) => s.close()))
})

// Real time for real I/O while the transport's timers are fake.
const realSetTimeout = globalThis.setTimeout
const realDelay = (ms: number) => new Promise((resolve) => realSetTimeout(resolve, ms))
/** Waits for real I/O; with fake timers on, moves them 1 ms a step so that a batch's flush (a 0 ms timer) runs. */
async function until(check: () => boolean) {
  for (let i = 0; i < 400 && !check(); i++) {
    if (vi.isFakeTimers()) await vi.advanceTimersByTimeAsync(1)
    await realDelay(5)
  }
  expect(check()).toBe(true)
}

const names = ['a', 'b', 'c'] as const

/**
 * Three fault servers behind one fallback client. `log` records which server got each JSON-RPC call, in order;
 * `sleeps` the backoffs (recorded, not slept); `clock.t` is the fallback's clock: it moves only by those backoffs,
 * or when a test moves it.
 */
async function setup(
  handlers: readonly (FaultHandler | FaultHandler[])[],
  { http = {}, ...options }: FallbackTransportParameters & { http?: HttpTransportParameters | HttpTransportParameters[] } = {},
) {
  const log: string[] = []
  const started = await Promise.all(
    handlers.map((h, i) => {
      const logged = (h: FaultHandler): FaultHandler => (body, res, req) => {
        for (const _ of Array.isArray(body) ? body : [body]) log.push(names[i]!)
        return h(body, res, req)
      }
      return startFaultServer(...(Array.isArray(h) ? h : [h]).map(logged))
    }),
  )
  servers.push(...started)
  const sleeps: number[] = []
  const clock = { t: 0 }
  const transport = fallbackTransport(
    started.map((s, i) => httpTransport(s.url, Array.isArray(http) ? http[i] : http)),
    {
      sleep: async (ms) => {
        sleeps.push(ms)
        clock.t += ms
      },
      now: () => clock.t,
      ...options,
    },
  )
  const client = createClient({ transport })
  return {
    servers: started,
    log,
    sleeps,
    clock,
    client,
    request: (method = 'eth_blockNumber', params: unknown[] = []) => client.request({ method, params } as never) as Promise<unknown>,
  }
}

const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (e: unknown) => e)

describe('fallbackTransport: moving on', () => {
  it.each<[string, FaultHandler, HttpTransportParameters?]>([
    ['a timeout', hang(), { timeoutMs: 100 }],
    ['an HTTP 500', httpStatus(500)],
    ['an HTTP 429 with Retry-After: 30', httpStatus(429, { 'Retry-After': '30' })],
    ['a body that is not JSON', garbage()],
    ['an answer with the wrong id', wrongIds((ids) => ids.map((id) => id + 1))],
    ['an answer with no id', wrongIds(() => [])],
    ['a reset connection', (_b, res) => void res.socket?.destroy()],
    ['a method the node lacks', rpcError(-32601, 'method not found')],
    ['a rate limit', rpcError(-32005, 'limit exceeded')],
  ])('moves to the next endpoint at once after %s', async (_name, fault, http = {}) => {
    const { log, sleeps, request } = await setup([fault, answer(() => '0xb'), answer(() => '0xc')], { http })
    expect(await request()).toBe('0xb')
    expect(log).toEqual(['a', 'b'])
    expect(sleeps).toEqual([])
  })

  it.each([
    ['a revert', rpcError(3, 'execution reverted: no')],
    ['a revert reported as -32000', rpcError(-32000, 'execution reverted')],
    ['nonce too low', rpcError(-32000, 'nonce too low')],
    ['insufficient funds', rpcError(-32000, 'insufficient funds for gas * price + value')],
    ['a user rejection', rpcError(4001, 'User rejected the request.')],
  ])('stops at %s: the next node would answer the same', async (_name, fault) => {
    const { log, sleeps, request } = await setup([fault, answer(() => '0xb')])
    await expect(request()).rejects.toThrow()
    expect(log).toEqual(['a'])
    expect(sleeps).toEqual([])
  })

  it('retries an internal error where it happened, after the backoff, and never on the next node', async () => {
    const { log, sleeps, request } = await setup([[rpcError(-32603, 'internal error'), answer(() => '0xa')], answer(() => '0xb')])
    expect(await request()).toBe('0xa')
    expect(log).toEqual(['a', 'a'])
    expect(sleeps).toEqual([150])
  })

  it('retries in rounds: A, B, C, then the backoff, then A, B, C (3 retries from 150 ms), and throws the last error', async () => {
    const { log, sleeps, request } = await setup([httpStatus(502), httpStatus(503), httpStatus(504)])
    const error = await failure(request())
    expect((error as HttpRequestError).status).toBe(504)
    expect(log).toEqual(['a', 'b', 'c', 'a', 'b', 'c', 'a', 'b', 'c', 'a', 'b', 'c'])
    expect(sleeps).toEqual([150, 300, 600])
  })

  it.each<[string, FaultHandler, HttpTransportParameters?]>([
    ['a reset connection', (_b, res) => void res.socket?.destroy()],
    ['a timeout', hang(), { timeoutMs: 100 }],
  ])('throws the error the first node answered (-32602), not the next one’s %s', async (_name, dead, http = {}) => {
    const { log, request } = await setup([rpcError(-32602, 'invalid params'), dead], { http })
    const error = await failure(request('eth_getBalance', ['not an address', 'latest']))
    expect(error).toMatchObject({ code: -32602, details: 'invalid params' })
    expect(log).toEqual(['a', 'b', 'b', 'b', 'b'])
  })

  it('gives another round only to the endpoints whose failure is worth a retry', async () => {
    const { log, request } = await setup([httpStatus(503), httpStatus(404), httpStatus(503)], { retryCount: 1 })
    await expect(request()).rejects.toThrow()
    expect(log).toEqual(['a', 'b', 'c', 'a', 'c'])
  })

  it('waits for a Retry-After (at most 5 s) before the next round when every endpoint is held by one', async () => {
    const limited = [httpStatus(429, { 'Retry-After': '2' }), answer(() => '0x1')]
    const { log, sleeps, request } = await setup([limited, limited])
    expect(await request()).toBe('0x1')
    expect(log).toEqual(['a', 'b', 'a'])
    expect(sleeps).toEqual([2_000])
  })
})

describe('fallbackTransport: the request’s deadline', () => {
  it('starts no round and no backoff past the deadline (10 s by default)', async () => {
    const { log, sleeps, request } = await setup([httpStatus(503), httpStatus(503)], { timeoutMs: 1_000 })
    await expect(request()).rejects.toThrow(HttpRequestError)
    // rounds at 0, 150 and 450 ms; the next backoff (600 ms) would end past the 1,000 ms budget
    expect(sleeps).toEqual([150, 300])
    expect(log).toHaveLength(6)
  })

  it('aborts the attempts in flight when the budget runs out, each attempt getting only what is left', async () => {
    const { servers: [a, b, c], request } = await setup([hang(), hang(), hang()], {
      timeoutMs: 200,
      now: () => performance.now(),
      minHedgeDelayMs: 10,
      maxHedgeDelayMs: 20,
    })
    const error = await failure(request('eth_getBalance', ['0x0000000000000000000000000000000000000001', 'latest']))
    expect(error).toBeInstanceOf(TimeoutError)
    for (const server of [a!, b!, c!]) {
      expect(server.calls()).toHaveLength(1)
      await expect.poll(() => server.abandoned).toBe(1)
    }
  })
})

describe('fallbackTransport: circuit breaker', () => {
  it('sets a rate-limited endpoint aside for its Retry-After, capped at 5 s, instead of sleeping', async () => {
    const { log, sleeps, clock, request } = await setup([[httpStatus(429, { 'Retry-After': '30' }), answer(() => '0xa')], answer(() => '0xb')])
    expect(await request()).toBe('0xb')
    clock.t = 4_999
    expect(await request()).toBe('0xb')
    clock.t = 5_000
    expect(await request()).toBe('0xa')
    expect(log).toEqual(['a', 'b', 'b', 'a'])
    expect(sleeps).toEqual([])
  })

  it('skips a cooling endpoint, tries it again after its cool-off (1 s, doubling), and forgets after a success', async () => {
    let isUp = false
    const flaky: FaultHandler = (body, res, req) => (isUp ? answer(() => '0xa') : httpStatus(503))(body, res, req)
    const { log, clock, request } = await setup([flaky, answer(() => '0xb')])
    const at = async (t: number) => {
      clock.t = t
      log.length = 0
      await request()
      return log.join('')
    }
    expect(await at(0)).toBe('ab')
    expect(await at(999)).toBe('b')
    expect(await at(1_000)).toBe('ab') // cool-off 2 s from here
    expect(await at(2_999)).toBe('b')
    expect(await at(3_000)).toBe('ab') // 4 s from here
    expect(await at(6_999)).toBe('b')
    isUp = true
    expect(await at(7_000)).toBe('a')
    isUp = false
    expect(await at(7_000)).toBe('ab') // after a success the cool-off starts again at 1 s
    expect(await at(8_000)).toBe('ab')
  })

  it('brings a cooling endpoint back as soon as a ranking ping gets an answer from it', async () => {
    let ranking: TransportRanking | undefined
    const { servers: [a], request } = await setup([httpStatus(503), delayed(30, answer(() => '0xb'))], {
      rank: { intervalMs: 20, pingTimeoutMs: 500, sampleCount: 1 },
      onRanking: (r) => (ranking = r),
    })
    // the clock stands still: only a ping can end A's cool-off
    expect(await request()).toBe('0xb')
    a!.setHandlers(answer(() => '0xa'))
    await expect.poll(() => ranking?.getRanked()[0]?.index, { timeout: 3_000 }).toBe(0)
    expect(await request()).toBe('0xa')
    ranking?.stop()
  })

  it('aborts a ranking ping that times out, so a hanging node does not pile up pings', async () => {
    let ranking: TransportRanking | undefined
    const { servers: [a] } = await setup([hang(), answer(() => '0xb')], {
      rank: { intervalMs: 10, pingTimeoutMs: 30 },
      onRanking: (r) => (ranking = r),
    })
    await expect.poll(() => a!.abandoned, { timeout: 3_000 }).toBeGreaterThanOrEqual(3)
    ranking?.stop()
    // every ping but the one in flight was given up, its connection closed
    expect(a!.calls().length - a!.abandoned).toBeLessThanOrEqual(1)
  })

  it('sends no ranking pings to a single endpoint: there is no order to keep', async () => {
    let ranking: TransportRanking | undefined
    const { servers: [a], request } = await setup([answer(() => '0xa')], { rank: { intervalMs: 10, pingTimeoutMs: 30 }, onRanking: (r) => (ranking = r) })
    expect(await request('eth_chainId')).toBe('0xa')
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect(ranking).toBeUndefined()
    expect(a!.calls()).toHaveLength(1)
  })

  it('puts the faster transport first once ranking has run', async () => {
    let ranking: TransportRanking | undefined
    const { request } = await setup([delayed(80, answer(() => '0xa')), answer(() => '0xb')], {
      rank: { intervalMs: 20, pingTimeoutMs: 500 },
      onRanking: (r) => (ranking = r),
    })
    await expect.poll(() => ranking?.getRanked()[0]?.index, { timeout: 3_000 }).toBe(1)
    expect(await request('eth_chainId')).toBe('0xb')
    ranking?.stop()
  })
})

describe('fallbackTransport: hedged reads', () => {
  const address = (i: number) => `0x${i.toString(16).padStart(40, '0')}`
  const balanceOf = answer((r) => (r.params as string[])[0])

  it('with one of three endpoints hanging, every one of many concurrent reads succeeds, none asked only of the hanging one', async () => {
    const { servers: [a, b, c], request } = await setup([hang(), balanceOf, balanceOf], { minHedgeDelayMs: 20, maxHedgeDelayMs: 50 })
    const reads = 300
    const results = await Promise.all(Array.from({ length: reads }, (_, i) => request('eth_getBalance', [address(i), 'latest'])))
    expect(results).toEqual(Array.from({ length: reads }, (_, i) => address(i)))
    expect(a!.calls()).toHaveLength(reads)
    const answered = new Set([...b!.calls(), ...c!.calls()].map((r) => (r.params as string[])[0]))
    expect(answered.size).toBe(reads)
    // the hedges of one tick still go out as batches, and the losers' request to the hanging node is aborted
    expect(b!.requests.length + c!.requests.length).toBeLessThan(reads / 10)
    await expect.poll(() => a!.abandoned).toBeGreaterThanOrEqual(1)

    // A overtook nobody: the next reads start on a live endpoint
    const before = a!.calls().length
    await Promise.all(Array.from({ length: 10 }, (_, i) => request('eth_getBalance', [address(i), 'latest'])))
    expect(a!.calls()).toHaveLength(before)
  })

  it.each([
    ['eth_getBalance', true],
    ['eth_sendRawTransaction', false],
    ['eth_sendTransaction', false],
    ['personal_sign', false],
  ])('hedges %s: %s (an unsafe method goes to the next endpoint only once its attempt on a hanging one failed)', async (method, isHedged) => {
    const { servers: [a, b, c], request } = await setup([hang(), answer(() => '0xb'), answer(() => '0xc')], {
      http: [{ timeoutMs: 5_000 }, {}, {}],
      minHedgeDelayMs: 10,
      maxHedgeDelayMs: 20,
    })
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const pending = request(method, ['0x02'])
    await vi.advanceTimersByTimeAsync(0)
    await until(() => a!.calls().length === 1)
    await vi.advanceTimersByTimeAsync(4_999) // hundreds of hedge delays
    await realDelay(50)
    expect(b!.calls()).toHaveLength(isHedged ? 1 : 0)
    if (!isHedged) await vi.advanceTimersByTimeAsync(1) // the attempt on A times out
    await until(() => b!.calls().length === 1)
    expect(await pending).toBe('0xb')
    expect(a!.calls()).toHaveLength(1)
    expect(b!.calls()).toHaveLength(1)
    expect(c!.calls()).toHaveLength(0)
    await until(() => a!.abandoned === 1)
  })

  it('ends a request at once when the caller aborts it, with the attempts in flight', async () => {
    const { servers: [a, b], client } = await setup([hang(), answer(() => '0xb')])
    const controller = new AbortController()
    const pending = failure(client.request({ method: 'eth_sendRawTransaction', params: ['0x02'] } as never, { signal: controller.signal }))
    await expect.poll(() => a!.calls()).toHaveLength(1)
    controller.abort()
    expect(((await pending) as Error).name).toBe('AbortError')
    await expect.poll(() => a!.abandoned).toBe(1)
    expect(b!.calls()).toHaveLength(0)
  })

  it.each([
    [0, 250],
    [10, 250],
    [100, 400],
    [400, 1_000],
    [Infinity, 1_000],
  ])('hedges after 4 × the ranked latency, within 250 ms and 1 s: %s ms → %s ms', (latencyMs, expected) => {
    expect(getHedgeDelayMs({ latencyMs, minMs: 250, maxMs: 1_000 })).toBe(expected)
  })
})

describe('fallbackTransport: answers checked by id', () => {
  it.each<[string, (ids: number[]) => number[]]>([
    ['missing', (ids) => ids.slice(1)],
    ['extra', (ids) => [...ids, 999]],
    ['duplicated', (ids) => [ids[0]!, ...ids]],
    ['wrong', (ids) => ids.map((id) => id + 1_000)],
  ])('counts a batch answer with %s ids as a failure of that endpoint', async (_name, ids) => {
    const { servers: [a, b], client } = await setup([wrongIds(ids), answer(() => '0xb')])
    const results = await Promise.all([1, 2, 3].map(() => client.request({ method: 'eth_blockNumber' } as never)))
    expect(results).toEqual(['0xb', '0xb', '0xb'])
    expect(a!.requests).toHaveLength(1)
    expect(b!.calls()).toHaveLength(3)
  })

  it('says what was wrong when no endpoint answers with the right ids', async () => {
    const { request } = await setup([wrongIds(() => [7])], { retryCount: 0 })
    const error = await failure(request())
    expect(error).toBeInstanceOf(ResponseIdsMismatchError)
    expect((error as Error).message).toMatch(/ids that are not the ids sent; missing 1; unexpected 7/)
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

