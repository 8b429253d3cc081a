import { createHash } from 'node:crypto'
import { ed25519 } from '@noble/curves/ed25519.js'
import { base58 } from '@scure/base'
import { isAddress as isSolanaAddress } from '@solana/kit'
import { getAddress, isAddress as isEvmAddress, type Address, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { z } from 'zod'
import type { OnrampPaymentMethod } from '../api/onramp/provider'
import { FIAT_PLACES, parseDecimal, PRICE_PLACES } from './amounts'

/** Bounds on what partners and visitors can make the sandbox hold or do; every one has a default (see `defaultOnrampSandboxLimits`). */
export type OnrampSandboxLimits = {
  /** Orders kept; past it the oldest finished one is dropped, and a new session is refused (503) while every one is open. */
  orders: number
  /** Quotes kept; past it the oldest is dropped. */
  quotes: number
  /** How long a quote may be turned into a session. */
  quoteTtlMs: number
  /** How long an order waits for its payment; then it fails ('expired'). */
  orderTtlMs: number
  /** Largest request body; a larger one gets 413. */
  bodyBytes: number
  /** Reports waiting for delivery or a retry; past it the oldest is given up (and logged). */
  webhookQueue: number
  /** Tries per report, the first included; the waits between them grow ×4 from webhookRetryBaseMs. */
  webhookAttempts: number
  webhookRetryBaseMs: number
  /** How long one try may take before it counts as failed. */
  webhookTimeoutMs: number
  /** How long a broadcast transfer may take to land before its order fails. */
  confirmTimeoutMs: number
  /** A client has this long to send its headers, and the whole request; then its socket is closed. */
  headersTimeoutMs: number
  requestTimeoutMs: number
  /** Open connections at once; past it new ones are closed at once. */
  maxConnections: number
}

/** A checkout form is under 1 KiB and every JSON request under 2 KiB: 16 KiB leaves room and no more. */
export const defaultOnrampSandboxLimits: OnrampSandboxLimits = {
  orders: 10_000,
  quotes: 10_000,
  quoteTtlMs: 2 * 60_000,
  orderTtlMs: 30 * 60_000,
  bodyBytes: 16 * 1_024,
  webhookQueue: 10_000,
  webhookAttempts: 5,
  webhookRetryBaseMs: 1_000,
  webhookTimeoutMs: 5_000,
  confirmTimeoutMs: 120_000,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  maxConnections: 1_024,
}

/** The limits of the spec (SPEC §7 on-ramp): card 10–7,500 and bank transfer 10–25,000, in USD and in EUR; 0.50 of network fee. */
export const defaultOnrampSandboxFiat = {
  USD: { networkFee: '0.50', card: { min: '10', max: '7500' }, bank: { min: '10', max: '25000' } },
  EUR: { networkFee: '0.50', card: { min: '10', max: '7500' }, bank: { min: '10', max: '25000' } },
}

const safeInteger = (min: number) =>
  z.number({ error: 'must be a number' }).int({ error: 'must be an integer' }).min(min, { error: `must be at least ${min}` }).max(Number.MAX_SAFE_INTEGER, { error: 'must be at most 2^53 - 1' })
const text = (max: number) =>
  z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }).max(max, { error: `must be at most ${max} characters` })
/** An amount as a JSON number or a decimal string, in units of 10^-places. */
const decimal = (places: number, what: string) =>
  z.union([z.number(), z.string()], { error: `must be ${what}` }).transform((value, ctx) => {
    const parsed = typeof value === 'number' && !Number.isFinite(value) ? undefined : parseDecimal(String(value), places)
    if (parsed === undefined) {
      ctx.addIssue({ code: 'custom', message: `must be ${what}` })
      return z.NEVER
    }
    return parsed
  })
const httpUrl = z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' })
const NETWORK = /^(eip155:[1-9]\d{0,15}|solana:[1-9A-HJ-NP-Za-km-z]{32})$/

const limitSchema = z.object(
  { min: decimal(FIAT_PLACES, 'an amount with at most 2 decimal places'), max: decimal(FIAT_PLACES, 'an amount with at most 2 decimal places') },
  { error: 'must be { min, max }' },
)

