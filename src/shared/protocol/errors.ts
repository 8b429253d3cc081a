import { errorTable, type ErrorCode, type ErrorKind } from './errorTable'

export type WidgetErrorParameters = {
  /** Values for the message's {placeholders}. */
  params?: Record<string, string | number>
  details?: string
  cause?: unknown
  /** The field that failed validation, as a dotted path. */
  field?: string
  /** The HTTP status of a failed service call. */
  status?: number
}

const fill = (template: string, params: Record<string, string | number> = {}) =>
  template.replace(/\{(\w+)\}/g, (match, name: string) => (name in params ? String(params[name]) : match))

/** Tessera's brand on its errors (on WidgetError's prototype): the worker codec handles only errors that carry it. */
const widgetErrorBrand = Symbol.for('tessera.WidgetError')

/**
 * Tessera's one error base: a stable `code` to narrow on, the spec's exact sentence as `shortMessage`, and
 * `details` and `cause` for the rest. `message` is shortMessage and details together.
 * @example throw new WidgetError('EMAIL_LOGIN_THROTTLED', { params: { n: 12 } }) // 'Please try again after 12 seconds'
 */
export class WidgetError extends Error {
  static {
    Object.defineProperty(this.prototype, widgetErrorBrand, { value: true })
  }
  override name = 'WidgetError'
  readonly code: ErrorCode
  readonly shortMessage: string
  readonly details: string | undefined
  readonly params: Record<string, string | number> | undefined
  readonly field: string | undefined
  readonly status: number | undefined
  constructor(code: ErrorCode, { params, details, cause, field, status }: WidgetErrorParameters = {}) {
    const shortMessage = fill(errorTable[code].message, params)
    super(details ? `${shortMessage}\n\nDetails: ${details}` : shortMessage, cause === undefined ? undefined : { cause })
    this.code = code
    this.shortMessage = shortMessage
    this.details = details
    this.params = params
    this.field = field
    this.status = status
  }
  /** The JSON-RPC / EIP-1193 code for this error, when it has one. */
  get rpcCode(): number | undefined {
    return (errorTable[this.code] as { rpcCode?: number }).rpcCode
  }
}

/** A standard JSON-RPC error (-32700 … -32006). */
export class RpcError extends WidgetError {
  override name = 'RpcError'
}
/** An EIP-1193 provider or EIP-5792 wallet-call error (4001 … 5760). */
export class ProviderRpcError extends WidgetError {
  override name = 'ProviderRpcError'
}
/** A failure of the HTTP transport: no URL, HTTP status, timeout. */
export class TransportError extends WidgetError {
  override name = 'TransportError'
}
/** A node's refusal, classified from its message (nonce, fees, funds, gas, revert). */
export class NodeError extends WidgetError {
  override name = 'NodeError'
}
/** A contract call failure (revert with reason, zero data, decoding). */
export class ContractError extends WidgetError {
  override name = 'ContractError'
}
/** Input that failed a rule or a schema; `field` names what. */
export class ValidationError extends WidgetError {
  override name = 'ValidationError'
}
/** A data-service call that failed. */
export class ServiceError extends WidgetError {
  override name = 'ServiceError'
}

const classes: Record<ErrorKind, typeof WidgetError> = {
  widget: WidgetError,
  notice: WidgetError,
  validation: ValidationError,
  service: ServiceError,
  transport: TransportError,
  node: NodeError,
  contract: ContractError,
  rpc: RpcError,
  provider: ProviderRpcError,
}

/** Whether `value` is one of Tessera's errors, whichever copy of this module built it (a brand, not instanceof). */
export const isWidgetError = (value: unknown): value is WidgetError =>
  typeof value === 'object' && value !== null && (value as { [widgetErrorBrand]?: unknown })[widgetErrorBrand] === true

export const isErrorCode = (value: unknown): value is ErrorCode => typeof value === 'string' && Object.hasOwn(errorTable, value)

/** Builds the error of `code` with the class the table gives it. */
export function createWidgetError(code: ErrorCode, parameters?: WidgetErrorParameters): WidgetError {
  const ErrorClass = classes[errorTable[code].kind]
  return new ErrorClass(code, parameters)
}

