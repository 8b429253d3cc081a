import { createWidgetError } from '../errors'

/**
 * The fields of a CAIP-122 sign-in message, named as EIP-4361 names them. URI, Version, Chain ID, Nonce and Issued At
 * are required (SIWS leaves them optional): a sign-in without them cannot be bound to a site, a chain, a nonce or a
 * time.
 */
export type Caip122MessageFields<ChainId extends string = string> = {
  /** The authority (host, and port if any) asking for the sign-in. */
  domain: string
  /** The account signing in, written as its family writes addresses. */
  address: string
  /** One line for the person signing; no line breaks. */
  statement?: string | undefined
  uri: string
  version: '1'
  /** The chain, as the family names it on the Chain ID line. */
  chainId: ChainId
  /** At least 8 letters and digits. */
  nonce: string
  issuedAt: Date
  expirationTime?: Date | undefined
  notBefore?: Date | undefined
  requestId?: string | undefined
  resources?: readonly string[] | undefined
}

export type Caip122MessageField = keyof Caip122MessageFields

export type ParseCaip122MessageReturnType<ChainId extends string = string> =
  | { ok: true; fields: Caip122MessageFields<ChainId> }
  | { ok: false; field: Caip122MessageField | 'message'; reason: string }

export type Caip122FormatParameters<ChainId extends string> = {
  /** The family's word in the header: `Bitcoin` makes `<domain> wants you to sign in with your Bitcoin account:`. */
  accountName: string
  /**
   * Where a statement is left out, `eip4361` (CAIP-122's own layout) keeps its line blank and `siws` (Sign-In With
   * Solana's ABNF) drops it.
   */
  layout?: 'eip4361' | 'siws'
  /** Whether a Chain ID line names a chain the family can write. */
  isChainId: (value: string) => value is ChainId
  /** Why a Chain ID that `isChainId` refuses is wrong. */
  chainIdReason: string
  /** Why `address` cannot sign in on `chainId` (already a valid one), or undefined when it can. */
  addressProblem: (address: unknown, chainId: ChainId) => string | undefined
  /** What a refusal calls the text when it is not exactly that of its fields. */
  messageName?: string
}

export type Caip122Format<ChainId extends string = string> = {
  /** What the first line ends with, after the domain. */
  header: string
  /** Writes the message; throws a WidgetError `INVALID_MESSAGE` naming the `field` that cannot be written. */
  create: (fields: Caip122MessageFields<ChainId>) => string
  /** Reads a message into its fields, refusing any text that `create` would not write for them exactly. */
  parse: (text: string) => ParseCaip122MessageReturnType<ChainId>
}

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

const GENESIS_REFERENCE = /^[0-9a-f]{32}$/

/** Whether `value` is a CAIP-2 reference made of a genesis hash's first 32 hex characters, in lower case (bip122, polkadot). */
export const isGenesisReference = (value: string): value is string => GENESIS_REFERENCE.test(value)

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
 * Makes one family's sign-in message codec: CAIP-122's text (EIP-4361's layout with the family's word in the header,
 * or the SIWS variant of it) and the checks every family shares, around the family's own Chain ID and address rules.
 * @example
 * const format = createCaip122Format({ accountName: 'Bitcoin', isChainId: isGenesisReference, chainIdReason: 'must be …', addressProblem })
 * format.parse(format.create(fields))
 */
