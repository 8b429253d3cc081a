import { decodeSs58, describeSs58Prefix, GENERIC_SS58_PREFIX, getPolkadotNetwork } from '../addresses/polkadot'
import { createWidgetError } from '../errors'

/**
 * The fields of a CAIP-122 sign-in message on polkadot ("Sign in with Polkadot"), named as EIP-4361 names them. URI,
 * Version, Chain ID, Nonce and Issued At are required: a sign-in without them cannot be bound to a site, a chain, a
 * nonce or a time.
 */
export type PolkadotSignInMessageFields = {
  /** The authority (host, and port if any) asking for the sign-in. */
  domain: string
  /** The SS58 address signing in, in the chain's format (or the generic one, 42). */
  address: string
  /** One line for the person signing; no line breaks. */
  statement?: string | undefined
  uri: string
  version: '1'
  /** The CAIP-2 reference of the chain: the first 32 hex characters of its genesis hash. */
  chainId: string
  /** At least 8 letters and digits. */
  nonce: string
  issuedAt: Date
  expirationTime?: Date | undefined
  notBefore?: Date | undefined
  requestId?: string | undefined
  resources?: readonly string[] | undefined
}

export type PolkadotSignInMessageField = keyof PolkadotSignInMessageFields

export type ParsePolkadotSignInMessageReturnType =
  | { ok: true; fields: PolkadotSignInMessageFields }
  | { ok: false; field: PolkadotSignInMessageField | 'message'; reason: string }

/** What the first line ends with, after the domain. */
export const POLKADOT_SIGN_IN_HEADER = ' wants you to sign in with your Polkadot account:'
// Control characters (line breaks among them), Unicode line separators and lone surrogates: none may be in a field.
const UNSAFE_CHARACTER = /[\p{Cc}\p{Cs}\u2028\u2029]/u
// host [":" port], without userinfo: a reg-name, an IPv4 address or an IP-literal.
const AUTHORITY = /^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/
const NONCE = /^[A-Za-z0-9]{8,}$/
const CHAIN_REFERENCE = /^[0-9a-f]{32}$/
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

/** Why `address` cannot sign in on the chain `chainId` (a CAIP-2 reference), or undefined when it can. */
function findAddressProblem(address: unknown, chainId: string): string | undefined {
  const decoded = typeof address === 'string' ? decodeSs58(address) : undefined
  if (!decoded) return 'must be an SS58 account address'
  const network = getPolkadotNetwork(`polkadot:${chainId}`)
  if (network && decoded.prefix !== network.ss58Prefix && decoded.prefix !== GENERIC_SS58_PREFIX) {
    return `is a ${describeSs58Prefix(decoded.prefix)} address, not a ${network.name} one`
  }
  return undefined
}

/** The first field that cannot be written as a polkadot sign-in message line, and why; undefined when all can. */
function findProblem(fields: PolkadotSignInMessageFields): { field: PolkadotSignInMessageField; reason: string } | undefined {
  const { domain, address, statement, uri, version, chainId, nonce, requestId, resources } = fields
  if (typeof domain !== 'string' || !AUTHORITY.test(domain)) return { field: 'domain', reason: 'must be a host, with a port if any' }
  if (typeof chainId !== 'string' || !CHAIN_REFERENCE.test(chainId)) return { field: 'chainId', reason: 'must be the 32 lower-case hex characters of a CAIP-2 polkadot reference (the start of its genesis hash)' }
  const addressProblem = findAddressProblem(address, chainId)
  if (addressProblem) return { field: 'address', reason: addressProblem }
  if (statement !== undefined && (typeof statement !== 'string' || !isLine(statement))) return { field: 'statement', reason: 'must be one non-empty line without control characters' }
  if (typeof uri !== 'string' || !isUri(uri)) return { field: 'uri', reason: 'must be an absolute URI' }
  if (version !== '1') return { field: 'version', reason: 'must be 1' }
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
 * Writes a CAIP-122 sign-in message for a Polkadot account: EIP-4361's layout (a blank line for a missing statement
 * too) with "Polkadot" in the header and the chain's CAIP-2 reference as Chain ID; the extension signs its text with
 * signRaw (`bytes`: wrapped in <Bytes>…</Bytes>), sr25519, ed25519 or ecdsa. Refuses an address of another known
 * network than the chain's.
 * Throws a WidgetError `INVALID_MESSAGE` naming the `field` that cannot be written.
 * @example
 * createPolkadotSignInMessage({ domain: 'dapp.test', address: '15oF4…Sp5', uri: 'https://dapp.test', version: '1', chainId: '91b171bb158e2d3848fa23a9f1c25182', nonce, issuedAt: new Date() })
 */