const codeByRpcCode = new Map<number, ErrorCode>(
  (Object.entries(errorTable) as [ErrorCode, { rpcCode?: number }][]).filter(([, e]) => e.rpcCode !== undefined).map(([code, e]) => [e.rpcCode!, code]),
)

/** Node messages of SPEC §8, classified by pattern (nodes do not agree on codes for these). */
const nodeMessagePatterns: [RegExp, ErrorCode][] = [
  [/execution reverted|gas required exceeds allowance/i, 'EXECUTION_REVERTED'],
  [/max fee per gas higher than 2\^256-1|fee cap higher than 2\^256-1/i, 'FEE_CAP_TOO_HIGH'],
  [/max fee per gas less than block base fee|fee cap less than block base fee|transaction is outdated/i, 'FEE_CAP_TOO_LOW'],
  [/nonce too high/i, 'NONCE_TOO_HIGH'],
  [/nonce too low|transaction already imported|already known/i, 'NONCE_TOO_LOW'],
  [/nonce has max value/i, 'NONCE_MAX_VALUE'],
  [/insufficient funds|exceeds transaction sender account balance/i, 'INSUFFICIENT_FUNDS'],
  [/intrinsic gas too high|gas limit reached/i, 'INTRINSIC_GAS_TOO_HIGH'],
  [/intrinsic gas too low/i, 'INTRINSIC_GAS_TOO_LOW'],
  [/transaction type not valid/i, 'TRANSACTION_TYPE_NOT_SUPPORTED'],
  [/max priority fee per gas higher than max fee per gas/i, 'TIP_ABOVE_FEE_CAP'],
]

/**
 * Maps a JSON-RPC or wallet error `{ code, message, data }` to a WidgetError: node messages first (a revert is a
 * revert whatever code the node used), then the standard codes, else UNKNOWN_RPC_ERROR. The original is the cause.
 */
export function fromRpcError(error: { code?: unknown; message?: unknown; data?: unknown }): WidgetError {
  const message = typeof error.message === 'string' ? error.message : ''
  const details = message || undefined
  for (const [pattern, code] of nodeMessagePatterns) if (pattern.test(message)) return createWidgetError(code, { details, cause: error })
  const code = typeof error.code === 'number' ? codeByRpcCode.get(error.code) : undefined
  if (code) return createWidgetError(code, { details, cause: error })
  if (typeof error.code === 'number' && error.code >= 5700 && error.code <= 5760) return createWidgetError('UNKNOWN_RPC_ERROR', { details, cause: error })
  return createWidgetError('UNKNOWN_RPC_ERROR', { details, cause: error })
}

export type SerializedError = {
  name: string
  message: string
  code?: string
  rpcCode?: number
  shortMessage?: string
  details?: string
  params?: Record<string, string | number>
  field?: string
  status?: number
  stack?: string
  cause?: SerializedError
}

const MAX_CAUSE_DEPTH = 8

/** A structured-clone-safe copy of any thrown value, keeping code and fields; never throws. */
export function serializeError(error: unknown, depth = 0): SerializedError {
  if (!(error instanceof Error)) {
    const e = error as { code?: unknown; message?: unknown } | null
    return {
      name: 'Error',
      message: typeof e?.message === 'string' ? e.message : String(error),
      rpcCode: typeof e?.code === 'number' ? e.code : undefined,
    }
  }
  const fields = error as Error & Partial<Record<'code' | 'shortMessage' | 'details' | 'params' | 'field' | 'status', unknown>>
  return {
    name: error.name,
    message: error.message,
    code: typeof fields.code === 'string' ? fields.code : undefined,
    rpcCode: typeof fields.code === 'number' ? fields.code : undefined,
    shortMessage: typeof fields.shortMessage === 'string' ? fields.shortMessage : undefined,
    details: typeof fields.details === 'string' ? fields.details : undefined,
    params: typeof fields.params === 'object' && fields.params !== null ? (fields.params as Record<string, string | number>) : undefined,
    field: typeof fields.field === 'string' ? fields.field : undefined,
    status: typeof fields.status === 'number' ? fields.status : undefined,
    stack: error.stack,
    cause: error.cause !== undefined && depth < MAX_CAUSE_DEPTH ? serializeError(error.cause, depth + 1) : undefined,
  }
}

