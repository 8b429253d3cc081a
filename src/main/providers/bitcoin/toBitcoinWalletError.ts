import { createWidgetError, isWidgetError, type WidgetError } from '../../../shared/protocol/errors'
import type { ErrorCode } from '../../../shared/protocol/errorTable'
import { toWalletStandardError } from '../solana/toWalletStandardError'

// sats-connect's RpcErrorCode values that mean something other than their JSON-RPC namesakes.
const satsConnectCodes = new Map<number, ErrorCode>([
  [-32000, 'USER_REJECTED'], // USER_REJECTION: the user said no or closed the prompt
  [-32001, 'UNSUPPORTED_METHOD'], // METHOD_NOT_SUPPORTED for the address given
  [-32002, 'UNAUTHORIZED'], // ACCESS_DENIED: the site has no permission (yet)
])

type Thrown = { code?: unknown; message?: unknown; error?: unknown }

/**
 * A Bitcoin wallet's error as a WidgetError, by code, never by message text:
 * 1. a WidgetError (of any copy of the errors module) stays as it is;
 * 2. a sats-connect code (the error itself or its `.error`): -32000 is a refusal (USER_REJECTED), -32001 an unsupported
 *    method, -32002 no permission;
 * 3. anything else as the Wallet Standard's errors are read (4001 and WalletStandardError refusals are USER_REJECTED).
 * @example try { await provider.request('signPsbt', params) } catch (error) { throw toBitcoinWalletError(error) }
 */
export function toBitcoinWalletError(error: unknown): WidgetError {
  if (isWidgetError(error)) return error
  for (const link of [error, (error as Thrown | null)?.error]) {
    const code = (link as Thrown | null)?.code
    const mapped = typeof code === 'number' ? satsConnectCodes.get(code) : undefined
    if (mapped) {
      const message = (link as Thrown).message
      return createWidgetError(mapped, { details: typeof message === 'string' && message ? message.slice(0, 300) : undefined, cause: error })
    }
  }
  return toWalletStandardError(error)
}
