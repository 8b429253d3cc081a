import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { afterEach, describe, expect, it } from 'vitest'
import { WidgetError } from '../../shared/protocol/errors'
import { createDataServiceClient, formatSdkVersion } from './createDataServiceClient'

type Recorded = { method: string; path: string; query: Record<string, string>; body: unknown }
type Route = (req: Recorded, res: ServerResponse) => void

const servers: { close: () => Promise<void> }[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()))
})

async function serve(route: Route) {
  const requests: Recorded[] = []
  const server = createServer(async (req: IncomingMessage, res) => {
    let raw = ''
    for await (const chunk of req) raw += chunk
    const url = new URL(req.url!, 'http://x')
    const recorded = { method: req.method!, path: url.pathname, query: Object.fromEntries(url.searchParams), body: raw ? JSON.parse(raw) : undefined }
    requests.push(recorded)
    route(recorded, res)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  servers.push({ close: () => new Promise((resolve) => server.close(() => resolve())) })
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, requests }
}

const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify(body))
}

const sdkVersion = formatSdkVersion({ type: 'react', adapters: ['wagmi'], version: '0.1.0' })
const client = (url: string, extra: Partial<Parameters<typeof createDataServiceClient>[0]> = {}) =>
  createDataServiceClient({ baseUrl: url, projectId: 'demo', sdkVersion, ...extra })

const balance = { name: 'Tessera Dollar', symbol: 'TUSD', chainId: 'eip155:31337', address: 'eip155:31337:0xabc', value: 1.5, price: 1, iconUrl: '', quantity: { decimals: '6', numeric: '1.5' } }

