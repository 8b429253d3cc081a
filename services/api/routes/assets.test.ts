import { readdirSync, readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePorts } from '../../stack/ports'
import type { ApiConfig } from '../config'
import { openDatabase } from '../db/createDatabase'
import { startApiServer, type ApiServer } from '../server'
import { assetRoutes } from './assets'

const PROJECT = 'assets-project'
const TSR = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const chain = (chainId: number, rpcUrl: string): ApiConfig['chains'][number] => ({
  chainId,
  name: `Chain ${chainId}`,
  rpcUrl,
  multicall3: '0xcA11bde05977b3631167028862bE2a173976CA11',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  tokens: [
    { address: TSR, name: 'Tessera', symbol: 'TSR', decimals: 18 },
    { address: '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512', name: 'No Image', symbol: 'NOIMG', decimals: 18 },
  ],
})
const svgOf = (name: string) => readFileSync(new URL(`../assets/${name}.svg`, import.meta.url), 'utf8')

describe('network and token images', () => {
  // The routes alone: which id gets which image. A local chain (RPC on this machine) and a remote one are configured.
  const app = assetRoutes({ chains: [chain(31338, 'http://127.0.0.1:8546'), chain(137, 'https://polygon.example')] } as unknown as ApiConfig)
  const image = async (path: string) => {
    const response = await app.request(path)
    return { status: response.status, body: await response.text() }
  }

  it.each([
    ['eip155:1', 'ethereum'],
    ['eip155:11155111', 'ethereum'],
    ['eip155:31337', 'local-evm'],
    ['eip155:1337', 'local-evm'],
    ['eip155:31338', 'local-evm'],
    ['solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp', 'solana'],
    ['solana:CmpNeggWJ4JaWJeJ8YKN1Zypmk7uvQq3', 'solana'],
    ['bip122:000000000019d6689c085ae165831e93', 'bitcoin'],
    ['bip122:0f9188f13cb7b2c71f2a335e3a4fc328', 'bitcoin'],
    ['polkadot:91b171bb158e2d3848fa23a9f1c25182', 'polkadot'],
  ])('serves our icon of %s', async (id, file) => {
    expect(await image(`/v1/assets/networks/${id}`)).toEqual({ status: 200, body: svgOf(file) })
  })

  it.each([
    ['eip155:1/slip44:60', 'ethereum'],
    ['eip155:31337/slip44:60', 'ethereum'],
    ['solana:CmpNeggWJ4JaWJeJ8YKN1Zypmk7uvQq3/slip44:501', 'solana'],
    ['bip122:000000000019d6689c085ae165831e93/slip44:0', 'bitcoin'],
    ['polkadot:91b171bb158e2d3848fa23a9f1c25182/slip44:354', 'polkadot'],
    [`eip155:31338/erc20:${TSR}`, 'token-tsr'],
    [`eip155:31338/erc20:${TSR.toLowerCase()}`, 'token-tsr'],
  ])('serves the image of token %s', async (id, file) => {
    expect(await image(`/v1/assets/tokens/${id}`)).toEqual({ status: 200, body: svgOf(file) })
  })

  it.each([
    '/v1/assets/networks/eip155:137', // configured, but its RPC is elsewhere and we have no icon of it
    '/v1/assets/networks/eip155:999999',
    '/v1/assets/networks/cosmos:cosmoshub-4',
    '/v1/assets/networks/eip155:constructor',
    '/v1/assets/networks/eip155:__proto__',
    '/v1/assets/tokens/eip155:1/slip44:9999',
    '/v1/assets/tokens/eip155:1/slip44:constructor',
    `/v1/assets/tokens/eip155:1/erc20:${TSR}`, // the token is configured on another chain
    '/v1/assets/tokens/eip155:31338/erc20:0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512', // configured, no image
    `/v1/assets/tokens/solana:CmpNeggWJ4JaWJeJ8YKN1Zypmk7uvQq3/erc20:${TSR}`,
  ])('answers 404 for what it has no image of: %s', async (path) => {
    const response = await app.request(path)
    expect(response.status).toBe(404)
    expect(await response.json()).toMatchObject({ error: { code: 'NOT_FOUND' } })
  })

  it.each([
    '/v1/assets/networks/eip155',
    '/v1/assets/networks/EIP155:1',
    '/v1/assets/networks/..%2F..%2Fpackage.json',
    '/v1/assets/networks/eip155:1%2F..%2F..%2Fapp.ts',
    '/v1/assets/networks/..%2Fassets%2Fethereum',
    '/v1/assets/networks/ethereum.svg',
    `/v1/assets/networks/eip155:${'1'.repeat(33)}`,
    '/v1/assets/tokens/eip155:1/slip44',
    '/v1/assets/tokens/eip155:1/..%2F..%2Froutes%2Fassets.ts',
    `/v1/assets/tokens/eip155:1/erc20:${'a'.repeat(129)}`,
    '/v1/assets/tokens/eip155:1/erc20:0x%00',
  ])('refuses a malformed or traversing id with 400: %s', async (path) => {
    const response = await app.request(path)
    expect(response.status).toBe(400)
    expect(await response.json()).toMatchObject({ error: { code: 'INVALID_INPUT' } })
  })

  it('ships only inert SVGs: no script, no event handler, no external reference', () => {
    const files = readdirSync(new URL('../assets/', import.meta.url))
    expect(files.length).toBeGreaterThanOrEqual(5)
    for (const file of files) {
      expect(file).toMatch(/^[a-z0-9-]+\.svg$/)
      const svg = svgOf(file.slice(0, -4))
      expect(svg, file).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/)
      expect(svg, file).not.toMatch(/<script|<foreignObject|\son[a-z]+=|href=|url\((?!#)|<!ENTITY|<\?xml-stylesheet/i)
    }
  })
})

describe('network and token images from the data service over HTTP', () => {
  let server: ApiServer
  const get = (path: string, projectId: string | null = PROJECT) => fetch(`${server.url}${path}${projectId ? `?projectId=${projectId}` : ''}`)

  beforeAll(async () => {
    const { api } = await freePorts()
    server = await startApiServer({ db: await openDatabase({}), port: api, projects: [{ id: PROJECT, allowedOrigins: ['http://allowed.test'] }], chains: [] })
  }, 60_000)
  afterAll(() => server?.stop())

  it('serves an icon as an inert, cacheable image', async () => {
    const response = await get('/v1/assets/networks/eip155:1')
    expect(response.status).toBe(200)
    expect(Object.fromEntries(['content-type', 'x-content-type-options', 'content-security-policy', 'cache-control', 'cross-origin-resource-policy'].map((h) => [h, response.headers.get(h)]))).toEqual({
      'content-type': 'image/svg+xml',
      'x-content-type-options': 'nosniff',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
      'cache-control': 'public, max-age=86400',
      'cross-origin-resource-policy': 'cross-origin',
    })
    expect(await response.text()).toBe(svgOf('ethereum'))
    expect((await get('/v1/assets/tokens/eip155:1/slip44:60')).status).toBe(200)
  })

  it('answers 404 for an unknown network, 400 for a traversal, and wants a project like every route', async () => {
    expect((await get('/v1/assets/networks/eip155:424242')).status).toBe(404)
    expect((await get('/v1/assets/networks/..%2F..%2Fconfig.ts')).status).toBe(400)
    // A path that a router would normalise (../) never reaches a file: it names no route.
    expect((await get('/v1/assets/networks/../../config.ts')).status).toBe(404)
    expect((await get('/v1/assets/networks/eip155:1', null)).status).toBe(400)
    expect((await get('/v1/assets/networks/eip155:1', 'unknown-project')).status).toBe(403)
  })
})
