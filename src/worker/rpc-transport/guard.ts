import type { ErrorCode } from '../../shared/protocol/errorTable'
import { createWidgetError, WidgetError } from '../../shared/protocol/errors'

/**
 * Runs `body`; a throw that is not a WidgetError (a library's) becomes `code` with the raw text in details.
 * @example getBalance: (address) => guard('UNKNOWN', () => readBalance(address))
 */
export async function guard<T>(code: ErrorCode, body: () => Promise<T>): Promise<T> {
  try {
    return await body()
  } catch (error) {
    if (error instanceof WidgetError) throw error
    throw createWidgetError(code, { details: (error as Error)?.message ?? String(error), cause: error })
  }
}
