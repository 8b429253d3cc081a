import { getAddress, type Address, type Hex } from 'viem'
import { privateKeyToAccount, type PrivateKeyAccount } from 'viem/accounts'
import { z } from 'zod'

/** Bounds on what a client can make the service hold or do; every one has a default (see `defaultPaymasterLimits`). */
export type PaymasterLimits = {
  /** Largest request body, with or without Content-Length; a larger one gets 413 and a JSON-RPC error. */
  bodyBytes: number
  /** Requests in one JSON-RPC batch; a longer batch is refused whole. */
  batchRequests: number
  /**
   * Accounts whose sponsored gas is counted today (all projects and chains together). Past it a new account is refused
   * (sponsorAtCapacity) rather than an old one forgotten, which would hand it a fresh allowance; the count starts
   * again at 00:00 UTC, when yesterday's entries are dropped.
   */
  trackedAccounts: number
  /** How long a paymaster signature stays valid (its validUntil), from the moment it is made. */
  signatureValiditySeconds: number
  /** How long a read of the paymaster's EntryPoint deposit is reused before the chain is asked again. */
  depositCacheMs: number
  /** A client has this long to send its headers, and the whole request; then its socket is closed. */
  headersTimeoutMs: number
  requestTimeoutMs: number
  /** Open connections at once; past it new ones are closed at once. */
  maxConnections: number
}

/**
 * An honest client sends one request of 1–3 KiB per call (viem never batches to a paymaster unless asked); a deploy
 * with a long batch of calls stays far under 64 KiB. 100,000 tracked accounts hold about 27 MB of heap (measured).
 */
export const defaultPaymasterLimits: PaymasterLimits = {
  bodyBytes: 64 * 1_024,
  batchRequests: 10,
  trackedAccounts: 100_000,
  signatureValiditySeconds: 600,
  depositCacheMs: 5_000,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  maxConnections: 1_024,
}

/**
 * Gas the paymaster's own validation may use (EntryPoint v0.8 counts its call, the EIP-712 hash of callData and
 * initCode, and ecrecover): 13,000 for a plain deploy and 17,700 with 12 KB of callData on anvil, so 60,000 covers any
 * operation under the default body limit. Its postOp is never called (its context is empty): 0.
 */
export const DEFAULT_PAYMASTER_VERIFICATION_GAS_LIMIT = 60_000
export const DEFAULT_PAYMASTER_POST_OP_GAS_LIMIT = 0

const hexPattern = (pattern: RegExp, what: string) => z.string({ error: `must be ${what}` }).regex(pattern, { error: `must be ${what}` })
const address = hexPattern(/^0x[0-9a-fA-F]{40}$/, 'an address (0x and 40 hex digits)').transform((value) => getAddress(value))
const safeInteger = (min: number) =>
  z.number({ error: 'must be a number' }).int({ error: 'must be an integer' }).min(min, { error: `must be at least ${min}` }).max(Number.MAX_SAFE_INTEGER, { error: 'must be at most 2^53 - 1' })
const weiError = 'must be a whole number of wei from 1 to 10^39 - 1, as a number or a string of digits'
/** Wei, as a JSON number or (for amounts past 2^53) a string of decimal digits. */
const wei = z
  .union([safeInteger(1), z.string().regex(/^[1-9][0-9]{0,38}$/, { error: weiError })], { error: weiError })
  .transform((value) => BigInt(value))
const origin = z.string({ error: 'must be a string' }).refine(
  (value) => {
    try {
      return new URL(value).origin === value
    } catch {
      return false
    }
  },
  { error: 'must be an exact origin, like https://app.example (scheme, host and port only, no path or trailing slash)' },
)

const chainSchema = z.object({
  chainId: safeInteger(1),
  rpcUrl: z.url({ protocol: /^https?$/, error: 'must be an http(s) URL' }),
  paymasterAddress: address,
  entryPointAddress: address,
  paymasterVerificationGasLimit: safeInteger(1).optional(),
  paymasterPostOpGasLimit: safeInteger(0).optional(),
  /** Operations offering more per gas than this (maxFeePerGas) are refused: a bundler is paid what the operation offers. */
  maxFeePerGasWei: wei.optional(),
})

const projectSchema = z.object({
  id: z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }).max(200, { error: 'must be at most 200 characters' }),
  /** Shown by wallets as who pays (ERC-7677's sponsor.name). */
  sponsorName: z.string().min(1).max(100).optional(),
  allowedOrigins: z.array(origin, { error: 'must be a list of origins' }),
  chainIds: z.array(safeInteger(1), { error: 'must be a list of chain ids' }),
  dailyGasPerAccount: safeInteger(0),
  allowedContracts: z.array(address, { error: 'must be a list of addresses' }).optional(),
})

