import { AsyncLocalStorage } from 'node:async_hooks'
import { ed25519 } from '@noble/curves/ed25519.js'
import { base58 } from '@scure/base'
import type { Context } from 'hono'
import {
  BaseError,
  createPublicClient,
  defineChain,
  HttpRequestError,
  http,
  isAddress,
  LimitExceededRpcError,
  MethodNotFoundRpcError,
  MethodNotSupportedRpcError,
  ResourceUnavailableRpcError,
  RpcRequestError,
  TimeoutError,
  verifyMessage,
  type Hex,
  type Transport,
} from 'viem'
import { createSiweMessage, parseSiweMessage } from 'viem/siwe'
import * as z from 'zod/mini'
import { errorBody, escapeForLog, type ServiceChain, type VerifyEvmSignature } from '../config'
import { parseSolanaSignInMessage, type SolanaSignInChainId } from '../../../src/shared/families/solana/signInMessage'
import { hexSignature, text } from './validate'

/** EIP-2294's bound on chain ids: larger ones cannot be used in signed transactions. */
export const MAX_CHAIN_ID = 4_503_599_627_370_476

export type SignInRules = {
  /** How old Issued At may be. */
  maxAgeMs: number
  /** How far a client's clock may run ahead of ours. */
  clockSkewMs: number
  /** A session's lifetime when the message names no Expiration Time. */
  defaultLifetimeMs: number
  /** No session outlives this, whatever the message asks. */
  maxLifetimeMs: number
}

export const defaultSignInRules: SignInRules = {
  maxAgeMs: 5 * 60_000,
  clockSkewMs: 60_000,
  defaultLifetimeMs: 24 * 3_600_000,
  maxLifetimeMs: 7 * 24 * 3_600_000,
}

type Refusal = { ok: false; code: 'INVALID_INPUT' | 'DOMAIN_NOT_ALLOWED' | 'STALE_MESSAGE' | 'NOT_YET_VALID'; message: string; field: string }

/** What every family's message says that the shared rules check. */
export type SignInMessageFields = {
  address: string
  /** CAIP-10 account id the session is for: `eip155:1:0x…`, `solana:5eykt4…:7xKX…`. */
  caipAddress: string
  domain: string
  /** EIP-4361's optional scheme before the domain. */
  scheme?: string | undefined
  uri: string
  nonce: string
  issuedAt: Date
  notBefore?: Date | undefined
  expirationTime?: Date | undefined
}

/**
 * One sign-in message family (EIP-4361 for eip155, Sign-In With Solana for solana, CAIP-122 for bip122): the parts
 * that differ between chains. The rules every family shares (origins, times, nonce, lifetime) live in
 * checkSignInMessage and the route.
 */
export type SignInFamily = {
  /** CAIP-2 namespace of its addresses; a session's caipAddress starts with it. */
  namespace: 'eip155' | 'solana' | 'bip122' | 'polkadot'
  /** Whether the message's first line is this family's header (it may still be malformed). */
  isFamilyMessage: (message: string) => boolean
  /** Parses the message, refuses any text that is not exactly its fields, checks address and chain id. */
  read: (message: string) => { ok: true; fields: SignInMessageFields } | Refusal
  /** The form its signatures are sent in (hex, base58). */
  signature: z.ZodMiniType<string, string>
  /**
   * Whether `signature` over the text `message` was made by `address`; false for any malformed input. `caipAddress`,
   * the session's account, names the chain where a smart account's signature is checked (without it only a key's
   * signature can be valid); throws SignatureChainError when that chain could not say.
   */
  verify: (parameters: { address: string; caipAddress?: string | undefined; message: string; signature: string }) => Promise<boolean>
}

const fail = (code: Refusal['code'], field: string, message: string): Refusal => ({ ok: false, code, field, message })
const firstLineEndsWith = (message: string, header: string) => (message.split('\n', 1)[0] ?? '').endsWith(header)

/** The message with its dates written as createSiweMessage writes them, so a canonical form can be compared. */
const withIsoDates = (message: string) =>
  message.replace(/^(Issued At|Expiration Time|Not Before): (.+)$/gm, (_line, name: string, value: string) => `${name}: ${new Date(value).toISOString()}`)

