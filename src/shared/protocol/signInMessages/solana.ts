import { isSolanaAddress } from '../addresses/solana'
import { createWidgetError } from '../errors'

/**
 * Chain IDs a Sign-In With Solana message may name: the cluster names of the SIWS spec's ABNF
 * (`message-chain-id`, https://github.com/phantom/sign-in-with-solana#abnf-message-format), not CAIP-2 references.
 */
export const solanaSignInChainIds = ['mainnet', 'testnet', 'devnet', 'localnet', 'solana:mainnet', 'solana:testnet', 'solana:devnet'] as const
export type SolanaSignInChainId = (typeof solanaSignInChainIds)[number]

/**
 * The fields of a Sign-In With Solana message, named as `SolanaSignInInput` of `@solana/wallet-standard-features`
 * names them. URI, Version, Chain ID, Nonce and Issued At are optional in SIWS but required here, as in EIP-4361:
 * a sign-in without them cannot be bound to a site, a nonce or a time.
 */
export type SolanaSignInMessageFields = {
  /** The authority (host, and port if any) asking for the sign-in. */
  domain: string
  /** The base58 Solana address signing in. */
  address: string
  /** One line for the person signing; no line breaks. */
  statement?: string | undefined
  uri: string
  version: '1'
  chainId: SolanaSignInChainId
  /** At least 8 letters and digits. */
  nonce: string
  issuedAt: Date
  expirationTime?: Date | undefined
  notBefore?: Date | undefined
  requestId?: string | undefined
  resources?: readonly string[] | undefined
}

export type SolanaSignInMessageField = keyof SolanaSignInMessageFields

export type ParseSolanaSignInMessageReturnType =
  | { ok: true; fields: SolanaSignInMessageFields }
  | { ok: false; field: SolanaSignInMessageField | 'message'; reason: string }

const HEADER = ' wants you to sign in with your Solana account:'
// Control characters (line breaks among them), Unicode line separators and lone surrogates: none may be in a field.
const UNSAFE_CHARACTER = /[\p{Cc}\p{Cs}\u2028\u2029]/u
// host [":" port], without userinfo: a reg-name, an IPv4 address or an IP-literal.
const AUTHORITY = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/
const NONCE = /^[A-Za-z0-9]{8,}$/
// RFC 3986 pchar: unreserved / pct-encoded / sub-delims / ":" / "@".
const REQUEST_ID = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@]|%[0-9A-Fa-f]{2})+$/
const ISO_DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

const isLine = (value: string) => value.length > 0 && !UNSAFE_CHARACTER.test(value)
const isUri = (value: string) => {
  if (!isLine(value) || /\s/.test(value)) return false
  try {
    new URL(value)
    return true
  } catch {
    return false
  }
}
const isIsoDate = (date: Date) => date instanceof Date && !Number.isNaN(date.getTime()) && ISO_DATE.test(date.toISOString())

/** The first field that cannot be written as a Sign-In With Solana message line, and why; undefined when all can. */
function findProblem(fields: SolanaSignInMessageFields): { field: SolanaSignInMessageField; reason: string } | undefined {
  const { domain, address, statement, uri, version, chainId, nonce, requestId, resources } = fields
  if (typeof domain !== 'string' || !AUTHORITY.test(domain)) return { field: 'domain', reason: 'must be a host, with a port if any' }
  if (typeof address !== 'string' || !isSolanaAddress(address)) return { field: 'address', reason: 'must be a base58 Solana address of 32 bytes' }
  if (statement !== undefined && (typeof statement !== 'string' || !isLine(statement))) return { field: 'statement', reason: 'must be one non-empty line without control characters' }
  if (typeof uri !== 'string' || !isUri(uri)) return { field: 'uri', reason: 'must be an absolute URI' }
  if (version !== '1') return { field: 'version', reason: 'must be 1' }
  if (!solanaSignInChainIds.includes(chainId)) return { field: 'chainId', reason: `must be one of ${solanaSignInChainIds.join(', ')}` }
  if (typeof nonce !== 'string' || !NONCE.test(nonce)) return { field: 'nonce', reason: 'must be at least 8 letters and digits' }
  for (const field of ['issuedAt', 'expirationTime', 'notBefore'] as const) {
    const date = fields[field]
    if ((field === 'issuedAt' || date !== undefined) && !isIsoDate(date!)) return { field, reason: 'must be a date from year 0 to 9999' }
  }
  if (requestId !== undefined && (typeof requestId !== 'string' || !REQUEST_ID.test(requestId))) return { field: 'requestId', reason: 'must be URI path characters (RFC 3986 pchar), not empty' }
  if (resources !== undefined && (!Array.isArray(resources) || !resources.every((resource) => typeof resource === 'string' && isUri(resource)))) {
    return { field: 'resources', reason: 'must be absolute URIs' }
  }
  return undefined
}

/**
 * Writes a Sign-In With Solana message (the SIWS ABNF: EIP-4361's layout with "Solana" in the header and no blank
 * line where a statement is left out); the wallet signs its UTF-8 bytes with `solana:signMessage`.
 * Throws a WidgetError `INVALID_MESSAGE` naming the `field` that cannot be written.
 * @example
 * createSolanaSignInMessage({ domain: 'dapp.test', address, uri: 'https://dapp.test', version: '1', chainId: 'mainnet', nonce, issuedAt: new Date() })
 */