const limitsSchema = z
  .object(
    {
      bodyBytes: safeInteger(1_024),
      batchRequests: safeInteger(1),
      trackedAccounts: safeInteger(1),
      signatureValiditySeconds: safeInteger(60),
      depositCacheMs: safeInteger(0),
      headersTimeoutMs: safeInteger(1),
      requestTimeoutMs: safeInteger(1),
      maxConnections: safeInteger(1),
    },
    { error: 'must be an object' },
  )
  .partial()
  .optional()

const configSchema = z.object(
  {
    signerKey: hexPattern(/^0x[0-9a-fA-F]{64}$/, 'a private key (0x and 64 hex digits)'),
    chains: z.array(chainSchema, { error: 'must be a list of chains' }).min(1, { error: 'must list at least one chain' }),
    projects: z.array(projectSchema, { error: 'must be a list of projects' }),
    limits: limitsSchema,
  },
  { error: 'must be a JSON object' },
)

/** The service's configuration as JSON holds it (the file `main.ts` reads, or an object in tests). */
export type PaymasterConfigInput = z.input<typeof configSchema>

export type PaymasterChain = {
  chainId: number
  rpcUrl: string
  paymasterAddress: Address
  entryPointAddress: Address
  paymasterVerificationGasLimit: bigint
  paymasterPostOpGasLimit: bigint
  maxFeePerGasWei?: bigint
}

export type PaymasterProject = {
  id: string
  sponsorName?: string
  allowedOrigins: ReadonlySet<string>
  chainIds: ReadonlySet<number>
  dailyGasPerAccount: bigint
  /** Lower-case addresses; undefined: any contract. */
  allowedContracts?: ReadonlySet<string>
}

/** The configuration checked and resolved: the signer as an account (its key is not kept anywhere else), maps by id. */
export type PaymasterConfig = {
  signer: PrivateKeyAccount
  chains: ReadonlyMap<number, PaymasterChain>
  projects: ReadonlyMap<string, PaymasterProject>
  limits: PaymasterLimits
}

/** A configuration the service cannot run with; its message names every field at fault (never a value). */
export class PaymasterConfigError extends Error {
  override name = 'PaymasterConfigError'
  constructor(readonly issues: readonly string[]) {
    super(`The paymaster configuration is not valid: ${issues.join('; ')}`)
  }
}

/** `chains[0].paymasterAddress` from zod's path. */
const fieldName = (path: readonly PropertyKey[]) =>
  path.reduce<string>((name, key) => (typeof key === 'number' ? `${name}[${key}]` : name ? `${name}.${String(key)}` : String(key)), '')

/**
 * Checks a configuration and resolves it. Throws PaymasterConfigError naming each field at fault: a missing or
 * malformed one, a duplicate project or chain id, a signer key that is no secp256k1 key. No message includes a value,
 * so the signer key cannot reach a log through one.
 * @example const config = parsePaymasterConfig(JSON.parse(readFileSync(path, 'utf8')))
 */
export function parsePaymasterConfig(input: unknown): PaymasterConfig {
  const parsed = configSchema.safeParse(input, { reportInput: false })
  if (!parsed.success) throw new PaymasterConfigError(parsed.error.issues.slice(0, 20).map((issue) => `${fieldName(issue.path) || 'config'} ${issue.message}`))
  const { signerKey, chains, projects, limits } = parsed.data

  const issues: string[] = []
  let signer: PrivateKeyAccount | undefined
  try {
    signer = privateKeyToAccount(signerKey as Hex)
  } catch {
    issues.push('signerKey is not a valid secp256k1 private key')
  }
  const chainMap = new Map<number, PaymasterChain>()
  chains.forEach((chain, index) => {
    if (chainMap.has(chain.chainId)) issues.push(`chains[${index}].chainId ${chain.chainId} is listed twice`)
    chainMap.set(chain.chainId, {
      ...chain,
      paymasterVerificationGasLimit: BigInt(chain.paymasterVerificationGasLimit ?? DEFAULT_PAYMASTER_VERIFICATION_GAS_LIMIT),
      paymasterPostOpGasLimit: BigInt(chain.paymasterPostOpGasLimit ?? DEFAULT_PAYMASTER_POST_OP_GAS_LIMIT),
    })
  })
  const projectMap = new Map<string, PaymasterProject>()
  projects.forEach((project, index) => {
    if (projectMap.has(project.id)) issues.push(`projects[${index}].id "${project.id}" is listed twice`)
    projectMap.set(project.id, {
      id: project.id,
      ...(project.sponsorName ? { sponsorName: project.sponsorName } : {}),
      allowedOrigins: new Set(project.allowedOrigins),
      chainIds: new Set(project.chainIds),
      dailyGasPerAccount: BigInt(project.dailyGasPerAccount),
      ...(project.allowedContracts ? { allowedContracts: new Set(project.allowedContracts.map((contract) => contract.toLowerCase())) } : {}),
    })
  })
  if (issues.length > 0 || !signer) throw new PaymasterConfigError(issues)
  return { signer, chains: chainMap, projects: projectMap, limits: { ...defaultPaymasterLimits, ...limits } }
}