export function createPolkadotSignInMessage(fields: PolkadotSignInMessageFields): string {
  const problem = findProblem(fields)
  if (problem) throw createWidgetError('INVALID_MESSAGE', { field: problem.field, details: `${problem.field}: ${problem.reason}` })
  const { domain, address, statement, uri, version, chainId, nonce, issuedAt, expirationTime, notBefore, requestId, resources } = fields
  const lines = [`URI: ${uri}`, `Version: ${version}`, `Chain ID: ${chainId}`, `Nonce: ${nonce}`, `Issued At: ${issuedAt.toISOString()}`]
  if (expirationTime) lines.push(`Expiration Time: ${expirationTime.toISOString()}`)
  if (notBefore) lines.push(`Not Before: ${notBefore.toISOString()}`)
  if (requestId !== undefined) lines.push(`Request ID: ${requestId}`)
  if (resources) lines.push('Resources:', ...resources.map((resource) => `- ${resource}`))
  return `${domain}${POLKADOT_SIGN_IN_HEADER}\n${address}\n\n${statement === undefined ? '' : `${statement}\n`}\n${lines.join('\n')}`
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
 * Reads a polkadot sign-in message into its fields, and refuses any text that is not exactly what
 * {@link createPolkadotSignInMessage} writes for them: no line before, after or between the fields, none reordered,
 * dates as `toISOString()` writes them, no trailing newline, no CR. Says which field is wrong (or `message`).
 * 1. header line `<domain> wants you to sign in with your Polkadot account:`, then the address, then a blank line;
 * 2. a statement line, or none, then a blank line (EIP-4361: the blank line stays when the statement is left out);
 * 3. the field lines in EIP-4361's order, URI to Issued At required, then `Resources:` and its `- ` lines;
 * 4. every field checked (the address of the Chain ID's network), the message written again and compared with the text.
 * @example const parsed = parsePolkadotSignInMessage(text); if (parsed.ok) parsed.fields.nonce
 */
export function parsePolkadotSignInMessage(text: string): ParsePolkadotSignInMessageReturnType {
  const refuse = (field: PolkadotSignInMessageField | 'message', reason: string) => ({ ok: false, field, reason }) as const
  if (typeof text !== 'string') return refuse('message', 'must be text')
  if (/[\p{Cs}\r]/u.test(text)) return refuse('message', 'must not contain carriage returns or lone surrogates')
  const lines = text.split('\n')
  const header = lines[0]!
  if (!header.endsWith(POLKADOT_SIGN_IN_HEADER)) return refuse('message', `must begin with "<domain>${POLKADOT_SIGN_IN_HEADER}"`)
  if (lines[2] !== '') return refuse('message', 'must have the address on the second line and a blank line after it')
  // 2. Address, '', statement or '', '', URI…: line 4 (index 3) is the statement when it is not blank.
  const hasStatement = lines[3] !== undefined && lines[3] !== ''
  if (lines[4] !== '' && hasStatement) return refuse('statement', 'must be one line followed by a blank line')
  const raw: Record<string, string> = {}
  let next = hasStatement ? 5 : 4
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
  const fields: PolkadotSignInMessageFields = {
    domain: header.slice(0, -POLKADOT_SIGN_IN_HEADER.length),
    address: lines[1] ?? '',
    statement: hasStatement ? lines[3] : undefined,
    uri: raw.uri!,
    version: raw.version as '1',
    chainId: raw.chainId!,
    nonce: raw.nonce!,
    issuedAt: dates.issuedAt!,
    expirationTime: dates.expirationTime,
    notBefore: dates.notBefore,
    requestId: raw.requestId,
    resources,
  }
  for (const key of Object.keys(fields) as PolkadotSignInMessageField[]) if (fields[key] === undefined) delete fields[key]
  const problem = findProblem(fields)
  if (problem) return refuse(problem.field, problem.reason)
  if (createPolkadotSignInMessage(fields) !== text) return refuse('message', 'not exactly the sign-in text of its fields')
  return { ok: true, fields }
}
