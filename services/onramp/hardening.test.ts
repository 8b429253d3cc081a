import { request as httpRequest } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startOnrampSandbox, type OnrampSandboxServer } from './server'

const KEY = 'sandbox-key-hostile'
const SECRET = 'whsec-0123456789abcdef'
const TREASURY_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'
const EVIL_NAME = 'Evil <img src=x onerror=alert(1)> & "Co"'
const BODY_LIMIT = 4 * 1_024
const DESTINATION = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const quoteBody = (overrides: Record<string, unknown> = {}) => JSON.stringify({ paymentCurrency: 'USD', paymentMethod: 'card', amount: '100', network: 'eip155:31337', asset: 'ETH', ...overrides })
const sessionBody = (overrides: Record<string, unknown> = {}) => JSON.stringify({ quoteId: 'quo_x', partnerOrderId: 'p', destination: DESTINATION, partnerUserId: 'u', ...overrides })

/** Bodies a hostile or broken partner sends, sent as is, each with the status, code and field it must get. */
const hostile: [name: string, path: string, body: string, status: number, code: string, field: string][] = [
  ['not JSON', '/v1/quote', '{"paymentCurrency":', 400, 'INVALID_JSON', 'body'],
  ['an empty body', '/v1/quote', '', 400, 'INVALID_JSON', 'body'],
  ['JSON null', '/v1/quote', 'null', 400, 'INVALID_INPUT', 'body'],
  ['a JSON array', '/v1/sessions', '[]', 400, 'INVALID_INPUT', 'body'],
  ['a JSON string', '/v1/quote', '"quote me"', 400, 'INVALID_INPUT', 'body'],
  ['JSON nested 600 deep', '/v1/quote', `${'{"a":'.repeat(600)}1${'}'.repeat(600)}`, 400, 'INVALID_INPUT', 'a.a.a.a.a.a.a.a.a.a.a.a.a.a.a.a'],
  ['an amount of 1e400 (Infinity once parsed)', '/v1/quote', quoteBody().replace('"100"', '1e400'), 400, 'INVALID_INPUT', 'amount'],
  ['an amount as a number', '/v1/quote', quoteBody({ amount: 100 }), 400, 'INVALID_INPUT', 'amount'],
  ['an amount with an exponent', '/v1/quote', quoteBody({ amount: '1e3' }), 400, 'INVALID_INPUT', 'amount'],
  ['a negative amount', '/v1/quote', quoteBody({ amount: '-100' }), 400, 'INVALID_INPUT', 'amount'],
  ['an amount of 20 digits', '/v1/quote', quoteBody({ amount: '99999999999999999999' }), 400, 'INVALID_INPUT', 'amount'],
  ['an amount of 19 decimals', '/v1/quote', quoteBody({ amount: `100.${'0'.repeat(18)}1` }), 400, 'INVALID_INPUT', 'amount'],
  ['a lower-case currency', '/v1/quote', quoteBody({ paymentCurrency: 'usd' }), 400, 'INVALID_INPUT', 'paymentCurrency'],
  ['a NUL in the network', '/v1/quote', quoteBody({ network: 'eip155:31337\u0000' }), 400, 'INVALID_INPUT', 'network'],
  ['a lone surrogate as asset', '/v1/quote', quoteBody().replace('"ETH"', '"\\ud800"'), 400, 'INVALID_INPUT', 'asset'],
  ['a 1,000-character network', '/v1/quote', quoteBody({ network: 'n'.repeat(1_000) }), 400, 'INVALID_INPUT', 'network'],
  ['the fields under __proto__', '/v1/quote', `{"__proto__":${quoteBody()}}`, 400, 'INVALID_INPUT', 'paymentCurrency'],
  ['a quote id of the wrong type', '/v1/sessions', sessionBody({ quoteId: { $ne: '' } }), 400, 'INVALID_INPUT', 'quoteId'],
  ['an empty partner order id', '/v1/sessions', sessionBody({ partnerOrderId: '' }), 400, 'INVALID_INPUT', 'partnerOrderId'],
  ['a 1,000-character destination', '/v1/sessions', sessionBody({ destination: 'd'.repeat(1_000) }), 400, 'INVALID_INPUT', 'destination'],
  ['an unknown quote', '/v1/sessions', sessionBody(), 400, 'QUOTE_NOT_FOUND', 'quoteId'],
]