const configSchema = z.object(
  {
    publicUrl: httpUrl
      .transform((value) => value.replace(/\/+$/, ''))
      .refine((value) => new URL(value).origin === value, { error: 'must be an origin, like http://127.0.0.1:8794 (scheme, host and port only)' })
      .optional(),
    countries: z.array(z.string().regex(/^[A-Z]{2}$/, { error: 'must be an ISO 3166-1 alpha-2 code' }), { error: 'must be a list of country codes' }).max(300).optional(),
    partners: z
      .array(
        z.object({
          apiKey: z.string({ error: 'must be a string' }).min(8, { error: 'must be at least 8 characters' }).max(256, { error: 'must be at most 256 characters' }),
          name: text(100),
          feePercent: decimal(2, 'a percentage from 0 to 10 with at most 2 decimal places').refine((value) => value <= 1_000n, { error: 'must be at most 10' }),
          webhookUrl: httpUrl,
          webhookSecret: z.string({ error: 'must be a string' }).min(16, { error: 'must be at least 16 characters' }).max(256, { error: 'must be at most 256 characters' }),
        }),
        { error: 'must be a list of partners' },
      )
      .min(1, { error: 'must list at least one partner' })
      .max(100, { error: 'must list at most 100 partners' }),
    fiat: z
      .record(
        z.string().regex(/^[A-Z]{3}$/, { error: 'must be an ISO 4217 code' }),
        z.object(
          { networkFee: decimal(FIAT_PLACES, 'an amount with at most 2 decimal places'), card: limitSchema.optional(), bank: limitSchema.optional() },
          { error: 'must be { networkFee, card?, bank? }' },
        ),
        { error: 'must map currency codes to { networkFee, card?, bank? }' },
      )
      .prefault(defaultOnrampSandboxFiat),
    prices: z.record(
      z.string(),
      z.record(z.string(), decimal(PRICE_PLACES, 'a price above 0 with at most 8 decimal places').refine((value) => value > 0n, { error: 'must be above 0' }), {
        error: 'must map currency codes to prices',
      }),
      { error: 'must map asset symbols to their prices' },
    ),
    assets: z
      .array(
        z.object({
          network: z.string({ error: 'must be a string' }).regex(NETWORK, { error: "must be a CAIP-2 id of an EVM or Solana network ('eip155:31337', 'solana:' and 32 characters)" }),
          symbol: z.string({ error: 'must be a string' }).regex(/^[A-Za-z0-9.]{1,16}$/, { error: 'must be 1 to 16 letters, digits or points' }),
          name: text(100),
          decimals: safeInteger(0).max(36, { error: 'must be at most 36' }),
          address: z.string({ error: 'must be a string' }).max(64).optional(),
          rpcUrl: httpUrl,
        }),
        { error: 'must be a list of assets' },
      )
      .min(1, { error: 'must list at least one asset' })
      .max(200, { error: 'must list at most 200 assets' }),
    treasuries: z.record(z.string(), z.union([z.string(), z.array(safeInteger(0).max(255, { error: 'must be a byte' }))], { error: 'must be a private key' }), {
      error: 'must map networks to private keys',
    }),
    limits: z
      .object(
        {
          orders: safeInteger(1),
          quotes: safeInteger(1),
          quoteTtlMs: safeInteger(1_000),
          orderTtlMs: safeInteger(1_000),
          bodyBytes: safeInteger(1_024),
          webhookQueue: safeInteger(1),
          webhookAttempts: safeInteger(1),
          webhookRetryBaseMs: safeInteger(1),
          webhookTimeoutMs: safeInteger(1),
          confirmTimeoutMs: safeInteger(1),
          headersTimeoutMs: safeInteger(1),
          requestTimeoutMs: safeInteger(1),
          maxConnections: safeInteger(1),
        },
        { error: 'must be an object' },
      )
      .partial()
      .optional(),
  },
  { error: 'must be a JSON object' },
)

/** The sandbox's configuration as JSON holds it (the file `main.ts` reads, or an object in tests and the local stack). */
export type OnrampSandboxConfigInput = z.input<typeof configSchema>

/** One partner: one on-ramp "provider" as a data service sees it. Its API key is kept only as a digest. */
export type SandboxPartner = {
  /** sha256 of the API key, hex. */
  apiKeyDigest: string
  name: string
  /** The fee in hundredths of a percent (basis points): 150 is 1.5 %. */
  feeBasisPoints: bigint
  webhookUrl: string
  webhookSecret: string
}

