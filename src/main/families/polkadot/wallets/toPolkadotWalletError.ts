import { createWidgetError, isWidgetError, type WidgetError } from '../../../../shared/protocol/errors'
import type { ErrorCode } from '../../../../shared/protocol/errorTable'

// The codes some extensions put on their errors (EIP-1193's, which Talisman and SubWallet reuse).
const knownCodes = new Map<number, ErrorCode>([
  [4001, 'USER_REJECTED'],
  [4100, 'UNAUTHORIZED'],
  [4200, 'UNSUPPORTED_METHOD'],
])

type Thrown = { code?: unknown; message?: unknown }

/**
 * A Polkadot extension's error as a WidgetError, by code, never by message text:
 * 1. a WidgetError stays as it is;
 * 2. a numeric code some extensions set (4001 refusal, 4100 not authorized, 4200 unsupported) is mapped;
 * 3. anything else is `otherwise`. polkadot.js-style extensions reject a declined prompt with a plain Error and no code
 *    ('Cancelled', 'Rejected', in the extension's language), so a prompt's plain failure is the visitor's refusal
 *    (USER_REJECTED, the default); callers check what they can before asking (the account is the extension's), so a
 *    request it cannot serve is not mistaken for one. The extension's text is kept as details only, never shown.
 * @example try { await signer.signRaw(raw) } catch (error) { throw toPolkadotWalletError(error) }
 */
export function toPolkadotWalletError(error: unknown, { otherwise = 'USER_REJECTED' }: { otherwise?: ErrorCode } = {}): WidgetError {
  if (isWidgetError(error)) return error
  const { code, message } = (typeof error === 'object' && error !== null ? error : {}) as Thrown
  const details = typeof message === 'string' && message ? message.slice(0, 300) : typeof error === 'string' ? error.slice(0, 300) : undefined
  const mapped = typeof code === 'number' ? knownCodes.get(code) : undefined
  return createWidgetError(mapped ?? otherwise, { details, cause: error })
}
