import * as z from 'zod/mini'
import { DEFAULT_FEATURES } from '../../shared/protocol/constants'
import { errorTable } from '../../shared/protocol/errorTable'
import { createWidgetError } from '../../shared/protocol/errors'
import { issuesOf, safeParse } from '../../shared/protocol/schemas/parse'

const httpUrl = () => z.string().check(z.url({ protocol: /^https?$/ }))

/** Fields every family's network has, built with each family's schema. */
const commonNetworkFields = () => {
  const wsUrl = z.string().check(z.url({ protocol: /^wss?$/ }))
  const rpcUrls = z.object({ http: z.array(httpUrl()), webSocket: z.optional(z.array(wsUrl)) })
  return {
    name: z.string().check(z.minLength(1)),
    nativeCurrency: z.object({ name: z.string(), symbol: z.string(), decimals: z.number().check(z.int(), z.nonnegative()) }),
    rpcUrls: z.object({ default: rpcUrls, chainDefault: z.optional(rpcUrls) }),
    blockExplorers: z.optional(z.object({ default: z.object({ name: z.string(), url: httpUrl() }) })),
    testnet: z.optional(z.boolean()),
    /** SPEC §3 network assets: the network's icon (shown only as an image: data:image or http(s) URLs). */
    assets: z.optional(z.object({ imageId: z.optional(z.string().check(z.maxLength(128))), imageUrl: z.optional(z.string().check(z.maxLength(64 * 1024))) })),
  }
}
const evmNetwork = () =>
  z.object({
    chainNamespace: z.literal('eip155'),
    caipNetworkId: z.string().check(z.regex(/^eip155:\d+$/)),
    id: z.number().check(z.int(), z.positive()),
    ...commonNetworkFields(),
    contracts: z.optional(z.object({ multicall3: z.optional(z.object({ address: z.string().check(z.regex(/^0x[0-9a-fA-F]{40}$/)) })) })),
    /** Milliseconds between blocks, as viem's chains give it: the core looks for a receipt twice per block (0.5 to 4 s). */
    blockTime: z.optional(z.number().check(z.int(), z.positive(), z.lte(3_600_000))),
  })

/**
 * A Solana cluster: its CAIP-2 reference is the first 32 characters of its genesis hash (base58). `tokens` names the
 * SPL mints the site knows (others show as their mint address).
 */
const solanaNetwork = () =>
  z.object({
    chainNamespace: z.literal('solana'),
    caipNetworkId: z.string().check(z.regex(/^solana:[1-9A-HJ-NP-Za-km-z]{32}$/)),
    id: z.string().check(z.regex(/^[1-9A-HJ-NP-Za-km-z]{32}$/)),
    ...commonNetworkFields(),
    tokens: z.optional(
      z
        .array(
          z.object({
            address: z.string().check(z.regex(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/)),
            symbol: z.string().check(z.minLength(1), z.maxLength(16)),
            name: z.string().check(z.maxLength(64)),
            iconUrl: z.optional(httpUrl()),
          }),
        )
        .check(z.maxLength(100)),
    ),
  })

/**
 * The CAIP-2 references (first 32 hex characters of the genesis hash) of Bitcoin mainnet, testnet, signet and regtest,
 * the networks whose address rules Tessera knows (src/shared/families/bip122/address.ts; config.test.ts checks they
 * match). Written out here so the config's code stays free of the address library.
 */
export const bitcoinNetworkReferences = ['000000000019d6689c085ae165831e93', '000000000933ea01ad0ee984209779ba', '00000008819873e925422c1ff0f99f7c', '0f9188f13cb7b2c71f2a335e3a4fc328'] as const

/**
 * A Bitcoin network (bip122): mainnet, testnet, signet or regtest, its first http URL an Esplora-style REST API
 * (`https://mempool.space/api`, the local stack's). Its currency is BTC with 8 decimals.
 */
const bitcoinNetwork = () =>
  z.object({
    chainNamespace: z.literal('bip122'),
    caipNetworkId: z.string().check(z.regex(/^bip122:[0-9a-f]{32}$/)),
    id: z.string().check(
      z.regex(/^[0-9a-f]{32}$/),
      z.refine((id) => (bitcoinNetworkReferences as readonly string[]).includes(id), { message: 'must be the genesis reference of Bitcoin mainnet, testnet, signet or regtest' }),
    ),
    ...commonNetworkFields(),
  })