/**
 * Turns a serialized error back into an error: a WidgetError of the right class when its code is in the table,
 * else a plain Error carrying name, message and the numeric `code`. Never throws, whatever it is given.
 */
export function reviveError(data: unknown): Error {
  const d = (typeof data === 'object' && data !== null ? data : { name: 'Error', message: String(data) }) as Partial<SerializedError>
  const cause = d.cause ? reviveError(d.cause) : undefined
  if (isErrorCode(d.code)) {
    const error = createWidgetError(d.code, { params: d.params, details: d.details, cause, field: d.field, status: d.status })
    if (typeof d.stack === 'string') error.stack = d.stack
    return error
  }
  const error = new Error(typeof d.message === 'string' ? d.message : 'An error occurred', cause === undefined ? undefined : { cause })
  return Object.assign(error, {
    name: typeof d.name === 'string' ? d.name : 'Error',
    ...(typeof d.rpcCode === 'number' ? { code: d.rpcCode } : typeof d.code === 'string' ? { code: d.code } : {}),
    ...(typeof d.shortMessage === 'string' ? { shortMessage: d.shortMessage } : {}),
    ...(typeof d.details === 'string' ? { details: d.details } : {}),
    ...(typeof d.stack === 'string' ? { stack: d.stack } : {}),
  })
}

/** The shape of comlink's transfer handlers, without importing comlink (src/shared does not). */
type TransferHandler = { canHandle: (value: unknown) => boolean; serialize: (value: never) => [unknown, Transferable[]]; deserialize: (value: never) => unknown }

/** Marks our 'throw' handler, so a second install (another widget, another copy of Tessera) does not wrap it again. */
const ownHandlerBrand = Symbol.for('tessera.throwTransferHandler')

/**
 * How a WidgetError crosses: comlink's own shape (`isError`, `value` with name, message and stack) plus our fields
 * and a brand. A 'throw' handler that is not ours still revives it as an Error with our fields.
 */
type WidgetErrorWire = { isError: true; value: SerializedError; brand: 'tessera.WidgetError' }

const isWidgetErrorWire = (value: unknown): value is WidgetErrorWire =>
  typeof value === 'object' && value !== null && (value as Partial<WidgetErrorWire>).brand === 'tessera.WidgetError'

/**
 * Makes Tessera's errors cross worker and frame boundaries with their code and fields (comlink alone keeps name,
 * message and stack) while sharing the page: comlink's transfer handlers are global to a copy of comlink, and a host
 * page may use the same copy. So only Tessera's errors are ours to serialise; every other thrown value goes through
 * the 'throw' handler installed before (comlink's default or the host's), both ways. Installing again does nothing.
 * Call it on both sides:
 * @example import { transferHandlers } from 'comlink'; installErrorTransferHandler(transferHandlers)
 */
export function installErrorTransferHandler(handlers: Map<string, TransferHandler>) {
  const previous = handlers.get('throw')
  if (!previous) throw new Error("comlink has no 'throw' transfer handler to replace")
  if (ownHandlerBrand in previous) return
  const handler = {
    [ownHandlerBrand]: true,
    canHandle: (value: unknown) => previous.canHandle(value),
    serialize: (thrown: { value: unknown }): [unknown, Transferable[]] =>
      isWidgetError(thrown.value)
        ? [{ isError: true, value: serializeError(thrown.value), brand: 'tessera.WidgetError' } satisfies WidgetErrorWire, []]
        : previous.serialize(thrown as never),
    deserialize: (serialized: unknown) => {
      if (isWidgetErrorWire(serialized)) throw reviveError(serialized.value)
      return previous.deserialize(serialized as never)
    },
  }
  handlers.set('throw', handler)
}