describe('the on-ramp sandbox under hostile input', () => {
  let server: OnrampSandboxServer
  const logLines: string[] = []
  const statuses: number[] = []
  const send = async (path: string, init: RequestInit = {}) => {
    const response = await fetch(`${server.url}${path}`, { redirect: 'manual', ...init, headers: { authorization: `Bearer ${KEY}`, ...init.headers } })
    statuses.push(response.status)
    return response
  }
  const post = (path: string, body: string, contentType = 'application/json') => send(path, { method: 'POST', body, headers: { 'content-type': contentType } })
  const openOrder = async (method = 'card') => {
    const { quoteId } = (await (await post('/v1/quote', quoteBody({ paymentMethod: method }))).json()) as { quoteId: string }
    const session = await post('/v1/sessions', sessionBody({ quoteId, redirectUrl: 'https://site.test/"><script>alert(1)</script>' }))
    return ((await session.json()) as { orderId: string }).orderId
  }

  beforeAll(async () => {
    server = await startOnrampSandbox({
      port: 0,
      partners: [{ apiKey: KEY, name: EVIL_NAME, feePercent: 1, webhookUrl: 'http://127.0.0.1:9/hook', webhookSecret: SECRET }],
      prices: { ETH: { USD: 3000, EUR: 2760 } },
      // No chain runs: a paid order's transfer fails, which is not what these tests look at.
      assets: [{ network: 'eip155:31337', symbol: 'ETH', name: 'Ether', decimals: 18, rpcUrl: 'http://127.0.0.1:9' }],
      treasuries: { 'eip155:31337': TREASURY_KEY },
      limits: { bodyBytes: BODY_LIMIT, webhookAttempts: 1 },
      log: (line) => logLines.push(line),
    })
  })
  afterAll(() => server?.stop())

  it.each(hostile)('answers %s with a JSON error naming the field, never a 500', async (_, path, body, status, code, field) => {
    const response = await post(path, body)
    expect(response.status).toBe(status)
    expect(await response.json()).toMatchObject({ error: { code, field } })
  })

  it('refuses a body over the limit, declared or streamed, with 413: JSON for partners, a page for visitors', async () => {
    const declared = await post('/v1/quote', quoteBody({ asset: 'x'.repeat(BODY_LIMIT) }))
    expect(declared.status).toBe(413)
    expect(declared.headers.get('connection')).toBe('close')
    expect(await declared.json()).toMatchObject({ error: { code: 'PAYLOAD_TOO_LARGE', message: `The request body is larger than the limit of ${BODY_LIMIT} bytes.` } })

    const streamed = await new Promise<{ status?: number; body: string }>((resolve, reject) => {
      const request = httpRequest(`${server.url}/v1/sessions`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${KEY}` } }, (response) => {
        let body = ''
        response.on('data', (chunk: Buffer) => (body += chunk.toString()))
        response.on('end', () => resolve({ status: response.statusCode, body }))
      })
      request.on('error', reject)
      for (let sent = 0; sent < BODY_LIMIT * 4; sent += 1_024) request.write('x'.repeat(1_024))
      request.end()
    })
    expect(streamed.status).toBe(413)
    expect(JSON.parse(streamed.body)).toMatchObject({ error: { code: 'PAYLOAD_TOO_LARGE' } })

    const orderId = await openOrder()
    const form = await post(`/checkout/${orderId}/pay`, `cardNumber=${'4'.repeat(BODY_LIMIT)}`, 'application/x-www-form-urlencoded')
    expect(form.status).toBe(413)
    expect(form.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(await form.text()).toContain('<h1>Form too large</h1>')
  })

  it('answers unknown routes and orders with 404: JSON for partners, a page for visitors', async () => {
    for (const path of ['/v1/nope', '/v1/orders/ord_unknown', `/v1/orders/${'x'.repeat(2_000)}`]) {
      const response = await send(path)
      expect(response.status).toBe(404)
      expect(((await response.json()) as { error: { code: string } }).error.code).toMatch(/NOT_FOUND/)
    }
    expect((await send('/v1/quote', { method: 'PUT', body: quoteBody() })).status).toBe(404)
    expect((await fetch(`${server.url}/`)).status).toBe(404)
    for (const path of ['/checkout/ord_unknown', '/checkout/%ZZ', `/checkout/${'x'.repeat(2_000)}`, '/checkout/ord_unknown/pay', '/checkout/']) {
      const response = await send(path, path.endsWith('/pay') ? { method: 'POST', body: 'cardNumber=4242' } : {})
      expect(response.status).toBe(404)
      expect(response.headers.get('content-security-policy')).toContain("default-src 'none'")
      expect(await response.text()).toContain('<h1>Checkout not found</h1>')
    }
    expect(await (await fetch(`${server.url}/health`)).json()).toEqual({ status: 'ok', service: 'tessera-onramp-sandbox' })
  })

  it('escapes every outside text on the page: the partner name, the redirect URL, what the visitor typed', async () => {
    const orderId = await openOrder()
    const page = await send(`/checkout/${orderId}`)
    expect(page.headers.get('x-frame-options')).toBe('DENY')
    expect(page.headers.get('referrer-policy')).toBe('no-referrer')
    const html = await page.text()
    expect(html).toContain('Evil &lt;img src=x onerror=alert(1)&gt; &amp; &quot;Co&quot;')
    expect(html).not.toMatch(/<img|<script/)

    const refused = await post(`/checkout/${orderId}/pay`, new URLSearchParams({ cardNumber: '4111111111111111', expiry: '12/49', cvc: '123', name: '"><script>alert(1)</script>' }).toString(), 'application/x-www-form-urlencoded')
    expect(refused.status).toBe(400)
    const echoed = await refused.text()
    expect(echoed).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"')
    expect(echoed).not.toMatch(/<img|<script/)

    // Declined, the page links back to the site: the redirect URL is escaped in its href.
    expect((await post(`/checkout/${orderId}/pay`, 'cardNumber=4000000000000002&expiry=12/49&cvc=123&name=Ada', 'application/x-www-form-urlencoded')).status).toBe(303)
    const failed = await (await send(`/checkout/${orderId}`)).text()
    expect(failed).toContain('<a href="https://site.test/&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;">Return to the site</a>')
    expect(failed).not.toMatch(/<img|<script/)
  })

  it('answers any form body with the page and what is wrong, never a 500', async () => {
    const orderId = await openOrder()
    const forms: [string, string][] = [
      ['binary', '\u0000\u0001\u00ff%ZZ%%'],
      ['no fields', ''],
      ['each field twice', 'cardNumber=4111111111111111&cardNumber=4242424242424242&expiry=1&expiry=12/49&cvc=1&cvc=123&name=&name=Ada'],
      ['a 3,000-digit number', `cardNumber=${'4'.repeat(3_000)}&expiry=12/49&cvc=123&name=Ada`],
      ['a name of control characters', 'cardNumber=4242424242424242&expiry=12/49&cvc=123&name=%00%1b%0a'],
      ['an expiry of year 0', 'cardNumber=4242424242424242&expiry=00/0000&cvc=123&name=Ada'],
    ]
    for (const [, body] of forms) {
      const response = await post(`/checkout/${orderId}/pay`, body, 'application/x-www-form-urlencoded')
      expect(response.status).toBe(400)
      const html = await response.text()
      expect(html).toContain('role="alert"')
      expect(html).not.toContain('4'.repeat(31))
    }
    const multipart = new FormData()
    multipart.set('cardNumber', '4242424242424242')
    const asMultipart = await send(`/checkout/${orderId}/pay`, { method: 'POST', body: multipart })
    expect(asMultipart.status).toBe(400)
  })

  it('refused every hostile request with 4xx and logged no failure to answer, and never a secret', () => {
    expect(statuses.length).toBeGreaterThan(hostile.length)
    expect(statuses.filter((status) => status >= 500)).toEqual([])
    expect(logLines.filter((line) => /onramp sandbox: (GET|POST|PUT) /.test(line))).toEqual([])
    for (const line of logLines) for (const secret of [KEY, SECRET, TREASURY_KEY.slice(2)]) expect(line).not.toContain(secret)
  })
})