/**
 * A Polkadot-SDK network (polkadot): its CAIP-2 reference is the first 32 hex characters of its genesis hash. The core
 * speaks JSON-RPC over WebSocket: `rpcUrls.default.webSocket[0]`, else the first http URL on the same host and port
 * (Substrate nodes answer both there). `ss58Prefix` is its addresses' format; the known networks' (Polkadot 0, Kusama 2,
 * Westend 42, the local stack's) need none, and another network's accounts show in the generic format (42) without it.
 */
const polkadotNetwork = () =>
  z.object({
    chainNamespace: z.literal('polkadot'),
    caipNetworkId: z.string().check(z.regex(/^polkadot:[0-9a-f]{32}$/)),
    id: z.string().check(z.regex(/^[0-9a-f]{32}$/)),
    ...commonNetworkFields(),
    ss58Prefix: z.optional(z.number().check(z.int(), z.gte(0), z.refine((prefix) => prefix <= 16_383, { message: 'must be an SS58 prefix: 0 to 16383' }))),
  })

/**
 * A network of any family. Each family's schema is built only when a network is checked against it, so a site with
 * EVM networks only never builds the other three (building zod schemas is most of the config's start-up cost).
 */
const networkSchema = () => z.union([z.lazy(evmNetwork), z.lazy(solanaNetwork), z.lazy(bitcoinNetwork), z.lazy(polkadotNetwork)]).check(
  z.refine((n) => n.caipNetworkId === `${n.chainNamespace}:${n.id}`, { message: 'caipNetworkId must be chainNamespace:id', path: ['caipNetworkId'] }),
)

export type WidgetNetwork = z.infer<ReturnType<typeof networkSchema>>
export type EvmNetwork = z.infer<ReturnType<typeof evmNetwork>>
export type SolanaNetwork = z.infer<ReturnType<typeof solanaNetwork>>
export type BitcoinWidgetNetwork = z.infer<ReturnType<typeof bitcoinNetwork>>
export type PolkadotWidgetNetwork = z.infer<ReturnType<typeof polkadotNetwork>>

/** Features and their defaults (SPEC §9). */
export const defaultFeatures = DEFAULT_FEATURES

const featuresSchema = () => z.object(Object.fromEntries(Object.keys(defaultFeatures).map((k) => [k, z.optional(z.boolean())])) as Record<keyof typeof defaultFeatures, z.ZodMiniOptional<z.ZodMiniBoolean>>)

/** Each field's schema, built only when a check needs it: a site's config names a few of the fields. */
export const configFields = {
  projectId: () => z.string().check(z.minLength(1)),
  networks: () => z.array(networkSchema()).check(z.minLength(1)),
  defaultNetwork: () => z.optional(z.string()),
  /** Registry wallet ids the Connect view lists after the installed wallets, in this order. */
  featuredWalletIds: () => z.optional(z.array(z.string().check(z.minLength(1)))),
  metadata: () => z.optional(z.object({ name: z.string(), description: z.optional(z.string()), url: z.optional(httpUrl()), icons: z.optional(z.array(z.string())) })),
  features: () => z.optional(featuresSchema()),
  themeMode: () => z._default(z.enum(['light', 'dark']), 'dark'),
  themeVariables: () => z.optional(z.record(z.string().check(z.regex(/^--tsr-[a-z0-9-]+$/)), z.union([z.string(), z.number()]))),
  services: () => z.optional(z.object({ api: z.optional(httpUrl()), walletRegistry: z.optional(httpUrl()), relay: z.optional(z.string().check(z.url({ protocol: /^wss?$/ }))) })),
  siwx: () => z.optional(z.unknown()),
  siweConfig: () => z.optional(z.unknown()),
  allowUnsupportedChain: () => z._default(z.boolean(), false),
  enableNetworkSwitch: () => z._default(z.boolean(), true),
  enableEmbedded: () => z._default(z.boolean(), false),
  /**
   * The review before the wallet asks (issue #36): on by default for every transaction, batch and typed data a site
   * sends through the widget; `false` turns it off; `descriptors` are the site's ERC-7730 calldata descriptors.
   */
  review: () => z._default(z.union([z.boolean(), z.object({ descriptors: z.optional(z.array(z.unknown()).check(z.maxLength(100))) })]), true),
  logLevel: () => z._default(z.enum(['silent', 'error', 'warn', 'info', 'debug']), 'error'),
  locale: () => z.optional(z.string()),
  /** The nonce of the site's Content Security Policy, for the one `<style>` a browser without constructable stylesheets needs. */
  cspNonce: () => z.optional(z.string().check(z.minLength(1))),
  /**
   * E-mail and social login (SPEC §1): the secure frame's page (served from an origin of its own) and the social
   * providers offered, in this order (default SPEC §9's). Needs an EVM network.
   */
  auth: () =>
    z.optional(
      z.object({
        frameUrl: httpUrl(),
        socials: z.optional(z.array(z.enum(['google', 'x', 'discord', 'farcaster', 'github', 'apple', 'facebook'])).check(z.maxLength(7))),
      }),
    ),
}

