import type { Address } from 'viem'
import type { Database } from './db/createDatabase'
import type { LeaderRole } from './db/leaderLock'
import type { OnrampProvider } from './onramp/provider'
import type { OnrampProviderConfig } from './onramp/providers'
import type { HistoryCache } from './routes/historyCache'

export type ServiceToken = { address: Address; name: string; symbol: string; decimals: number; iconUrl?: string }

/**
 * Where a chain's swaps come from (/v1/convert/*): a Uniswap-V2-compatible router and its factory, and the wrapped
 * native currency that routes go through when two tokens have no pool of their own.
 */
export type ServiceSwapConfig = { kind: 'uniswapV2'; /** Shown as the quote's source. */ name: string; router: Address; factory: Address; wrappedNative: Address }

export type ServiceChain = {
  chainId: number
  name: string
  rpcUrl: string
  multicall3: Address
  nativeCurrency: { name: string; symbol: string; decimals: number }
  tokens: readonly ServiceToken[]
  /** Without one, the chain's convert routes answer 'Network not supported for Swaps' (SPEC §8). */
  swap?: ServiceSwapConfig
}

export type WalletEntry = {
  id: string
  name: string
  image_id: string
  rdns: string | null
  chains: string[]
  mobile_link: string | null
  desktop_link: string | null
  webapp_link: string | null
  badge_type?: 'certified' | null
}

export type VerifyEvmSignatureParameters = {
  /** The chain the signed message names; undefined when it names none (then only an EOA's signature can be valid). */
  chainId: number | undefined
  address: string
  message: string
  signature: string
}

/** Whether `signature` (EIP-191) over `message` is `address`'s: see createEvmSignatureVerifier (routes/signInMessage.ts). */
export type VerifyEvmSignature = (parameters: VerifyEvmSignatureParameters) => Promise<boolean>

export type ApiConfig = {
  db: Database
  /** Projects and the browser origins each may call from. */
  projects: readonly { id: string; allowedOrigins: readonly string[] }[]
  chains: readonly ServiceChain[]
  /** USD prices by token symbol. */
  prices?: Readonly<Record<string, number>>
  /** Appended to registered names: alice → alice.tessera.id. */
  nameSuffix?: string
  wallets?: readonly WalletEntry[]
  /** The on-ramp providers (services/api/onramp); none → the spec's sample options and placeholder quote. */
  onramp?: { providers: readonly OnrampProviderConfig[] }
  /**
   * The site's load balancers, by IP address: a request whose peer is one of them is taken to come from the last address
   * its X-Forwarded-For names (the visitor's IP, which an on-ramp provider such as Coinbase asks with a checkout).
   */
  trustedProxies?: readonly string[]
  /** The hosted RPC endpoint (`/v1/?chainId=&projectId=`, routes/rpc.ts); every field has a default (`defaultRpcConfig`). */
  rpc?: Partial<RpcConfig>
  /** Providers made by the caller instead of from `onramp` (tests with a stand-in `fetch`). */
  onrampProviders?: readonly OnrampProvider[]
  now?: () => number
  /**
   * CAIP-2 reference (genesis hash, first 32 characters) of the cluster a Sign In With Solana message means by
   * `Chain ID: localnet`; without one, such messages are refused.
   * @example 'CmpNeggWJ4JaWJeJ8YKN1Zypmk7uvQq3'
   */
  solanaLocalnetReference?: string
  /** Bounds on what a client can make the service hold; every one has a default (see `defaultLimits`). */
  limits?: Partial<ApiLimits>
  /** Where the service writes its error lines (default console.error); every line goes through `escapeForLog`. */
  log?: (line: string) => void
  /**
   * The history pages answered lately, which the indexers and name registrations invalidate: pass the same one to
   * them (startApiServer does). Without one, createApiApp makes its own.
   */
  historyCache?: HistoryCache
  /**
   * Checks the EVM signatures of sign-ins and name registrations: an EOA's offline, a smart account's (ERC-6492,
   * ERC-1271) on the chain the message names, one of `chains`. Without one, createApiApp makes its own
   * (createEvmSignatureVerifier: one client per chain, shared by both routes).
   */
  evmSignatureVerifier?: VerifyEvmSignature
  /** What startApiServer tells the app about the running instance, for `/health` and `/ready`. */
  instance?: ApiInstanceState
}

/** The running instance as its health and readiness answers show it. */
export type ApiInstanceState = {
  /** Whether it indexes (`leader`) or another instance does (`follower`); undefined when there is no chain to index. */
  readonly indexerRole: LeaderRole | undefined
  /** True once it is shutting down: `/ready` answers 503 so a load balancer sends it nothing new. */
  readonly isDraining: boolean
}

