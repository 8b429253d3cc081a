import { createClient, HttpRequestError, TimeoutError, type Client } from 'viem'
import { afterEach, describe, expect, it } from 'vitest'
import { answer, hang, httpStatus, rpcError, startFaultServer, wrongIds, type FaultServer } from './faultServer'
import { httpTransport, type HttpTransportParameters } from './http'
import { BLOB_BODY_CHARACTERS, ResponseIdsMismatchError } from './httpRpcClient'

let server: FaultServer
afterEach(() => server?.close())

function clientFor(url: string | undefined, options: HttpTransportParameters = {}): { client: Client; sleeps: number[] } {
  const sleeps: number[] = []
  const transport = httpTransport(url, { sleep: async (ms) => void sleeps.push(ms), ...options })
  return { client: createClient({ transport }), sleeps }
}

const blockNumber = (client: Client) => client.request({ method: 'eth_blockNumber' } as never)

describe('httpTransport: batching', () => {
  it('sends the requests of one tick as one JSON-RPC batch', async () => {
    server = await startFaultServer(answer((r) => `0x${r.id.toString(16)}`))
    const { client } = clientFor(server.url)
    const results = await Promise.all(Array.from({ length: 5 }, () => blockNumber(client)))
    expect(results).toHaveLength(5)
    expect(server.requests).toHaveLength(1)
    expect(server.requests[0]).toHaveLength(5)
  })

  it('batches requests that each carry their own AbortSignal (viem batches per signal)', async () => {
    server = await startFaultServer(answer(() => '0x1'))
    const { client } = clientFor(server.url)
    await Promise.all(Array.from({ length: 5 }, () => client.request({ method: 'eth_blockNumber' } as never, { signal: new AbortController().signal })))
    expect(server.requests).toHaveLength(1)
    expect(server.requests[0]).toHaveLength(5)
  })

  it('matches the answers of a batch to its requests by id, in whatever order they come', async () => {
    server = await startFaultServer((body, res) => {
      const replies = (body as { id: number; params: string[] }[]).map((r) => ({ jsonrpc: '2.0', id: r.id, result: r.params[0] }))
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify(replies.reverse()))
    })
    const { client } = clientFor(server.url)
    const results = await Promise.all(['0xa', '0xb', '0xc'].map((tag) => client.request({ method: 'eth_getCode', params: [tag] } as never)))
    expect(results).toEqual(['0xa', '0xb', '0xc'])
  })

  it('lets one request of a batch go, and closes the connection only when none of them waits any more', async () => {
    server = await startFaultServer(hang())
    const { client } = clientFor(server.url, { retryCount: 0 })
    const controllers = [new AbortController(), new AbortController()]
    const pending = controllers.map((c) => client.request({ method: 'eth_blockNumber' } as never, { signal: c.signal }).catch((e: unknown) => e))
    await expect.poll(() => server.requests).toHaveLength(1)
    controllers[0]!.abort()
    expect(((await pending[0]) as Error).name).toBe('AbortError')
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(server.abandoned).toBe(0)
    controllers[1]!.abort()
    expect(((await pending[1]) as Error).name).toBe('AbortError')
    await expect.poll(() => server.abandoned).toBe(1)
  })

  it('splits a batch whose body would pass maxBatchBodyBytes, and sends the parts at once', async () => {
    // No part is answered before every part has arrived: the parts are on the wire together.
    let arrived = 0
    let allArrived: () => void
    const barrier = new Promise<void>((resolve) => (allArrived = resolve))
    server = await startFaultServer(async (body, res) => {
      if (++arrived === 4) allArrived()
      await barrier
      answer((r) => r.params![0])(body, res, undefined as never)
    })
    const { client } = clientFor(server.url, { maxBatchBodyBytes: 1_000 })
    const codes = Array.from({ length: 20 }, (_, i) => `0x${i.toString(16).padStart(100, '0')}`)
    const results = await Promise.all(codes.map((code) => client.request({ method: 'eth_getCode', params: [code] } as never)))
    expect(results).toEqual(codes)
    expect(server.requests.map((r) => JSON.stringify(r).length <= 1_000)).toEqual([true, true, true, true])
    expect(server.requests.flat()).toHaveLength(20)
  })

  it('sends a lone request larger than maxBatchBodyBytes as it is', async () => {
    server = await startFaultServer(answer(() => '0x1'))
    const { client } = clientFor(server.url, { maxBatchBodyBytes: 10 })
    await Promise.all([blockNumber(client), blockNumber(client)])
    expect(server.requests.map((r) => Array.isArray(r))).toEqual([false, false])
  })

  it('sends a body over 65,536 characters as a Blob and a smaller one as a string, the same JSON either way', async () => {
    server = await startFaultServer(answer((r) => r.params![0]))
    const bodies: unknown[] = []
    const { client } = clientFor(server.url, { fetchFn: (input, init) => (bodies.push(init.body), fetch(input, init)) })
    const code = (length: number) => `0x${'ab'.repeat(length / 2)}`
    expect(await client.request({ method: 'eth_getCode', params: [code(100)] } as never)).toBe(code(100))
    expect(await client.request({ method: 'eth_getCode', params: [code(BLOB_BODY_CHARACTERS)] } as never)).toBe(code(BLOB_BODY_CHARACTERS))
    expect(bodies.map((body) => (body instanceof Blob ? 'blob' : typeof body))).toEqual(['string', 'blob'])
    expect(server.requests.map((r) => (r as { params: string[] }).params[0]!.length)).toEqual([102, BLOB_BODY_CHARACTERS + 2])
  })

  it('splits batches at 1,000 requests', async () => {
    server = await startFaultServer(answer(() => '0x1'))
    const { client } = clientFor(server.url)
    await Promise.all(Array.from({ length: 1_001 }, () => blockNumber(client)))
    expect(server.requests.map((r) => (Array.isArray(r) ? r.length : 1))).toEqual([1_000, 1])
  })
})