/** The fields checked even when a config leaves them out: the required ones, and those with a default. */
export const alwaysCheckedFields = ['projectId', 'networks', 'themeMode', 'allowUnsupportedChain', 'enableNetworkSwitch', 'enableEmbedded', 'review', 'logLevel'] as const

type ConfigShape = { [K in keyof typeof configFields]: ReturnType<(typeof configFields)[K]> }

/**
 * The config's schema for `input`: the fields it has and the fields always checked. Built for each check and not kept
 * (kept, the schema would hold tens of kB of the page's memory for the page's life).
 */
const widgetConfigSchema = (input?: unknown) => {
  const isChecked = (field: string) => (alwaysCheckedFields as readonly string[]).includes(field) || (typeof input === 'object' && input !== null && field in input)
  const shape = Object.fromEntries(Object.entries(configFields).flatMap(([field, build]) => (isChecked(field) ? [[field, build()]] : []))) as ConfigShape
  return z
    .object(shape)
    .check(
      z.refine((config) => !(config.siwx !== undefined && config.siweConfig !== undefined), {
        message: errorTable.SIWX_CONFIG_CONFLICT.message,
        path: ['siwx'],
      }),
      z.refine((config) => config.defaultNetwork === undefined || config.networks.some((n) => n.caipNetworkId === config.defaultNetwork), {
        message: 'defaultNetwork must be one of networks',
        path: ['defaultNetwork'],
      }),
      z.refine((config) => config.auth === undefined || config.networks.some((n) => n.chainNamespace === 'eip155'), {
        message: 'e-mail and social login need an EVM network',
        path: ['auth'],
      }),
      z.refine((config) => config.auth === undefined || typeof location === 'undefined' || new URL(config.auth.frameUrl).origin !== location.origin, {
        message: "the secure frame must be served from an origin of its own, not the page's",
        path: ['auth', 'frameUrl'],
      }),
    )
}

export type WidgetConfigInput = z.input<ReturnType<typeof widgetConfigSchema>>
export type WidgetConfig = z.output<ReturnType<typeof widgetConfigSchema>> & { features: Record<keyof typeof defaultFeatures, boolean> }

/** Validates a host's config and fills in the defaults. */
export function parseWidgetConfig(input: unknown): WidgetConfig {
  const parsed = safeParse(widgetConfigSchema(input), input)
  if (!parsed.success) {
    const issues = issuesOf(parsed.error).map(({ path, message }) => ({ path: path || '(config)', message }))
    if (issues.some((i) => i.path === 'siwx' && i.message === errorTable.SIWX_CONFIG_CONFLICT.message)) {
      throw createWidgetError('SIWX_CONFIG_CONFLICT', { field: 'siwx' })
    }
    throw createWidgetError('INVALID_CONFIG', { field: issues[0]?.path, details: issues.map((i) => `${i.path}: ${i.message}`).join('; ') })
  }
  return { ...parsed.data, features: { ...defaultFeatures, ...parsed.data.features } } as WidgetConfig
}