/** A chain the hosted RPC endpoint serves, and its upstream nodes: the first is asked first while it answers. */
export type RpcChain = { chainId: number; upstreams: readonly string[] }

/** The hosted RPC endpoint (SPEC §7): which chains it serves, how much a project may ask, how long a node may take. */
export type RpcConfig = {
  /** The chains served; by default each of `chains`, forwarded to its `rpcUrl`. */
  chains?: readonly RpcChain[]
  /** HTTP requests a project may make per minute, a batch counting once, counted by every instance together. */
  requestsPerMinute: number
  /** Largest request body; a batch may also hold at most 1,000 calls (SPEC §7). */
  bodyBytes: number
  /** Final answers kept (chain ids, blocks and receipts by hash), least recently used dropped first: entries and bytes. */
  cacheEntries: number
  cacheBytes: number
  /** One node's time to answer a call before the next is asked, and the call's whole budget across nodes and rounds. */
  attemptTimeoutMs: number
  callTimeoutMs: number
}

/** The hosted RPC endpoint's bounds when the configuration sets none. */
export const defaultRpcConfig: Omit<RpcConfig, 'chains'> = {
  requestsPerMinute: 6_000,
  bodyBytes: 1_048_576,
  cacheEntries: 10_000,
  cacheBytes: 8 * 1_024 * 1_024,
  attemptTimeoutMs: 5_000,
  callTimeoutMs: 15_000,
}

export type ApiLimits = {
  /** Largest request body, with or without Content-Length; a larger one gets 413. */
  bodyBytes: number
  /** Balances kept for the 30 s cache, least recently used dropped first. */
  balanceCacheEntries: number
  /** UTF-8 bytes of history pages kept for the 1 s cache, least recently used dropped first. */
  historyCacheBytes: number
  /** Analytics events kept per project; past it the oldest go (checked every `analyticsPruneEvery` events). */
  analyticsEventsPerProject: number
  analyticsPruneEvery: number
  /** Analytics events older than this go too. */
  analyticsRetentionMs: number
  /** A client has this long to send its headers, and the whole request; then its socket is closed. */
  headersTimeoutMs: number
  requestTimeoutMs: number
  /** Open connections at once; past it new ones are closed at once. */
  maxConnections: number
}

export const defaultLimits: ApiLimits = {
  bodyBytes: 64 * 1024,
  balanceCacheEntries: 10_000,
  historyCacheBytes: 4 * 1_024 * 1_024,
  analyticsEventsPerProject: 100_000,
  analyticsPruneEvery: 100,
  analyticsRetentionMs: 90 * 24 * 3_600_000,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  maxConnections: 1_024,
}

/** The configured limits, defaults filled in. */
export const resolveLimits = (limits: Partial<ApiLimits> = {}): ApiLimits => ({ ...defaultLimits, ...limits })

/** An error body naming what was wrong: the widget reads `reasons[0].description` for name-service errors. */
export const errorBody = (code: string, message: string, field?: string) => ({
  error: { code, message, ...(field ? { field } : {}), reasons: [{ description: message }] },
})

/** The variable of the local stack (`npm start`) that adds origins to its project, comma-separated. */
export const ALLOWED_ORIGINS_VARIABLE = 'TESSERA_ALLOWED_ORIGINS'

/** A page of an origin the project does not list: the refusal names both ways out. */
export const originNotAllowed = (origin: string, projectId: string) => {
  const shown = origin.length > 200 ? `${origin.slice(0, 200)}…` : origin
  return errorBody(
    'ORIGIN_NOT_ALLOWED',
    `Origin ${shown} is not on the allowlist of project ${projectId}. Add it to the project's allowedOrigins, or with the local stack (npm start) set ${ALLOWED_ORIGINS_VARIABLE}=${shown} (comma-separated for several) and start it again.`,
    'origin',
  )
}

/**
 * Text made safe for a one-line log: control characters (newlines, carriage returns, ESC and the rest of C0 and C1),
 * the Unicode line separators and lone surrogates become visible escapes, so request-derived text cannot forge lines.
 * @example escapeForLog('GET /a\nFAKE') // 'GET /a\\nFAKE'
 */
export const escapeForLog = (text: string) =>
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\\]|\p{Cs}/gu, (char) => {
    const named: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t', '\\': '\\\\' }
    return named[char] ?? `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`
  })