/**
 * Why the chain of a signature could not say whether it is valid: its node could not be reached (refused, reset,
 * timed out), or answered something that cannot be used. Never a verdict: the answer is 503 or 502, not 401.
 */
export class SignatureChainError extends Error {
  override name = 'SignatureChainError'
  constructor(
    readonly kind: 'unreachable' | 'invalid',
    readonly chain: Pick<ServiceChain, 'chainId' | 'name'>,
    options: { cause: unknown },
  ) {
    const node = `The node of ${chain.name} (chain ${chain.chainId})`
    super(kind === 'unreachable' ? `${node} could not be reached to check the signature` : `${node} gave an answer that could not be used to check the signature`, options)
  }

  get code() {
    return this.kind === 'unreachable' ? 'CHAIN_UNREACHABLE' : 'CHAIN_INVALID_ANSWER'
  }

  /** 503 as the swap routes answer for a node that cannot be reached, 502 for one whose answer is unusable. */
  get status() {
    return this.kind === 'unreachable' ? 503 : 502
  }
}

/**
 * The answer to a signature its chain could not check, naming the chain; the node's own text goes to the log only.
 * @example catch (error) { if (error instanceof SignatureChainError) return answerSignatureChainError(c, error, log) }
 */
export function answerSignatureChainError(c: Context, error: SignatureChainError, log: (line: string) => void) {
  const { cause } = error
  const detail = cause instanceof BaseError ? cause.shortMessage : cause instanceof Error ? cause.message : String(cause)
  log(escapeForLog(`data service: ${c.req.method} ${c.req.path}: ${error.message}: ${detail.slice(0, 500)}`))
  return c.json(errorBody(error.code, `${error.message}: a smart account’s signature is checked on its chain. Try again in a moment.`, 'signature'), error.status)
}


export type CreateEvmSignatureVerifierParameters = {
  /** The chains whose smart accounts can sign: one client each, made here, so no request can add one. */
  chains: readonly ServiceChain[]
  /** Longest wait for a node's answer (one request, no retry). */
  rpcTimeoutMs?: number
  /** The transport to a chain's node; tests put a fault in it. */
  transport?: (chain: ServiceChain) => Transport
}

type NodeFailures = { first?: { kind: SignatureChainError['kind']; cause: unknown } }

/** JSON-RPC errors that say the node did not run the call (rather than that the call reverted). */
const unansweredRpcErrors = [LimitExceededRpcError, ResourceUnavailableRpcError, MethodNotFoundRpcError, MethodNotSupportedRpcError]

/** What a failed request to a node says about the verification, or undefined when it is the call's own revert (a verdict). */
const chainFailureKind = (error: unknown): SignatureChainError['kind'] | undefined => {
  if (!(error instanceof BaseError)) return 'invalid'
  if (error.walk((cause) => cause instanceof TimeoutError || (cause instanceof HttpRequestError && cause.status === undefined && !(cause.cause instanceof SyntaxError)))) return 'unreachable'
  if (error.walk((cause) => unansweredRpcErrors.some((type) => cause instanceof type))) return 'invalid'
  return error.walk((cause) => cause instanceof RpcRequestError) ? undefined : 'invalid'
}

/**
 * Verifies EVM message signatures (EIP-191) the way a sign-in or a name registration needs:
 * 1. an EOA's signature (ecrecover gives the address) is valid at once, offline, whatever the chain;
 * 2. otherwise a chain the service does not know (or none) makes it not valid;
 * 3. otherwise viem's verifyMessage action asks that chain's node, in one eth_call through the ERC-6492 validator:
 *    ERC-6492 for an account not deployed yet, ERC-1271 for a deployed one;
 * 4. the action reads any failed call as "not valid", so the failures of the node's transport during this verification
 *    are recorded (per verification, across its awaits) and turn a "not valid" into a SignatureChainError: a node that
 *    is down or slow is never mistaken for a wrong signature, and never for a valid one.
 * @example const verify = createEvmSignatureVerifier({ chains }); await verify({ chainId: 1, address, message, signature })
 */
