import { createWidgetError, fromRpcError, WidgetError } from '../../../shared/protocol/errors'
import type { ErrorCode } from '../../../shared/protocol/errorTable'

// @wallet-standard/errors codes (WalletStandardError.context.__code), by value so the package is not needed.
const walletStandardCodes = new Map<number, ErrorCode>([
  [4001000, 'USER_REJECTED'], // WALLET_STANDARD_ERROR__USER__REQUEST_REJECTED
  [3834000, 'UNAUTHORIZED'], // …REGISTRY__WALLET_NOT_FOUND
  [3834001, 'UNAUTHORIZED'], // …REGISTRY__WALLET_ACCOUNT_NOT_FOUND
  [6160000, 'UNSUPPORTED_CHAIN'], // …FEATURES__WALLET_ACCOUNT_CHAIN_UNSUPPORTED
  [6160001, 'UNSUPPORTED_METHOD'], // …FEATURES__WALLET_ACCOUNT_FEATURE_UNIMPLEMENTED
  [6160002, 'UNSUPPORTED_METHOD'], // …FEATURES__WALLET_FEATURE_UNIMPLEMENTED
])
// WalletConnect's codes for a user saying no.
const walletConnectRejections = new Set([5000, 5001, 5002])
// Names that mean "the user said no" whatever the wallet: viem/wagmi's class and @solana/wallet-adapter's closed popup.
const rejectionNames = new Set(['UserRejectedRequestError', 'WalletWindowClosedError'])
// @solana/wallet-adapter wraps a failed signature in these (the wallet's own error, if any, in `.error`). A
// signing prompt fails that way when the user declines, so one with nothing more telling inside is a refusal.
const adapterSignNames = new Set(['WalletSignMessageError', 'WalletSignTransactionError', 'WalletSignInError'])

type Thrown = { name?: unknown; code?: unknown; message?: unknown; context?: { __code?: unknown }; error?: unknown; cause?: unknown; data?: { originalError?: { code?: unknown } } }

const messageOf = (error: unknown) => {
  const message = (error as Thrown | null)?.message
  return typeof message === 'string' && message ? message : undefined
}

/** The verdict for one error of the chain, or undefined when this link says nothing. */
function classifyOne(error: Thrown, top: unknown): WidgetError | undefined {
  const details = messageOf(error) ?? messageOf(top)
  if (error.name === 'WalletStandardError' && typeof error.context?.__code === 'number') {
    const code = walletStandardCodes.get(error.context.__code)
    if (code) return createWidgetError(code, { details, cause: top })
  }
  const code = typeof error.code === 'number' ? error.code : typeof error.data?.originalError?.code === 'number' ? error.data.originalError.code : undefined
  if (code !== undefined && walletConnectRejections.has(code)) return createWidgetError('USER_REJECTED', { details, cause: top })
  if (code !== undefined) {
    // Only the code is passed: fromRpcError would otherwise also read the message for node errors.
    return createWidgetError(fromRpcError({ code }).code, { details, cause: top })
  }
  if (typeof error.name === 'string' && rejectionNames.has(error.name)) return createWidgetError('USER_REJECTED', { details, cause: top })
  return undefined
}

/**
 * A Wallet Standard wallet's error as a WidgetError, classified by code and name, never by message text:
 * 1. a WidgetError stays as it is;
 * 2. each link of the chain (the error, then its wallet-adapter `.error`, then `.cause`, 4 deep) is read for
 *    a WalletStandardError code (4001000 is a refusal), a numeric EIP-1193 / JSON-RPC code (4001 is a refusal),
 *    or a rejection name (UserRejectedRequestError, WalletWindowClosedError); the first verdict wins;
 * 3. failing that, a wallet-adapter signing wrapper (WalletSignMessageError, WalletSignTransactionError,
 *    WalletSignInError) is a refusal;
 * 4. anything else is UNKNOWN with the wallet's message as details. The original is always the cause.
 * @example try { await feature.signMessage(input) } catch (error) { throw toWalletStandardError(error) }
 */
export function toWalletStandardError(error: unknown): WidgetError {
  if (error instanceof WidgetError) return error
  let link: unknown = error
  for (let depth = 0; depth < 4 && typeof link === 'object' && link !== null; depth++) {
    const verdict = classifyOne(link as Thrown, error)
    if (verdict) return verdict
    const next = link as Thrown
    link = next.error ?? next.cause
  }
  const name = (error as Thrown | null)?.name
  if (typeof name === 'string' && adapterSignNames.has(name)) return createWidgetError('USER_REJECTED', { details: messageOf(error), cause: error })
  return createWidgetError('UNKNOWN', { details: messageOf(error) ?? String(error), cause: error })
}
