import type { Address } from 'viem'
import { EMAIL_LOGIN_COOLDOWN_MS, SECURE_FRAME_REQUEST_TIMEOUT_MS } from '../../src/shared/protocol/constants'
import { socialProviderSchema } from '../../src/shared/protocol/schemas/entities'
import type { Database } from '../api/db/createDatabase'
import type { Mailer } from './mailer'

/** The providers signed in with by OpenID Connect (SPEC §5); Farcaster has a flow of its own. */
export const socialProviderNames = socialProviderSchema.options
export type SocialProviderName = (typeof socialProviderNames)[number]

/** How a login came about: an e-mail code, one of the social providers, or Farcaster. */
export type AuthProvider = 'email' | SocialProviderName | 'farcaster'

/** Names as people know them, for sentences like 'Sign-in with {provider} failed'. */
export const providerTitles: Record<SocialProviderName | 'farcaster', string> = {
  google: 'Google',
  github: 'GitHub',
  apple: 'Apple',
  facebook: 'Facebook',
  x: 'X',
  discord: 'Discord',
  farcaster: 'Farcaster',
}

/** One OpenID Connect provider: any issuer with discovery, the authorization code flow, PKCE (S256) and an id_token. */
export type SocialProviderConfig = {
  /** The issuer; its `/.well-known/openid-configuration` is read once and kept for an hour. */
  issuer: string
  clientId: string
  /** With a secret the client authenticates at the token endpoint (client_secret_basic); without, it is public (PKCE only). */
  clientSecret?: string
  /** Default `openid email profile`. */
  scopes?: readonly string[]
  /** `form_post` for providers that POST the answer to the callback (Apple when asking for e-mail or name). */
  responseMode?: 'query' | 'form_post'
}

/** Who holds a Farcaster id: the custody address the Sign In With Farcaster message must be signed by. */
export type FarcasterCustody =
  /** Fixed fid → address pairs (local development and tests). */
  | { kind: 'static'; accounts: Readonly<Record<string, Address>> }
  /** The Farcaster IdRegistry on OP Mainnet (`custodyOf(fid)`), read through an RPC. */
  | { kind: 'idRegistry'; rpcUrl: string; address?: Address }

export type FarcasterConfig = {
  /** A Farcaster Auth relay: https://relay.farcaster.xyz, or the local one of services/oidc. */
  relayUrl: string
  /** The domain every message must be bound to (EIP-4361 `domain`), e.g. the frame's host. */
  domain: string
  /** The URI every message must name (EIP-4361 `URI`). */
  siweUri: string
  custody: FarcasterCustody
}

export type AuthLimits = {
  /** Largest request body, announced or not (413 past it). */
  bodyBytes: number
  /** One-time codes and device approval links expire after this (10 min). */
  codeTtlMs: number
  /** Wrong codes allowed per code, the right one included; then the code is dead. */
  codeMaxAttempts: number
  /** The spec's throttle: one code e-mail per address per 30 s ('Please try again after {n} seconds'). */
  resendCooldownMs: number
  /** The rate allowance checked first: code e-mails per address and per IP, per window. */
  emailSendsPerAddress: number
  emailSendsPerIp: number
  emailSendWindowMs: number
  /** Code checks per IP per window (any flow). */
  verifyAttemptsPerIp: number
  verifyWindowMs: number
  /** Social and Farcaster sign-ins started per IP per window. */
  loginStartsPerIp: number
  loginStartWindowMs: number
  /**
   * Requests per IP per minute, any route, counted by every instance together (a window per minute in the database),
   * after a token bucket of the same size in each instance's memory that spares the database a flood.
   */
  requestsPerIpPerMinute: number
  /** IPs each instance's token bucket remembers; past it the least recent go. */
  rateLimiterEntries: number
  /** A session's lifetime from login. */
  sessionTtlMs: number
  /** Live sessions per user; past it the oldest end. */
  sessionsPerUser: number
  /** Largest auth share, in bytes once decoded from base64url. */
  authShareBytes: number
  /** Social and Farcaster sign-ins must finish within this. */
  loginFlowTtlMs: number
  /** A long poll (device approval, Farcaster) answers within this: under the frame's 30 s request timeout. */
  longPollMs: number
  pollIntervalMs: number
  /** Long polls open at once; past it a poll answers at once with the current state. */
  maxWaiters: number
  /** Calls to providers, the relay and the mail server give up after this. */
  outboundTimeoutMs: number
  /** Expired rows are deleted this often. */
  pruneIntervalMs: number
  headersTimeoutMs: number
  requestTimeoutMs: number
  maxConnections: number
}

export const defaultAuthLimits: AuthLimits = {
  bodyBytes: 16 * 1024,
  codeTtlMs: 10 * 60_000,
  codeMaxAttempts: 5,
  resendCooldownMs: EMAIL_LOGIN_COOLDOWN_MS,
  emailSendsPerAddress: 10,
  emailSendsPerIp: 50,
  emailSendWindowMs: 3_600_000,
  verifyAttemptsPerIp: 100,
  verifyWindowMs: 10 * 60_000,
  loginStartsPerIp: 60,
  loginStartWindowMs: 10 * 60_000,
  requestsPerIpPerMinute: 600,
  rateLimiterEntries: 10_000,
  sessionTtlMs: 30 * 24 * 3_600_000,
  sessionsPerUser: 20,
  authShareBytes: 8 * 1024,
  loginFlowTtlMs: 10 * 60_000,
  longPollMs: SECURE_FRAME_REQUEST_TIMEOUT_MS - 5_000,
  pollIntervalMs: 500,
  maxWaiters: 500,
  outboundTimeoutMs: 10_000,
  pruneIntervalMs: 10 * 60_000,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 60_000,
  maxConnections: 1_024,
}

export type AuthConfig = {
  /** The data service's database: the auth tables are all named auth_…. */
  db: Database
  /** How browsers and providers reach this service: links in e-mails and the OpenID callback are under it. */
  publicUrl: string
  /** The secure frame's exact origins: the only pages that may call the API (CORS), and the origins sessions are bound to. */
  frameOrigins: readonly string[]
  /** Project ids sessions may be opened for. */
  projects: readonly string[]
  mailer: Mailer
  social?: Partial<Record<SocialProviderName, SocialProviderConfig>>
  farcaster?: FarcasterConfig
  /** Key for hashing one-time codes at rest (TESSERA_AUTH_SECRET); without one, a random key kept in the database. */
  secret?: string
  /** Behind a reverse proxy: the client IP is the last X-Forwarded-For entry. */
  trustProxy?: boolean
  limits?: Partial<AuthLimits>
  /** TEST-ONLY: mounts routes/testing.ts (codes made to expire now), for the local stack's end-to-end tests. Never deployed. */
  testRoutes?: boolean
  now?: () => number
  /** Error lines (default console.error); each goes through escapeForLog. */
  log?: (line: string) => void
  /** What startAuthServer tells the app about the running instance: once it drains, `/ready` answers 503 and long polls end. */
  instance?: { readonly isDraining: boolean }
}

export const resolveAuthLimits = (limits: Partial<AuthLimits> = {}): AuthLimits => ({ ...defaultAuthLimits, ...limits })

/** The OpenID redirect URI this service registers with every provider. */
export const socialCallbackUrl = (publicUrl: string) => `${publicUrl.replace(/\/$/, '')}/v1/social/callback`