export function createEvmSignatureVerifier({
  chains,
  rpcTimeoutMs = 5_000,
  transport = (chain) => http(chain.rpcUrl, { timeout: rpcTimeoutMs, retryCount: 0 }),
}: CreateEvmSignatureVerifierParameters): VerifyEvmSignature {
  /** The first failure of a node's transport during each verification. */
  const verification = new AsyncLocalStorage<NodeFailures>()
  /** The chain's transport, telling the verification it serves about each of its failures. */
  const watched =
    (made: Transport): Transport =>
    (parameters) => {
      const { request, ...rest } = made(parameters)
      const watchedRequest: typeof request = async (args, options) => {
        try {
          return await request(args, options)
        } catch (error) {
          const seen = verification.getStore()
          const kind = chainFailureKind(error)
          if (seen && kind && !seen.first) seen.first = { kind, cause: error }
          throw error
        }
      }
      return { ...rest, request: watchedRequest }
    }
  const clients = new Map(
    chains.map((chain) => {
      const viemChain = defineChain({
        id: chain.chainId,
        name: chain.name,
        nativeCurrency: chain.nativeCurrency,
        rpcUrls: { default: { http: [chain.rpcUrl] } },
        contracts: { multicall3: { address: chain.multicall3 } },
      })
      return [chain.chainId, { chain, client: createPublicClient({ chain: viemChain, transport: watched(transport(chain)) }) }] as const
    }),
  )

  return async ({ chainId, address, message, signature }) => {
    if (!isAddress(address, { strict: false })) return false
    const isEoaSigner = await verifyMessage({ address, message, signature: signature as Hex }).catch(() => false)
    if (isEoaSigner) return true
    const known = chainId === undefined ? undefined : clients.get(chainId)
    if (!known) return false
    const seen: NodeFailures = {}
    // What the action throws itself (a signature it cannot encode, say) is no failure of the node: only `seen` says that.
    const isValid = await verification.run(seen, () => known.client.verifyMessage({ address, message, signature: signature as Hex })).catch(() => false)
    if (isValid) return true
    if (seen.first) throw new SignatureChainError(seen.first.kind, known.chain, { cause: seen.first.cause })
    return false
  }
}

/**
 * EIP-4361 (Sign-In with Ethereum), signed with personal_sign (EIP-191; ERC-1271/6492 for smart accounts, checked by
 * `verifySignature` on the message's chain): exactly the EIP-4361 text of its fields (dates in any RFC 3339 form),
 * version 1, EIP-55 address, chain id from 1 to MAX_CHAIN_ID; the session is for `eip155:{chainId}:{address}`.
 * @example const evm = createEvmSignIn({ verifySignature: createEvmSignatureVerifier({ chains }) })
 */
export const createEvmSignIn = ({ verifySignature }: { verifySignature: VerifyEvmSignature }): SignInFamily => ({
  namespace: 'eip155',
  isFamilyMessage: (message) => firstLineEndsWith(message, ' wants you to sign in with your Ethereum account:'),
  read(message) {
    const fields = parseSiweMessage(message)
    const { address, chainId, domain, nonce, uri, version, issuedAt, notBefore, expirationTime } = fields
    if (!address || !domain || !nonce || !uri || !version || chainId === undefined) return fail('INVALID_INPUT', 'message', 'message: not an EIP-4361 sign-in message')
    if (!issuedAt) return fail('INVALID_INPUT', 'message.issuedAt', 'message.issuedAt: Issued At is required')
    for (const [field, date] of [['issuedAt', issuedAt], ['notBefore', notBefore], ['expirationTime', expirationTime]] as const) {
      if (date && Number.isNaN(date.getTime())) return fail('INVALID_INPUT', `message.${field}`, `message.${field}: not an RFC 3339 date-time`)
    }
    if (version !== '1') return fail('INVALID_INPUT', 'message.version', 'message.version: must be 1')
    if (!isAddress(address, { strict: true })) return fail('INVALID_INPUT', 'message.address', 'message.address: not an EIP-55 checksummed address')
    if (!Number.isSafeInteger(chainId) || chainId < 1 || chainId > MAX_CHAIN_ID) {
      return fail('INVALID_INPUT', 'message.chainId', `message.chainId: must be an integer from 1 to ${MAX_CHAIN_ID}`)
    }
    let canonical: string
    try {
      canonical = createSiweMessage({ ...fields, address, chainId, domain, nonce, uri, version, issuedAt })
    } catch (error) {
      return fail('INVALID_INPUT', 'message', `message: ${(error as { shortMessage?: string }).shortMessage ?? 'not an EIP-4361 sign-in message'}`)
    }
    if (canonical !== withIsoDates(message)) return fail('INVALID_INPUT', 'message', 'message: not exactly an EIP-4361 sign-in message (unexpected or reordered lines)')
    return { ok: true, fields: { address, caipAddress: `eip155:${chainId}:${address}`, domain, scheme: fields.scheme, uri, nonce, issuedAt, notBefore, expirationTime } }
  },
  signature: hexSignature,
  // The session's account is `eip155:{chainId}:{address}`: its chain id says where a smart account lives.
  verify: ({ address, caipAddress, message, signature }) => verifySignature({ chainId: caipAddress ? Number(caipAddress.split(':')[1]) : undefined, address, message, signature }),
})