export function createCaip122Format<ChainId extends string>(parameters: Caip122FormatParameters<ChainId>): Caip122Format<ChainId> {
  const { accountName, layout = 'eip4361', isChainId, chainIdReason, addressProblem, messageName = 'sign-in' } = parameters
  const header = ` wants you to sign in with your ${accountName} account:`
  type Fields = Caip122MessageFields<ChainId>

  /** The first field that cannot be written as a message line, and why; undefined when all can. */
  function findProblem(fields: Fields): { field: Caip122MessageField; reason: string } | undefined {
    const { domain, address, statement, uri, version, chainId, nonce, requestId, resources } = fields
    if (typeof domain !== 'string' || !AUTHORITY.test(domain)) return { field: 'domain', reason: 'must be a host, with a port if any' }
    if (typeof chainId !== 'string' || !isChainId(chainId)) return { field: 'chainId', reason: chainIdReason }
    const addressReason = addressProblem(address, chainId)
    if (addressReason) return { field: 'address', reason: addressReason }
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

  function create(fields: Fields): string {
    const problem = findProblem(fields)
    if (problem) throw createWidgetError('INVALID_MESSAGE', { field: problem.field, details: `${problem.field}: ${problem.reason}` })
    const { domain, address, statement, uri, version, chainId, nonce, issuedAt, expirationTime, notBefore, requestId, resources } = fields
    const lines = [`URI: ${uri}`, `Version: ${version}`, `Chain ID: ${chainId}`, `Nonce: ${nonce}`, `Issued At: ${issuedAt.toISOString()}`]
    if (expirationTime) lines.push(`Expiration Time: ${expirationTime.toISOString()}`)
    if (notBefore) lines.push(`Not Before: ${notBefore.toISOString()}`)
    if (requestId !== undefined) lines.push(`Request ID: ${requestId}`)
    if (resources) lines.push('Resources:', ...resources.map((resource) => `- ${resource}`))
    const statementLines = statement !== undefined ? `${statement}\n\n` : layout === 'eip4361' ? '\n' : ''
    return `${domain}${header}\n${address}\n\n${statementLines}${lines.join('\n')}`
  }

  /**
   * 1. header line `<domain>` + header, then the address, then a blank line;
   * 2. the statement and a blank line, or (eip4361) a blank line alone, or (siws) nothing;
   * 3. the field lines in EIP-4361's order, URI to Issued At required, then `Resources:` and its `- ` lines;
   * 4. every field checked, the message written again from them and compared with the text.
   */
  function parse(text: string): ParseCaip122MessageReturnType<ChainId> {
    const refuse = (field: Caip122MessageField | 'message', reason: string) => ({ ok: false, field, reason }) as const
    if (typeof text !== 'string') return refuse('message', 'must be text')
    if (/[\p{Cs}\r]/u.test(text)) return refuse('message', 'must not contain carriage returns or lone surrogates')
    const lines = text.split('\n')
    const firstLine = lines[0]!
    if (!firstLine.endsWith(header)) return refuse('message', `must begin with "<domain>${header}"`)
    if (lines[2] !== '') return refuse('message', 'must have the address on the second line and a blank line after it')
    // 2. eip4361: address, '', statement or '', '', URI… (line 4, index 3, is the statement when it is not blank).
    // siws: address, '', statement, '', URI… or address, '', URI, Version… (no field line is ever blank).
    const hasStatement = layout === 'eip4361' ? lines[3] !== undefined && lines[3] !== '' : lines[4] === ''
    if (layout === 'eip4361' && lines[4] !== '' && hasStatement) return refuse('statement', 'must be one line followed by a blank line')
    const raw: Record<string, string> = {}
    let next = hasStatement ? 5 : layout === 'eip4361' ? 4 : 3
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
    const fields: Fields = {
      domain: firstLine.slice(0, -header.length),
      address: lines[1] ?? '',
      statement: hasStatement ? lines[3] : undefined,
      uri: raw.uri!,
      version: raw.version as '1',
      chainId: raw.chainId as ChainId,
      nonce: raw.nonce!,
      issuedAt: dates.issuedAt!,
      expirationTime: dates.expirationTime,
      notBefore: dates.notBefore,
      requestId: raw.requestId,
      resources,
    }
    for (const key of Object.keys(fields) as Caip122MessageField[]) if (fields[key] === undefined) delete fields[key]
    const problem = findProblem(fields)
    if (problem) return refuse(problem.field, problem.reason)
    if (create(fields) !== text) return refuse('message', `not exactly the ${messageName} text of its fields`)
    return { ok: true, fields }
  }

  return { header, create, parse }
}