describe('httpTransport: retries', () => {
  it.each([403, 408, 413, 429, 500, 502, 503, 504])('retries HTTP %i, then succeeds', async (status) => {
    server = await startFaultServer(httpStatus(status), answer(() => '0x2a'))
    const { client, sleeps } = clientFor(server.url)
    expect(await blockNumber(client)).toBe('0x2a')
    expect(server.requests).toHaveLength(2)
    expect(sleeps).toEqual([150])
  })

  it.each([400, 401, 404, 405])('does not retry HTTP %i', async (status) => {
    server = await startFaultServer(httpStatus(status), answer(() => '0x2a'))
    const { client } = clientFor(server.url)
    const error = await blockNumber(client).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(HttpRequestError)
    expect((error as HttpRequestError).status).toBe(status)
    expect(server.requests).toHaveLength(1)
  })

  it('waits 150, 300 and 600 ms between 3 retries, then throws the last error', async () => {
    server = await startFaultServer(httpStatus(503))
    const { client, sleeps } = clientFor(server.url)
    const error = await blockNumber(client).catch((e: unknown) => e)
    expect((error as HttpRequestError).status).toBe(503)
    expect(server.requests).toHaveLength(4)
    expect(sleeps).toEqual([150, 300, 600])
  })

  it('honours Retry-After in seconds and as an HTTP date', async () => {
    server = await startFaultServer(
      httpStatus(429, { 'Retry-After': '2' }),
      httpStatus(429, { 'Retry-After': new Date(Date.now() + 5_000).toUTCString() }),
      answer(() => '0x1'),
    )
    const { client, sleeps } = clientFor(server.url)
    expect(await blockNumber(client)).toBe('0x1')
    expect(sleeps[0]).toBe(2_000)
    expect(sleeps[1]).toBeGreaterThan(3_000)
    expect(sleeps[1]).toBeLessThanOrEqual(5_000)
  })

  it('caps Retry-After at 5 s', async () => {
    server = await startFaultServer(httpStatus(429, { 'Retry-After': '30' }), answer(() => '0x1'))
    const { client, sleeps } = clientFor(server.url)
    expect(await blockNumber(client)).toBe('0x1')
    expect(sleeps).toEqual([5_000])
  })

  it.each([
    [-32603, 'internal error'],
    [-1, 'unknown'],
    [-32002, 'request timed out'],
    [-32005, 'limit exceeded'],
  ])('retries JSON-RPC code %i (%s)', async (code, message) => {
    server = await startFaultServer(rpcError(code, message), answer(() => '0x7'))
    const { client } = clientFor(server.url)
    expect(await blockNumber(client)).toBe('0x7')
    expect(server.requests).toHaveLength(2)
  })

  it.each([
    [-32601, 'the method eth_foo does not exist'],
    [-32602, 'invalid params'],
    [-32000, 'header not found'],
    [3, 'execution reverted'],
    [4001, 'user rejected'],
  ])('does not retry JSON-RPC code %i (%s)', async (code, message) => {
    server = await startFaultServer(rpcError(code, message), answer(() => '0x7'))
    const { client } = clientFor(server.url)
    const error = (await blockNumber(client).catch((e: unknown) => e)) as { code: number }
    expect(error.code).toBe(code)
    expect(server.requests).toHaveLength(1)
  })

  it('times out a slow answer after timeoutMs and retries it', async () => {
    server = await startFaultServer(async (body, res) => {
      await new Promise((resolve) => setTimeout(resolve, 300))
      if (!res.destroyed) answer(() => '0x1')(body, res, undefined as never)
    })
    const { client } = clientFor(server.url, { timeoutMs: 50 })
    const error = await blockNumber(client).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(TimeoutError)
    expect(server.requests).toHaveLength(4)
  })

  it('retries a malformed JSON answer and reports it with the URL', async () => {
    server = await startFaultServer((_body, res) => {
      res.setHeader('content-type', 'application/json')
      res.end('{"jsonrpc":"2.0","id":')
    })
    const { client } = clientFor(server.url)
    const error = await blockNumber(client).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(HttpRequestError)
    expect((error as Error).message).toContain(server.url)
    expect((error as Error).message).toMatch(/JSON/)
    expect(server.requests).toHaveLength(4)
  })

  it('refuses an answer larger than maxResponseBodyBytes, even one that does not say its length', async () => {
    server = await startFaultServer((_body, res) => {
      res.setHeader('content-type', 'application/json')
      res.write(`{"jsonrpc":"2.0","id":1,"result":"0x${'0'.repeat(1_000)}`)
      res.end(`${'0'.repeat(1_000)}"}`)
    })
    const { client } = clientFor(server.url, { retryCount: 0, maxResponseBodyBytes: 1_024 })
    const error = await blockNumber(client).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(HttpRequestError)
    expect((error as Error).message).toMatch(/exceeded the size limit/)
  })

  it('retries a reset connection and succeeds when the server recovers', async () => {
    server = await startFaultServer((_body, res) => void res.socket?.destroy(), answer(() => '0x9'))
    const { client } = clientFor(server.url)
    expect(await blockNumber(client)).toBe('0x9')
    expect(server.requests).toHaveLength(2)
  })

  it('stops retrying when the request is aborted', async () => {
    server = await startFaultServer(httpStatus(503))
    const controller = new AbortController()
    const transport = httpTransport(server.url, {
      sleep: async () => controller.abort(),
    })({})
    const error = await transport.request({ method: 'eth_blockNumber' }, { signal: controller.signal }).catch((e: unknown) => e)
    expect((error as Error).name).toBe('AbortError')
    expect(server.requests.length).toBeLessThanOrEqual(2)
  })
})