/** CAIP-2 references (genesis hash, first 32 characters) of the public clusters. */
export const solanaClusterReferences = {
  mainnet: '5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
  devnet: 'EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
  testnet: '4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z',
} as const

/** A base58 ed25519 signature: 64 bytes, 64 to 88 characters. */
export const base58Signature = text({ max: 88, min: 64, pattern: /^[1-9A-HJ-NP-Za-km-z]+$/, patternMessage: 'Expected a base58 signature' }).check(
  z.refine((value) => {
    try {
      return base58.decode(value).length === 64
    } catch {
      return false
    }
  }, 'Expected the base58 of a 64-byte ed25519 signature'),
)

const utf8 = new TextEncoder()

/**
 * Sign In With Solana (see src/shared/families/solana/signInMessage.ts), signed with `solana:signMessage`: an
 * ed25519 signature over the message's UTF-8 bytes, sent in base58, by the address's public key. Chain ID is a SIWS
 * cluster name; the session is for `solana:{CAIP-2 reference}:{address}`, `localnet` mapping to `localnetReference`
 * (refused when the service has none).
 * Verification is RFC 8032 strict (zip215: false): a small-order public key (the all-zero System Program address among
 * them) would otherwise accept a signature anyone can make.
 * @example const solana = createSolanaSignIn({ localnetReference: 'CmpNeggWJ4JaWJeJ8YKN1Zypmk7uvQq3' })
 */
export function createSolanaSignIn({ localnetReference }: { localnetReference?: string | undefined } = {}): SignInFamily {
  const references: Record<SolanaSignInChainId, string | undefined> = {
    ...solanaClusterReferences,
    'solana:mainnet': solanaClusterReferences.mainnet,
    'solana:devnet': solanaClusterReferences.devnet,
    'solana:testnet': solanaClusterReferences.testnet,
    localnet: localnetReference,
  }
  return {
    namespace: 'solana',
    isFamilyMessage: (message) => firstLineEndsWith(message, ' wants you to sign in with your Solana account:'),
    read(message) {
      const parsed = parseSolanaSignInMessage(message)
      if (!parsed.ok) {
        const field = parsed.field === 'message' ? 'message' : `message.${parsed.field}`
        return fail('INVALID_INPUT', field, `${field}: ${parsed.field === 'message' ? `not a Sign-In With Solana message: ${parsed.reason}` : parsed.reason}`)
      }
      const { address, chainId, domain, uri, nonce, issuedAt, notBefore, expirationTime } = parsed.fields
      const reference = references[chainId]
      if (!reference) return fail('INVALID_INPUT', 'message.chainId', `message.chainId: ${chainId} is not a cluster this service knows`)
      return { ok: true, fields: { address, caipAddress: `solana:${reference}:${address}`, domain, uri, nonce, issuedAt, notBefore, expirationTime } }
    },
    signature: base58Signature,
    async verify({ address, message, signature }) {
      try {
        return ed25519.verify(base58.decode(signature), utf8.encode(message), base58.decode(address), { zip215: false })
      } catch {
        return false
      }
    },
  }
}