export type SandboxFiat = {
  /** ISO 4217 code. */
  id: string
  networkFeeCents: bigint
  methods: ReadonlyMap<OnrampPaymentMethod, { minCents: bigint; maxCents: bigint }>
}

export type SandboxAsset = {
  /** CAIP-2. */
  network: string
  namespace: 'eip155' | 'solana'
  symbol: string
  name: string
  decimals: number
  /** An ERC-20 token or an SPL mint; undefined: the network's native currency. */
  address?: string
  rpcUrl: string
  /** The price of one unit per fiat currency, in units of 10^-8 of that currency. */
  prices: ReadonlyMap<string, bigint>
}

/** The key that pays a network's transfers: a secp256k1 private key, or a 64-byte ed25519 secret key (private then public). */
export type SandboxTreasury = { kind: 'evm'; privateKey: Hex; address: Address } | { kind: 'solana'; secretKey: Uint8Array; address: string }

/** The configuration checked and resolved. */
export type OnrampSandboxConfig = {
  /** The sandbox's origin as browsers reach it; undefined: the server's own http://host:port. */
  publicUrl?: string
  countries: string[]
  partners: SandboxPartner[]
  fiat: ReadonlyMap<string, SandboxFiat>
  assets: SandboxAsset[]
  treasuries: ReadonlyMap<string, SandboxTreasury>
  limits: OnrampSandboxLimits
}

/** A configuration the sandbox cannot run with; its message names every field at fault (never a value). */
export class OnrampSandboxConfigError extends Error {
  override name = 'OnrampSandboxConfigError'
  constructor(readonly issues: readonly string[]) {
    super(`The on-ramp sandbox configuration is not valid: ${issues.join('; ')}`)
  }
}

/** `partners[0].webhookUrl` from zod's path. */
const fieldName = (path: readonly PropertyKey[]) =>
  path.reduce<string>((name, key) => (typeof key === 'number' ? `${name}[${key}]` : name ? `${name}.${String(key)}` : String(key)), '')

/** How a partner's API key is kept and looked up: its sha256, hex. */
export const digestApiKey = (apiKey: string) => createHash('sha256').update(apiKey).digest('hex')

/** A Solana secret key from the CLI's keypair file (64 numbers) or base58; undefined unless its second half is the first half's public key. */
function solanaSecretKey(value: string | number[]): Uint8Array | undefined {
  let bytes: Uint8Array
  try {
    bytes = typeof value === 'string' ? base58.decode(value) : Uint8Array.from(value)
  } catch {
    return undefined
  }
  if (bytes.length !== 64) return undefined
  const publicKey = ed25519.getPublicKey(bytes.slice(0, 32))
  return publicKey.every((byte, index) => byte === bytes[32 + index]) ? bytes : undefined
}

/**
 * Checks a configuration and resolves it. Throws OnrampSandboxConfigError naming each field at fault: a missing or
 * malformed one, an asset without a treasury or a price in every fiat currency, a token address not of its network,
 * a key that is no key. No message includes a value, so no key or secret can reach a log through one.
 * @example const config = parseOnrampSandboxConfig(JSON.parse(readFileSync(path, 'utf8')))
 */