export function createSolanaSignInMessage(fields: SolanaSignInMessageFields): string {
  const problem = findProblem(fields)
  if (problem) throw createWidgetError('INVALID_MESSAGE', { field: problem.field, details: `${problem.field}: ${problem.reason}` })
  const { domain, address, statement, uri, version, chainId, nonce, issuedAt, expirationTime, notBefore, requestId, resources } = fields
  const lines = [`URI: ${uri}`, `Version: ${version}`, `Chain ID: ${chainId}`, `Nonce: ${nonce}`, `Issued At: ${issuedAt.toISOString()}`]
  if (expirationTime) lines.push(`Expiration Time: ${expirationTime.toISOString()}`)
  if (notBefore) lines.push(`Not Before: ${notBefore.toISOString()}`)
  if (requestId !== undefined) lines.push(`Request ID: ${requestId}`)
  if (resources) lines.push('Resources:', ...resources.map((resource) => `- ${resource}`))
  return `${domain}${HEADER}\n${address}\n\n${statement === undefined ? '' : `${statement}\n\n`}${lines.join('\n')}`
}

const labels = [
  ['uri', 'URI'],
  ['version', 'Version'],
  ['chainId', 'Chain ID'],
  ['nonce', 'Nonce'],
  ['issuedAt', 'Issued At'],
  ['expirationTime', 'Expiration Time'],
  ['notBefore', 'Not Before'],
  ['requestId', 'Request ID'],
] as const
const requiredLabels = 5

/**
 * Reads a Sign-In With Solana message into its fields, and refuses any text that is not exactly what
 * {@link createSolanaSignInMessage} writes for them: no line before, after or between the fields, none reordered,
 * dates as `toISOString()` writes them, no trailing newline, no CR. Says which field is wrong (or `message`).
 * 1. header line `<domain> wants you to sign in with your Solana account:`, then the address, then a blank line;
 * 2. a statement and a blank line when the line after the next is blank (no field line is ever blank);
 * 3. the field lines in the ABNF's order, URI to Issued At required, then `Resources:` and its `- ` lines;
 * 4. every field checked, the message written again from them and compared with the text.
 * @example const parsed = parseSolanaSignInMessage(text); if (parsed.ok) parsed.fields.nonce
 */
export function parseSolanaSignInMessage(text: string): ParseSolanaSignInMessageReturnType {
  const refuse = (field: SolanaSignInMessageField | 'message', reason: string) => ({ ok: false, field, reason }) as const
  if (typeof text !== 'string') return refuse('message', 'must be text')
  if (/[\p{Cs}\r]/u.test(text)) return refuse('message', 'must not contain carriage returns or lone surrogates')
  const lines = text.split('\n')
  const header = lines[0]!
  if (!header.endsWith(HEADER)) return refuse('message', `must begin with "<domain>${HEADER}"`)
  if (lines[2] !== '') return refuse('message', 'must have the address on the second line and a blank line after it')
  // 2. With a statement: address, '', statement, '', URI… ; without one: address, '', URI, Version… (never blank).
  const hasStatement = lines[4] === ''
  const raw: Record<string, string> = {}
  let next = hasStatement ? 5 : 3
  for (const [index, [field, label]] of labels.entries()) {
    const line = lines[next]
    if (line?.startsWith(`${label}: `)) {
      raw[field] = line.slice(label.length + 2)
      next += 1
    } else if (index < requiredLabels) {
      return refuse(field, `the ${label} line is missing or out of place`)
    }
  }
  let resources: string[] | undefined
  if (lines[next] === 'Resources:') {
    resources = []
    for (next += 1; lines[next]?.startsWith('- '); next += 1) resources.push(lines[next]!.slice(2))
  }
  if (next < lines.length) return refuse('message', `unexpected line ${next + 1}`)

  const dates: Partial<Record<'issuedAt' | 'expirationTime' | 'notBefore', Date>> = {}
  for (const field of ['issuedAt', 'expirationTime', 'notBefore'] as const) {
    const value = raw[field]
    if (value === undefined) continue
    const date = new Date(value)
    if (!ISO_DATE.test(value) || Number.isNaN(date.getTime()) || date.toISOString() !== value) return refuse(field, 'must be a UTC date-time as toISOString writes it (2026-01-31T12:00:00.000Z)')
    dates[field] = date
  }
  const fields: SolanaSignInMessageFields = {
    domain: header.slice(0, -HEADER.length),
    address: lines[1] ?? '',
    statement: hasStatement ? lines[3] : undefined,
    uri: raw.uri!,
    version: raw.version as '1',
    chainId: raw.chainId as SolanaSignInChainId,
    nonce: raw.nonce!,
    issuedAt: dates.issuedAt!,
    expirationTime: dates.expirationTime,
    notBefore: dates.notBefore,
    requestId: raw.requestId,
    resources,
  }
  for (const key of Object.keys(fields) as SolanaSignInMessageField[]) if (fields[key] === undefined) delete fields[key]
  const problem = findProblem(fields)
  if (problem) return refuse(problem.field, problem.reason)
  if (createSolanaSignInMessage(fields) !== text) return refuse('message', 'not exactly the Sign-In With Solana text of its fields')
  return { ok: true, fields }
}