describe('data-service client', () => {
  it('formats the sdk version as type-adapters-version', () => expect(sdkVersion).toBe('react-wagmi-0.1.0'))

  it('adds st, sv and projectId to every call, with the spec’s paths and parameter names', async () => {
    const server = await serve((req, res) => json(res, 200, req.path.includes('balance') ? { balances: [balance] } : { data: [], next: 'c2' }))
    const service = client(server.url)
    expect(await service.getBalance({ address: '0xabc', chainId: 'eip155:31337', forceUpdate: true })).toEqual({ balances: [balance] })
    await service.getTransactionHistory({ account: '0xabc', cursor: 'c1', chainId: 'eip155:31337' })
    expect(server.requests).toEqual([
      { method: 'GET', path: '/v1/account/0xabc/balance', query: { currency: 'usd', chainId: 'eip155:31337', forceUpdate: 'true', st: 'tessera', sv: sdkVersion, projectId: 'demo' }, body: undefined },
      { method: 'GET', path: '/v1/account/0xabc/history', query: { cursor: 'c1', chainId: 'eip155:31337', st: 'tessera', sv: sdkVersion, projectId: 'demo' }, body: undefined },
    ])
  })

  it('posts the bodies the spec names', async () => {
    const server = await serve((req, res) => json(res, 200, req.path === '/v1/profile/account' ? { success: true } : { fungibles: [] }))
    const service = client(server.url)
    await service.registerName({ name: 'alice', coinType: 60, address: '0xabc', message: '{}', signature: '0x1' })
    await service.getFungiblePrice({ addresses: ['eip155:1:0xabc'] })
    expect(server.requests.map((r) => [r.method, r.path, r.body])).toEqual([
      ['POST', '/v1/profile/account', { coin_type: 60, address: '0xabc', message: '{}', signature: '0x1' }],
      ['POST', '/v1/fungible/price', { currency: 'usd', addresses: ['eip155:1:0xabc'], projectId: 'demo' }],
    ])
  })

  it('skips calls for an unsupported network with empty results, and refuses gas price and swaps', async () => {
    const server = await serve((_req, res) => json(res, 500, {}))
    const service = client(server.url, { isNetworkSupported: (id) => id === 'eip155:1' })
    expect(await service.getBalance({ address: '0xabc', chainId: 'eip155:999' })).toEqual({ balances: [] })
    expect(await service.getTransactionHistory({ account: '0xabc', chainId: 'eip155:999' })).toEqual({ data: [], next: undefined })
    expect(() => service.getGasPrice({ chainId: 'eip155:999' })).toThrow(expect.objectContaining({ shortMessage: 'Network not supported for Gas Price' }))
    expect(() => service.getSwapTokens({ chainId: 'eip155:999' })).toThrow(expect.objectContaining({ shortMessage: 'Network not supported for Swaps' }))
    expect(() => service.buildApproveTransaction({ chainId: 'eip155:999', userAddress: '0x', from: '0x', to: '0x', amount: '1' })).toThrow(
      expect.objectContaining({ code: 'SWAP_NETWORK_UNSUPPORTED' }),
    )
    expect(server.requests).toEqual([])
  })

  it('sends the swap calls’ parameters (slippage as a number, the approval’s amount) and validates their answers', async () => {
    const [TUSD, ETH] = ['eip155:31337:0x5FbDB2315678afecb367f032d93F642f64180aa3', 'eip155:31337:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee']
    const router = '0x9401A5c3a8b881D3018ab9e94570b3b217fa348A'
    const owner = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
    const quote = { id: null, fromAmount: '1000', fromAccount: ETH, toAmount: '2', toAccount: TUSD, route: [ETH, TUSD], priceImpact: 0.1, source: { name: 'Uniswap V2', router }, blockNumber: '12', gas: '150000' }
    const tx = { from: owner, to: router, data: '0x7ff36ab5', eip155: { gas: '150000', gasPrice: '1000000000' } }
    const answers: Record<string, unknown> = {
      '/v1/convert/quotes': { quotes: [quote] },
      '/v1/convert/build-transaction': { tx: { ...tx, amount: '1000' }, minimumReceived: '1', deadline: 1_700_000_000 },
      '/v1/convert/build-approve': { tx: { ...tx, to: TUSD.split(':')[2], value: '0' } },
      '/v1/convert/allowance': { allowance: '0' },
      '/v1/convert/gas-price': { standard: '10', fast: '11', instant: '12' },
      '/v1/convert/tokens': { tokens: [{ name: 'Ether', symbol: 'ETH', address: ETH, decimals: 18, logoUri: '' }] },
    }
    const server = await serve((req, res) => json(res, 200, answers[req.path]))
    const service = client(server.url)
    expect(await service.getSwapQuote({ chainId: 'eip155:31337', amount: '1000', userAddress: owner, from: ETH, to: TUSD, gasPrice: '1' })).toEqual({ quotes: [quote] })
    expect((await service.buildSwapTransaction({ chainId: 'eip155:31337', amount: '1000', from: ETH, to: TUSD, userAddress: owner, slippage: 0.5 })).minimumReceived).toBe('1')
    expect((await service.buildApproveTransaction({ chainId: 'eip155:31337', userAddress: owner, from: TUSD, to: ETH, amount: '2500' })).tx.value).toBe('0')
    expect(await service.getAllowance({ chainId: 'eip155:31337', tokenAddress: TUSD, userAddress: owner })).toEqual({ allowance: '0' })
    expect(await service.getGasPrice({ chainId: 'eip155:31337' })).toEqual({ standard: '10', fast: '11', instant: '12' })
    expect((await service.getSwapTokens({ chainId: 'eip155:31337' })).tokens[0]!.symbol).toBe('ETH')
    const common = { st: 'tessera', sv: sdkVersion, projectId: 'demo' }
    expect(server.requests.map(({ method, path, query, body }) => ({ method, path, query, body }))).toEqual([
      { method: 'GET', path: '/v1/convert/quotes', query: { amount: '1000', userAddress: owner, from: ETH, to: TUSD, gasPrice: '1', ...common }, body: undefined },
      { method: 'POST', path: '/v1/convert/build-transaction', query: common, body: { amount: '1000', from: ETH, to: TUSD, userAddress: owner, eip155: { slippage: 0.5 }, projectId: 'demo' } },
      { method: 'GET', path: '/v1/convert/build-approve', query: { userAddress: owner, from: TUSD, to: ETH, amount: '2500', ...common }, body: undefined },
      { method: 'GET', path: '/v1/convert/allowance', query: { tokenAddress: TUSD, userAddress: owner, ...common }, body: undefined },
      { method: 'GET', path: '/v1/convert/gas-price', query: { chainId: 'eip155:31337', ...common }, body: undefined },
      { method: 'GET', path: '/v1/convert/tokens', query: { chainId: 'eip155:31337', ...common }, body: undefined },
    ])
    // An answer off its schema is refused, naming the field.
    answers['/v1/convert/quotes'] = { quotes: [{ ...quote, toAmount: '-2' }] }
    await expect(service.getSwapQuote({ chainId: 'eip155:31337', amount: '1000', userAddress: owner, from: ETH, to: TUSD, gasPrice: '1' })).rejects.toMatchObject({
      code: 'SERVICE_BAD_RESPONSE',
      details: expect.stringMatching(/^getSwapQuote: answered with an invalid quotes\.0\.toAmount: /),
    })
    answers['/v1/convert/gas-price'] = { standard: 10, fast: '11', instant: '12' }
    await expect(service.getGasPrice({ chainId: 'eip155:31337' })).rejects.toMatchObject({ code: 'SERVICE_BAD_RESPONSE', details: expect.stringContaining('invalid standard') })
  })

  it("turns the service's refusal of a network for swaps or gas price into the spec's sentences", async () => {
    const server = await serve((req, res) =>
      req.path.endsWith('gas-price')
        ? json(res, 400, { error: { code: 'GAS_PRICE_NETWORK_UNSUPPORTED', message: 'Network not supported for Gas Price', field: 'chainId' } })
        : json(res, 400, { error: { code: 'SWAP_NETWORK_UNSUPPORTED', message: 'Network not supported for Swaps', field: 'from' } }),
    )
    const service = client(server.url)
    await expect(service.getGasPrice({ chainId: 'eip155:31337' })).rejects.toMatchObject({ code: 'GAS_PRICE_NETWORK_UNSUPPORTED', shortMessage: 'Network not supported for Gas Price', status: 400 })
    await expect(service.getSwapTokens({ chainId: 'eip155:31337' })).rejects.toMatchObject({ code: 'SWAP_NETWORK_UNSUPPORTED', shortMessage: 'Network not supported for Swaps', status: 400 })
  })

  it('names the field and the endpoint when an answer is malformed', async () => {
    const server = await serve((_req, res) => json(res, 200, { balances: [{ ...balance, quantity: { decimals: '6', numeric: 'lots' } }] }))
    const error = await client(server.url).getBalance({ address: '0xabc', chainId: 'eip155:1' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(WidgetError)
    expect(error).toMatchObject({ code: 'TOKEN_BALANCE_UNAVAILABLE', shortMessage: 'Token Balance Unavailable' })
    expect((error as WidgetError).details).toMatch(/^getBalance: answered with an invalid balances\.0\.quantity\.numeric: /)
  })

  it('reports invalid JSON, HTTP errors with the server’s message, and an unreachable service', async () => {
    const server = await serve((req, res) => {
      if (req.path.includes('identity')) return void res.end('<html>')
      json(res, 400, { error: { code: 'INVALID_NAME', message: 'name: too short', reasons: [{ description: 'Name must be at least 4 characters' }] } })
    })
    await expect(client(server.url).getIdentity({ address: '0xabc' })).rejects.toMatchObject({ code: 'SERVICE_BAD_RESPONSE', message: expect.stringContaining('invalid JSON') })
    await expect(client(server.url).registerName({ name: 'abc', coinType: 60, address: '0x', message: '', signature: '' })).rejects.toMatchObject({
      code: 'NAME_REGISTER_FAILED',
      shortMessage: 'Error registering name abc',
      details: 'registerName: Name must be at least 4 characters',
      status: 400,
    })
    await expect(client('http://127.0.0.1:9').getSupportedChains()).rejects.toMatchObject({ code: 'SERVICE_UNREACHABLE' })
  })

  it('times out a service that does not answer', async () => {
    const server = await serve(() => {})
    await expect(client(server.url, { timeoutMs: 100 }).getSupportedChains()).rejects.toMatchObject({ code: 'SERVICE_TIMEOUT', details: 'getSupportedChains: no answer within 100 ms' })
  })

  it("turns an analytics 403 into 'Invalid App Configuration', and never sends MODAL_CREATED", async () => {
    const server = await serve((_req, res) => json(res, 403, { error: { code: 'ORIGIN_NOT_ALLOWED', message: 'origin http://evil.test is not allowed' } }))
    const service = client(server.url)
    const event = { eventId: '1', url: 'http://x', domain: 'x', timestamp: 1 }
    expect(await service.sendAnalyticsEvent({ ...event, event: { type: 'track', event: 'MODAL_CREATED' } })).toBe(false)
    expect(server.requests).toEqual([])
    const error = await service.sendAnalyticsEvent({ ...event, event: { type: 'track', event: 'MODAL_OPEN', properties: { connected: false } } }).catch((e: unknown) => e)
    expect(error).toMatchObject({ code: 'INVALID_APP_CONFIGURATION', shortMessage: 'Invalid App Configuration', status: 403 })
    expect(server.requests[0]).toMatchObject({ path: '/e', body: { eventId: '1', props: { event: 'MODAL_OPEN', properties: { connected: false } } } })
  })

  it('queries the wallet registry with its parameters and builds image URLs', async () => {
    const server = await serve((_req, res) => json(res, 200, { count: 1, data: [{ id: 'dev', name: 'Tessera Dev Wallet' }] }))
    const service = client('http://unused.invalid', { walletRegistryUrl: server.url })
    expect(await service.getWallets({ page: 1, entries: 40, exclude: ['a', 'b'], search: 'dev' })).toEqual({ count: 1, data: [{ id: 'dev', name: 'Tessera Dev Wallet' }] })
    expect(server.requests[0]!.query).toEqual({ page: '1', entries: '40', exclude: 'a,b', search: 'dev', st: 'tessera', sv: sdkVersion, projectId: 'demo' })
    expect(service.walletImageUrl('dev')).toBe(`${server.url}/getWalletImage/dev?st=tessera&sv=${sdkVersion}&projectId=demo`)
  })
})
