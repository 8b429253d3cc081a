import { readdirSync, readFileSync } from 'node:fs'
import { Hono, type Context } from 'hono'
import * as z from 'zod/mini'
import { errorBody, type ApiConfig } from '../config'
import { text, validate } from './validate'

const assetsDir = new URL('../assets/', import.meta.url)

/** A CAIP-2 network id (`namespace:reference`, as the CAIP-2 grammar bounds them). */
const caipNetworkId = text({ max: 41, pattern: /^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/, patternMessage: 'Expected a CAIP-2 network id' })
/** A CAIP-19 asset (`asset_namespace:asset_reference`): slip44:60, erc20:0x…, token:<base58 mint>. */
const caipAsset = text({ max: 137, pattern: /^[-a-z0-9]{3,8}:[-.%a-zA-Z0-9]{1,128}$/, patternMessage: 'Expected a CAIP-19 asset (namespace:reference)' })

/** The icons of EVM networks we know, by chain id: Ethereum and its test networks, and the usual local dev chains. */
const evmNetworkIcons = new Map([['1', 'ethereum'], ['11155111', 'ethereum'], ['17000', 'ethereum'], ['1337', 'local-evm'], ['31337', 'local-evm']])
/** The other families have one icon whatever their network (mainnet, test network or local chain). */
const familyIcons = new Map([['solana', 'solana'], ['bip122', 'bitcoin'], ['polkadot', 'polkadot']])
/** Native currencies by SLIP-44 coin type. */
const slip44Icons = new Map([['60', 'ethereum'], ['501', 'solana'], ['0', 'bitcoin'], ['1', 'bitcoin'], ['354', 'polkadot']])

const isLoopback = (url: string) => {
  try {
    return ['127.0.0.1', 'localhost', '[::1]'].includes(new URL(url).hostname)
  } catch {
    return false
  }
}

/** Every SVG of the assets folder, read once: a request only ever picks one by name from this map, never a path. */
const loadIcons = () => new Map(readdirSync(assetsDir).filter((file) => file.endsWith('.svg')).map((file) => [file.slice(0, -'.svg'.length), readFileSync(new URL(file, assetsDir))]))

const networkParam = z.object({ caipNetworkId })
const networkAssetParam = z.object({ caipNetworkId, asset: caipAsset })

/**
 * Network icons and token images (SPEC §3 network assets, token iconUrl), our own SVGs from services/api/assets:
 * - `GET /v1/assets/networks/:caipNetworkId`: Ethereum and its test networks, local EVM chains (the usual dev chain ids,
 *   and each configured chain whose RPC is on this machine), Solana, Bitcoin and Polkadot networks;
 * - `GET /v1/assets/tokens/:caipNetworkId/:asset` (a CAIP-19 asset id, its slash a path separator): native currencies
 *   by SLIP-44 coin type, and the configured ERC-20 tokens that have an image (by symbol).
 * Ids are validated (400) and only name entries of the in-memory map (404 otherwise); images are served inert (a CSP
 * with no script, nosniff) and cacheable.
 * @example GET /v1/assets/tokens/eip155:1/slip44:60?projectId=… // the ETH image
 */
export function assetRoutes({ chains }: ApiConfig) {
  const app = new Hono()
  const icons = loadIcons()
  const localChainIds = new Set(chains.filter((chain) => isLoopback(chain.rpcUrl)).map((chain) => String(chain.chainId)))

  const networkIcon = (id: string) => {
    const [namespace = '', reference = ''] = id.split(':')
    if (namespace !== 'eip155') return familyIcons.get(namespace)
    return evmNetworkIcons.get(reference) ?? (localChainIds.has(reference) ? 'local-evm' : undefined)
  }
  const tokenIcon = (network: string, asset: string) => {
    const [assetNamespace = '', reference = ''] = asset.split(':')
    if (assetNamespace === 'slip44') return slip44Icons.get(reference)
    if (assetNamespace !== 'erc20' || !network.startsWith('eip155:')) return undefined
    const chain = chains.find((c) => `eip155:${c.chainId}` === network)
    const token = chain?.tokens.find((t) => t.address.toLowerCase() === reference.toLowerCase())
    return token ? `token-${token.symbol.toLowerCase()}` : undefined
  }
  const send = (c: Context, name: string | undefined, what: string) => {
    const svg = name === undefined ? undefined : icons.get(name)
    if (!svg) return c.json(errorBody('NOT_FOUND', `No image for ${what}`), 404, { 'cache-control': 'public, max-age=300' })
    return c.body(new Uint8Array(svg), 200, {
      'content-type': 'image/svg+xml',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
      'x-content-type-options': 'nosniff',
      'cross-origin-resource-policy': 'cross-origin',
      'cache-control': 'public, max-age=86400',
    })
  }

  app.get('/v1/assets/networks/:caipNetworkId', async (c) => {
    const params = await validate(c, 'param', networkParam)
    if (!params.ok) return params.response
    return send(c, networkIcon(params.data.caipNetworkId), params.data.caipNetworkId)
  })
  app.get('/v1/assets/tokens/:caipNetworkId/:asset', async (c) => {
    const params = await validate(c, 'param', networkAssetParam)
    if (!params.ok) return params.response
    const { caipNetworkId: network, asset } = params.data
    return send(c, tokenIcon(network, asset), `${network}/${asset}`)
  })
  return app
}
