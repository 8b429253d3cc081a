import { request as httpRequest } from 'node:http'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'

export type ApiInputsBenchResult = {
  requests: number
  status5xx: number
  /** Per class of hostile input: how many requests, and how many got each status ('network-error' when none came). */
  byClass: Record<string, { requests: number; status: Record<string, number> }>
}

type Send = () => Promise<number | 'network-error'>

const BODY_LIMIT_BYTES = 64 * 1024
const TIMEOUT_MS = 10_000
const CONCURRENCY = 4
const ADDRESS = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const SIGNATURE = `0x${'11'.repeat(65)}`
const SESSION_ID = '00000000-0000-4000-8000-000000000000'

/** Copies `value` and sets the field at `path` (keys and array indexes) to `leaf`. */
function withField(value: unknown, path: readonly (string | number)[], leaf: unknown): unknown {
  if (path.length === 0) return leaf
  const [head, ...rest] = path
  const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<string | number, unknown>
  copy[head!] = withField(copy[head!], rest, leaf)
  return copy
}

const nested = (depth: number, leaf: unknown = 'leaf'): unknown => {
  let value = leaf
  for (let i = 0; i < depth; i++) value = { a: value }
  return value
}
const manyKeys = (count: number, length = 4) => Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`.padEnd(length, 'k'), 'v']))
const base64url = (text: string) => Buffer.from(text).toString('base64url')

/**
 * Sends hostile input of every class issue 12 names (oversized bodies with and without Content-Length, NUL, lone
 * surrogates, invalid percent-encoding, out-of-range numbers, overlong strings, deep or big JSON, too many name
 * attributes, wrong JSON types, control characters in the URL, an unsigned coin type, cross-project CORS, analytics
 * without an Origin) to a running data service, a few hundred requests, at most 4 at a time, and counts the answers.
 * Every one should be a 4xx; `status5xx` is the count that was not refused cleanly.
 * @example const result = await benchApiInputs('http://127.0.0.1:8787', 'hostile', 'http://site.test')
 */
export async function benchApiInputs(baseUrl: string, projectId: string, origin: string): Promise<ApiInputsBenchResult> {
  const url = (path: string, project = projectId) => `${baseUrl}${path}${path.includes('?') ? '&' : '?'}projectId=${project}`
  const timestampS = () => Math.floor(Date.now() / 1_000)

  const send = async (path: string, init: RequestInit & { project?: string } = {}): Promise<number | 'network-error'> => {
    try {
      const response = await fetch(url(path, init.project), { ...init, signal: AbortSignal.timeout(TIMEOUT_MS) })
      await response.arrayBuffer()
      return response.status
    } catch {
      return 'network-error'
    }
  }
  const get = (path: string, headers: Record<string, string> = { origin }) => () => send(path, { headers })
  const post = (path: string, body: unknown, headers: Record<string, string> = { origin }) => () =>
    send(path, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: typeof body === 'string' ? body : JSON.stringify(body) })
  /** POSTs `bytes` of body in 8 KiB chunks without Content-Length. */
  const postChunked = (path: string, bytes: number): Send => () =>
    new Promise((resolve) => {
      const req = httpRequest(url(path), { method: 'POST', headers: { 'content-type': 'application/json', origin, connection: 'close' }, timeout: TIMEOUT_MS }, (res) => {
        res.resume()
        res.on('end', () => resolve(res.statusCode ?? 'network-error'))
        res.on('error', () => resolve('network-error'))
      })
      req.on('error', () => resolve('network-error'))
      req.on('timeout', () => req.destroy())
      const chunk = `[${'0,'.repeat(4_095)}0]`
      let sent = 0
      const write = () => {
        while (sent < bytes && !req.destroyed) {
          sent += chunk.length
          if (!req.write(chunk)) return void req.once('drain', write)
        }
        req.end()
      }
      write()
    })

  // A valid body per route; each class breaks one field of it at a time.
  const event = { eventId: 'e1', url: `${origin}/page`, domain: new URL(origin).host, timestamp: Date.now(), props: { type: 'track', event: 'MODAL_OPEN', properties: { connected: false }, address: ADDRESS } }
  const nameMessage = (fields: Record<string, unknown> = {}) => ({ name: 'hostile-bench', attributes: { avatar: 'https://site.test/a.png' }, timestamp: timestampS(), coinType: 60, ...fields })
  const registration = (message: unknown) => ({ coin_type: 60, address: ADDRESS, message: typeof message === 'string' ? message : JSON.stringify(message), signature: SIGNATURE })
  const bodies: { path: string; body: unknown; strings: (string | number)[][] }[] = [
    { path: '/e', body: event, strings: [['eventId'], ['url'], ['domain'], ['props', 'type'], ['props', 'event'], ['props', 'address'], ['props', 'properties', 'note']] },
    { path: '/v1/profile/account', body: registration(nameMessage()), strings: [['address'], ['message'], ['signature']] },
    { path: '/v1/fungible/price', body: { currency: 'usd', addresses: ['eip155:1:0x0000000000000000000000000000000000000001'], projectId }, strings: [['addresses', 0], ['projectId']] },
    { path: '/v1/onramp/quote', body: { purchaseCurrency: { id: 'ETH' }, paymentCurrency: { id: 'USD' }, amount: '100', network: 'ethereum' }, strings: [['purchaseCurrency', 'id'], ['paymentCurrency', 'id'], ['amount'], ['network']] },
    {
      path: '/v1/generators/onrampurl',
      body: { destinationWallets: [{ address: ADDRESS, blockchains: ['ethereum'], assets: ['ETH'] }], partnerUserId: 'u1', defaultNetwork: 'ethereum', presetFiatAmount: 50 },
      strings: [['destinationWallets', 0, 'address'], ['destinationWallets', 0, 'blockchains', 0], ['destinationWallets', 0, 'assets', 0], ['partnerUserId'], ['defaultNetwork']],
    },
    { path: '/v1/sessions', body: { message: 'site.test wants you to sign in', signature: SIGNATURE }, strings: [['message'], ['signature']] },
    { path: `/v1/sessions/${SESSION_ID}/revoke`, body: { pci: SESSION_ID, signature: SIGNATURE }, strings: [['pci'], ['signature']] },
  ]
  const nameStrings = [['name'], ['attributes', 'avatar']]
  const everyString = (leaf: (original: string) => string) => [
    ...bodies.flatMap(({ path, body, strings }) => strings.map((field) => post(path, withField(body, field, leaf('abcd'))))),
    ...nameStrings.map((field) => post('/v1/profile/account', registration(withField(nameMessage(), field, leaf('abcd'))))),
    post('/e', withField(event, ['props', 'properties'], { [leaf('key')]: 1 })),
    post('/v1/profile/account', registration(nameMessage({ attributes: { [leaf('key')]: 'v' } }))),
  ]
  const pathParams = (segment: string) => [
    `/v1/profile/account/${segment}`,
    `/v1/profile/suggestions/${segment}`,
    `/v1/profile/reverse/${segment}`,
    `/v1/identity/${segment}`,
    `/v1/account/${segment}/balance?chainId=eip155:1`,
    `/v1/account/${segment}/history`,
    `/v1/sessions/${segment}`,
    `/getWalletImage/${segment}`,
  ]
  const queryParams = (value: string) => [
    `/getWallets?search=${value}`,
    `/getWallets?include=${value}`,
    `/getWallets?page=${value}`,
    `/v1/account/${ADDRESS}/history?cursor=${value}`,
    `/v1/account/${ADDRESS}/history?chainId=${value}`,
    `/v1/account/${ADDRESS}/balance?chainId=${value}`,
    `/v1/profile/suggestions/alice?zone=${value}`,
    `/v1/identity/${ADDRESS}?sender=${value}`,
    `/v1/supported-chains?${value}=1`,
  ]
  const postRoutes = bodies.map((b) => b.path)

  const classes: Record<string, Send[]> = {
    oversizedBodyWithLength: [BODY_LIMIT_BYTES + 1, 100_000, 256 * 1024].flatMap((bytes) => postRoutes.map((path) => post(path, `[${'0,'.repeat(Math.ceil(bytes / 2))}0]`))),
    oversizedBodyChunked: [BODY_LIMIT_BYTES + 1, 128 * 1024, 512 * 1024].flatMap((bytes) => postRoutes.map((path) => postChunked(path, bytes))),
    nulInJson: [...everyString((s) => `${s}\u0000`), ...everyString(() => '\u0000')],
    nulInUrl: [...pathParams('ab%00cd').map((p) => get(p)), ...queryParams('a%00b').map((p) => get(p))],
    loneSurrogateInJson: [...everyString((s) => `${s}\ud800`), ...everyString((s) => `\udc00${s}`)],
    loneSurrogateInUrl: [...pathParams('%ED%A0%80').map((p) => get(p)), ...queryParams('%ED%B0%80').map((p) => get(p)), ...pathParams('\ud800abcd').map((p) => get(p))],
    invalidPercentEncoding: [...['%C0%80', '%FF', '%E0%A4%A', '%uD800'].flatMap((bad) => [get(`/v1/profile/account/${bad}`), get(`/v1/sessions/${bad}`), get(`/getWallets?search=${bad}`)])],
    hugeNumbers: [
      ...['9223372036854775808:1', `${'9'.repeat(40)}:1`, '1:9223372036854775808', '1e400:1', '-1:1'].map((c) => get(`/v1/account/${ADDRESS}/history?cursor=${base64url(c)}`)),
      ...['eip155:2147483648', 'eip155:9007199254740993', 'eip155:1e400', `eip155:${'9'.repeat(400)}`, 'eip155:-1', 'eip155:0'].flatMap((id) => [
        get(`/v1/account/${ADDRESS}/history?chainId=${id}`),
        get(`/v1/account/${ADDRESS}/balance?chainId=${id}`),
      ]),
      ...['1e400', '-1e400', '2147483648', '9223372036854775808', '1.5', '-1'].map((n) => post('/v1/profile/account', JSON.stringify(registration(nameMessage())).replace('"coin_type":60', `"coin_type":${n}`))),
      ...['1e400', '9e15', '-1', '1.5'].map((n) => post('/e', JSON.stringify(event).replace(/"timestamp":\d+/, `"timestamp":${n}`))),
      ...['1e400', '-1', '99999999999999'].map((n) => post('/v1/profile/account', registration(JSON.stringify(nameMessage()).replace(/"timestamp":\d+/, `"timestamp":${n}`)))),
      ...['1e400', '-1', '1e300'].map((n) => post('/v1/generators/onrampurl', JSON.stringify(bodies[4]!.body).replace('"presetFiatAmount":50', `"presetFiatAmount":${n}`))),
      ...['99999999999999999999', '1e400', '0', '101'].flatMap((n) => [get(`/getWallets?page=${n}`), get(`/getWallets?entries=${n}`)]),
    ],
    tooLongStrings: [
      ...[200, 5_000].flatMap((length) => everyString((s) => s.padEnd(length, 'a'))),
      ...[64, 1_000].flatMap((length) => [get(`/v1/profile/account/${'a'.repeat(length)}`), get(`/v1/profile/suggestions/${'a'.repeat(length)}`)]),
      get(`/getWallets?search=${'a'.repeat(101)}`),
      get(`/getWallets?include=${Array.from({ length: 101 }, (_, i) => `w${i}`).join(',')}`),
      get(`/v1/account/${ADDRESS}/history?cursor=${'A'.repeat(65)}`),
      get(`/v1/supported-chains?projectId=${'p'.repeat(129)}`),
      post('/v1/fungible/price', { currency: 'usd', addresses: Array.from({ length: 101 }, () => 'eip155:1:0x1'), projectId }),
    ],
    deepJson: [
      ...[6, 17, 1_000].map((depth) => post('/e', withField(event, ['props', 'properties'], nested(depth)))),
      // Deeper than JSON.stringify can go: written as text.
      post('/e', JSON.stringify(event).replace('{"connected":false}', `${'{"a":'.repeat(10_000)}1${'}'.repeat(10_000)}`)),
      ...[17, 1_000].map((depth) => post('/v1/generators/onrampurl', withField(bodies[4]!.body, ['destinationWallets', 0, 'assets'], nested(depth)))),
      ...[3, 17, 1_000].map((depth) => post('/v1/profile/account', registration(nameMessage({ attributes: nested(depth) })))),
      post('/e', `${'['.repeat(20_000)}${']'.repeat(20_000)}`),
    ],
    bigAnalyticsProps: [
      ...[9_000, 30_000, 60_000].map((length) => post('/e', withField(event, ['props', 'properties'], { text: 'x'.repeat(length) }))),
      ...[65, 500, 2_000].map((count) => post('/e', withField(event, ['props', 'properties'], manyKeys(count)))),
      post('/e', withField(event, ['props', 'properties'], { list: Array.from({ length: 1_000 }, (_, i) => i) })),
    ],
    manyNameAttributes: [
      ...[17, 100, 1_000].map((count) => post('/v1/profile/account', registration(nameMessage({ attributes: manyKeys(count) })))),
      ...[65, 1_000].map((length) => post('/v1/profile/account', registration(nameMessage({ attributes: { ['k'.repeat(length)]: 'v' } })))),
      ...[2_049, 20_000].map((length) => post('/v1/profile/account', registration(nameMessage({ attributes: { bio: 'v'.repeat(length) } })))),
    ],
    wrongJsonTypes: [
      ...postRoutes.flatMap((path) => [[], null, 'text', 1, true, {}].map((body) => post(path, JSON.stringify(body)))),
      ...bodies.flatMap(({ path, body, strings }) => strings.slice(0, 2).flatMap((field) => [1, null, [], {}].map((bad) => post(path, withField(body, field, bad))))),
      ...[{ attributes: [] }, { attributes: 'a' }, { name: 1 }, { timestamp: '1' }, { coinType: '60' }].map((fields) => post('/v1/profile/account', registration(nameMessage(fields)))),
      post('/v1/profile/account', registration('not json')),
      post('/v1/profile/account', registration('[]')),
    ],
    invalidJson: postRoutes.flatMap((path) => ['{', '{"a":1,}', '\ufeff{}', ''].map((body) => post(path, body))),
    controlCharactersInUrl: ['%0A', '%0D%0A', '%1B%5B2J', '%7F', '%E2%80%A8'].flatMap((bad) => [get(`/v1/profile/account/a${bad}b`), get(`/nowhere/${bad}forged`), get(`/getWallets?search=${bad}`)]),
    unsignedCoinType: await (async () => {
      const account = privateKeyToAccount(generatePrivateKey())
      const signed = async (message: Record<string, unknown>, coinType: unknown) => {
        const text = JSON.stringify(message)
        return post('/v1/profile/account', { coin_type: coinType, address: account.address, message: text, signature: await account.signMessage({ message: text }) })
      }
      const { coinType: _omitted, ...withoutCoinType } = nameMessage({ name: 'tamper-bench' })
      return [
        await signed(nameMessage({ name: 'tamper-bench' }), 0),
        await signed(nameMessage({ name: 'tamper-bench', coinType: 0 }), 60),
        await signed(withoutCoinType, 60),
        await signed(nameMessage({ name: 'tamper-bench', coinType: '60' }), 60),
      ]
    })(),
    crossProjectCors: ['http://evil.test', `${origin}.evil.test`, 'null'].flatMap((other) => [
      () => send('/e', { method: 'OPTIONS', headers: { origin: other, 'access-control-request-method': 'POST' } }),
      () => send('/v1/supported-chains', { method: 'OPTIONS', headers: { origin: other, 'access-control-request-method': 'GET' } }),
    ]),
    analyticsWithoutOrigin: [post('/e', event, {}), post('/e', event, { referer: `${origin}/page` }), post('/e', withField(event, ['props', 'event'], 'MODAL_CLOSE'), {})],
  }

  const byClass: ApiInputsBenchResult['byClass'] = {}
  let requests = 0
  let status5xx = 0
  for (const [name, sends] of Object.entries(classes)) {
    const tally = (byClass[name] = { requests: 0, status: {} as Record<string, number> })
    for (let i = 0; i < sends.length; i += CONCURRENCY) {
      for (const status of await Promise.all(sends.slice(i, i + CONCURRENCY).map((run) => run()))) {
        tally.requests++
        tally.status[String(status)] = (tally.status[String(status)] ?? 0) + 1
        requests++
        if (typeof status === 'number' && status >= 500) status5xx++
      }
    }
  }
  return { requests, status5xx, byClass }
}
