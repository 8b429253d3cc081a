import { createWidgetError, isWidgetError, type WidgetError } from '../../../../shared/protocol/errors'
import type { ErrorCode } from '../../../../shared/protocol/errorTable'
import { toWalletStandardError } from '../../../connectors/walletStandard/toWalletStandardError'

// Codes of Bitcoin wallets that mean something other than their JSON-RPC / EIP-1193 namesakes: sats-connect's
// RpcErrorCode (sats-connect-core src/types.ts) and Leather's (@leather.io/rpc). Their other codes are the standard
// ones (-32601 METHOD_NOT_FOUND, -32602 INVALID_PARAMS, -32603 INTERNAL_ERROR, 4001 a refusal …).
const bitcoinWalletCodes = new Map<number, ErrorCode>([
  [-32000, 'USER_REJECTED'], // sats-connect USER_REJECTION: the user said no or closed the prompt
  [-32001, 'UNSUPPORTED_METHOD'], // sats-connect METHOD_NOT_SUPPORTED for the address given
  [-32002, 'UNAUTHORIZED'], // sats-connect ACCESS_DENIED: the site has no permission (yet)
  [4002, 'UNSUPPORTED_METHOD'], // Leather METHOD_NOT_SUPPORTED
])

type Thrown = { code?: unknown; message?: unknown; error?: unknown }

/**
 * A Bitcoin wallet's error as a WidgetError, by code, never by message text:
 * 1. a WidgetError (of any copy of the errors module) stays as it is;
 * 2. a Bitcoin wallet's own code (of the error itself or of its `.error`, as a thrown JSON-RPC response has it):
 *    sats-connect's -32000 is a refusal (USER_REJECTED), -32001 an unsupported method, -32002 no permission; Leather's
 *    4002 an unsupported method;
 * 3. anything else as the Wallet Standard's errors are read: 4001 and WalletStandardError refusals are USER_REJECTED,
 *    -32601 METHOD_NOT_FOUND, -32603 INTERNAL_ERROR, a code of no table UNKNOWN_RPC_ERROR, no code at all UNKNOWN.
 * The person reads the code's sentence; the wallet's own text is only `details`.
 * @example try { await provider.request('signPsbt', params) } catch (error) { throw toBitcoinWalletError(error) }
 */
export function toBitcoinWalletError(error: unknown): WidgetError {
  if (isWidgetError(error)) return error
  for (const link of [error, (error as Thrown | null)?.error]) {
    const code = (link as Thrown | null)?.code
    const mapped = typeof code === 'number' ? bitcoinWalletCodes.get(code) : undefined
    if (mapped) {
      const message = (link as Thrown).message
      return createWidgetError(mapped, { details: typeof message === 'string' && message ? message.slice(0, 300) : undefined, cause: error })
    }
  }
  return toWalletStandardError(error)
}