export function parseOnrampSandboxConfig(input: unknown): OnrampSandboxConfig {
  const parsed = configSchema.safeParse(input, { reportInput: false })
  if (!parsed.success) throw new OnrampSandboxConfigError(parsed.error.issues.slice(0, 20).map((issue) => `${fieldName(issue.path) || 'config'} ${issue.message}`))
  const { publicUrl, countries = [], partners, fiat, prices, assets, treasuries, limits } = parsed.data
  const issues: string[] = []

  const digests = new Set<string>()
  const resolvedPartners = partners.map((partner, index): SandboxPartner => {
    const apiKeyDigest = digestApiKey(partner.apiKey)
    if (digests.has(apiKeyDigest)) issues.push(`partners[${index}].apiKey is the key of an earlier partner`)
    digests.add(apiKeyDigest)
    return { apiKeyDigest, name: partner.name, feeBasisPoints: partner.feePercent, webhookUrl: partner.webhookUrl, webhookSecret: partner.webhookSecret }
  })

  const fiatEntries = Object.entries(fiat)
  const resolvedFiat = new Map<string, SandboxFiat>()
  if (fiatEntries.length === 0) issues.push('fiat must list at least one currency')
  for (const [id, currency] of fiatEntries) {
    const methods = new Map<OnrampPaymentMethod, { minCents: bigint; maxCents: bigint }>()
    for (const method of ['card', 'bank'] as const) {
      const limit = currency[method]
      if (!limit) continue
      const { min: minCents, max: maxCents } = limit
      if (minCents <= 0n || minCents > maxCents) issues.push(`fiat.${id}.${method} must have 0 < min ≤ max`)
      methods.set(method, { minCents, maxCents })
    }
    if (methods.size === 0) issues.push(`fiat.${id} must list card or bank (or both)`)
    resolvedFiat.set(id, { id, networkFeeCents: currency.networkFee, methods })
  }

  const resolvedTreasuries = new Map<string, SandboxTreasury>()
  for (const [network, key] of Object.entries(treasuries)) {
    const field = `treasuries["${network.slice(0, 64)}"]`
    if (!NETWORK.test(network)) {
      issues.push(`${field} must be keyed by the CAIP-2 id of an EVM or Solana network`)
    } else if (network.startsWith('eip155:')) {
      try {
        if (typeof key !== 'string' || !/^0x[0-9a-fA-F]{64}$/.test(key)) throw new Error('not a key')
        resolvedTreasuries.set(network, { kind: 'evm', privateKey: key as Hex, address: privateKeyToAccount(key as Hex).address })
      } catch {
        issues.push(`${field} must be a secp256k1 private key (0x and 64 hex digits)`)
      }
    } else {
      const secretKey = solanaSecretKey(key)
      if (secretKey) resolvedTreasuries.set(network, { kind: 'solana', secretKey, address: base58.encode(secretKey.slice(32)) })
      else issues.push(`${field} must be a Solana secret key: 64 bytes (private key then its public key), as a list of numbers or base58`)
    }
  }

  const seen = new Set<string>()
  const rpcUrls = new Map<string, string>()
  const resolvedAssets = assets.map((asset, index): SandboxAsset => {
    const field = `assets[${index}]`
    const namespace = asset.network.startsWith('eip155:') ? 'eip155' : 'solana'
    if (seen.has(`${asset.network} ${asset.symbol}`)) issues.push(`${field}.symbol ${asset.symbol} is listed twice on ${asset.network}`)
    seen.add(`${asset.network} ${asset.symbol}`)
    if (!treasuries[asset.network]) issues.push(`${field}.network has no key in treasuries to pay from`)
    if ((rpcUrls.get(asset.network) ?? asset.rpcUrl) !== asset.rpcUrl) issues.push(`${field}.rpcUrl must be the rpcUrl of the other assets on its network`)
    rpcUrls.set(asset.network, rpcUrls.get(asset.network) ?? asset.rpcUrl)
    let address = asset.address
    if (address !== undefined) {
      if (namespace === 'eip155' && isEvmAddress(address, { strict: false })) address = getAddress(address)
      else if (namespace !== 'solana' || !isSolanaAddress(address)) issues.push(`${field}.address must be a token address of its network`)
    } else if (asset.decimals !== (namespace === 'eip155' ? 18 : 9)) {
      issues.push(`${field}.decimals must be ${namespace === 'eip155' ? 18 : 9} for the native currency of ${namespace === 'eip155' ? 'an EVM' : 'a Solana'} network`)
    }
    const assetPrices = new Map<string, bigint>()
    for (const currency of resolvedFiat.keys()) {
      const price = prices[asset.symbol]?.[currency]
      if (price === undefined) issues.push(`prices.${asset.symbol}.${currency} is missing: every asset needs a price in every fiat currency`)
      else assetPrices.set(currency, price)
    }
    return { network: asset.network, namespace, symbol: asset.symbol, name: asset.name, decimals: asset.decimals, ...(address ? { address } : {}), rpcUrl: asset.rpcUrl, prices: assetPrices }
  })

  if (issues.length > 0) throw new OnrampSandboxConfigError(issues)
  return {
    ...(publicUrl ? { publicUrl } : {}),
    countries,
    partners: resolvedPartners,
    fiat: resolvedFiat,
    assets: resolvedAssets,
    treasuries: resolvedTreasuries,
    limits: { ...defaultOnrampSandboxLimits, ...limits },
  }
}