describe('httpTransport: answers checked by id', () => {
  it.each<[string, (ids: number[]) => number[], RegExp]>([
    ['a missing id', (ids) => ids.slice(1), /missing 1\b/],
    ['an extra id', (ids) => [...ids, 99], /unexpected 99/],
    ['a repeated id', (ids) => [...ids, ids[0]!], /duplicated 1\b/],
    ['ids that were not sent', (ids) => ids.map((id) => id + 10), /missing 1, 2; unexpected 11, 12/],
  ])('fails every request of a batch answered with %s', async (_name, ids, details) => {
    server = await startFaultServer(wrongIds(ids))
    const { client } = clientFor(server.url, { retryCount: 0 })
    const errors = await Promise.all([1, 2].map(() => blockNumber(client).catch((e: unknown) => e)))
    for (const error of errors) {
      expect(error).toBeInstanceOf(ResponseIdsMismatchError)
      expect((error as Error).message).toMatch(details)
    }
  })

  it('fails a single request answered with another id', async () => {
    server = await startFaultServer(wrongIds(() => [42]))
    const { client } = clientFor(server.url, { retryCount: 0 })
    const error = await blockNumber(client).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ResponseIdsMismatchError)
    expect((error as Error).message).toMatch(/missing 1; unexpected 42/)
  })
})

describe('httpTransport: configuration', () => {
  it('says so when no URL was provided', () => {
    expect(() => clientFor(undefined)).toThrow(/^No URL was provided to the Transport/)
  })
})