export type CheckedSignInMessage = { family: SignInFamily; address: string; caipAddress: string; nonce: string; expiresAtMs: number }

export type SignInMessageCheck = ({ ok: true } & CheckedSignInMessage) | Refusal

const originOf = (uri: string) => {
  try {
    return new URL(uri).origin
  } catch {
    return undefined
  }
}

/**
 * Checks a sign-in message against what a session may be made of, before any signature is looked at:
 * 1. its first line names one of `families` (Ethereum, Solana, Bitcoin), and that family reads it (see
 *    SignInFamily.read: exactly the text of its fields, address and chain id of that chain);
 * 2. URI's origin is one of the project's allowed origins, the domain is that origin's host (and scheme, if given,
 *    its scheme), and the page asking, when it says (Origin header), is that origin;
 * 3. Issued At is not in the future beyond the clock skew and not older than maxAgeMs; Not Before has passed;
 *    Expiration Time is ahead;
 * 4. the session expires at Expiration Time, or after defaultLifetimeMs without one, and never after maxLifetimeMs.
 */
export function checkSignInMessage(
  message: string,
  {
    families,
    allowedOrigins,
    requestOrigin,
    nowMs,
    rules = defaultSignInRules,
  }: { families: readonly SignInFamily[]; allowedOrigins: readonly string[]; requestOrigin: string | undefined; nowMs: number; rules?: SignInRules },
): SignInMessageCheck {
  const family = families.find((candidate) => candidate.isFamilyMessage(message))
  if (!family) return fail('INVALID_INPUT', 'message', 'message: not a Sign-In with Ethereum (EIP-4361), Sign In With Solana or Sign in with Bitcoin (CAIP-122) message')
  const read = family.read(message)
  if (!read.ok) return read
  const { address, caipAddress, domain, scheme, uri, nonce, issuedAt, notBefore, expirationTime } = read.fields

  const origin = originOf(uri)
  if (!origin || !allowedOrigins.includes(origin)) {
    return fail('DOMAIN_NOT_ALLOWED', 'message.uri', `message.uri: ${origin ?? uri} is not one of this project's allowed origins`)
  }
  const url = new URL(origin)
  if (domain !== url.host) return fail('DOMAIN_NOT_ALLOWED', 'message.domain', `message.domain: ${domain} is not the host of ${origin}`)
  if (scheme && `${scheme}:` !== url.protocol) return fail('DOMAIN_NOT_ALLOWED', 'message.scheme', `message.scheme: ${scheme} is not the scheme of ${origin}`)
  if (requestOrigin !== undefined && requestOrigin !== origin) {
    return fail('DOMAIN_NOT_ALLOWED', 'origin', `origin: the page ${requestOrigin} asked for a sign-in to ${origin}`)
  }

  if (issuedAt.getTime() > nowMs + rules.clockSkewMs) return fail('NOT_YET_VALID', 'message.issuedAt', 'message.issuedAt: Issued At is in the future')
  if (issuedAt.getTime() < nowMs - rules.maxAgeMs) {
    return fail('STALE_MESSAGE', 'message.issuedAt', `message.issuedAt: the message was issued more than ${rules.maxAgeMs / 60_000} minutes ago: sign a new one`)
  }
  if (notBefore && notBefore.getTime() > nowMs + rules.clockSkewMs) return fail('NOT_YET_VALID', 'message.notBefore', 'message.notBefore: the message is not valid yet')
  if (expirationTime && expirationTime.getTime() <= nowMs) return fail('STALE_MESSAGE', 'message.expirationTime', 'message.expirationTime: the message has expired')
  const expiresAtMs = Math.min(expirationTime?.getTime() ?? nowMs + rules.defaultLifetimeMs, nowMs + rules.maxLifetimeMs)
  return { ok: true, family, address, caipAddress, nonce, expiresAtMs }
}
