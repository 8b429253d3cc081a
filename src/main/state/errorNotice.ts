import { errorTable, type ErrorCode } from '../../shared/protocol/errorTable'
import { isErrorCode } from '../../shared/protocol/errors'

/**
 * An error as a view or a toast shows it: its code (the UI says it in the widget's locale by it), the values of its
 * placeholders, and the English sentence of the error table (the spec's words, for hosts and logs).
 */
export type ErrorNotice = { code: ErrorCode; params?: Record<string, string | number>; message: string }

const fill = (template: string, params: Record<string, string | number> = {}) =>
  template.replace(/\{(\w+)\}/g, (match, name: string) => (name in params ? String(params[name]) : match))

/**
 * The notice of an error code, its English sentence filled with `params`.
 * @example errorNotice('NAME_REGISTER_FAILED', { name: 'alice' }) // { code, params, message: 'Error registering name alice' }
 */
export function errorNotice(code: ErrorCode, params?: Record<string, string | number>): ErrorNotice {
  return { code, ...(params ? { params } : {}), message: fill(errorTable[code].message, params) }
}

/**
 * The notice of something thrown: a WidgetError's code, params and short message (from this thread or revived from a
 * worker's), else the notice of `fallback`.
 */
export function toErrorNotice(error: unknown, fallback: ErrorCode = 'SOMETHING_WENT_WRONG'): ErrorNotice {
  const e = (typeof error === 'object' && error !== null ? error : {}) as { code?: unknown; params?: unknown; shortMessage?: unknown }
  if (!isErrorCode(e.code)) return errorNotice(fallback)
  const params = typeof e.params === 'object' && e.params !== null ? (e.params as Record<string, string | number>) : undefined
  return { ...errorNotice(e.code, params), ...(typeof e.shortMessage === 'string' ? { message: e.shortMessage } : {}) }
}
