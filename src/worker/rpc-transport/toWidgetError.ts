import {
  BaseError,
  ContractFunctionRevertedError,
  ContractFunctionZeroDataError,
  HttpRequestError,
  InvalidAddressError,
  TimeoutError,
  UrlRequiredError,
} from 'viem'
import { createWidgetError, fromRpcError, isWidgetError, type WidgetError } from '../../shared/protocol/errors'

/**
 * The worker's one chokepoint for errors: whatever viem, a node or the network threw becomes a WidgetError with a
 * stable code (SPEC §8), the original kept as its cause.
 */
export function toWidgetError(error: unknown): WidgetError {
  // By brand, not by class: each chain family's module is a bundle of its own with its own copy of the class.
  if (isWidgetError(error)) return error
  if ((error as { name?: unknown })?.name === 'AbortError') return createWidgetError('REQUEST_ABORTED', { cause: error })
  if (!(error instanceof BaseError)) {
    const message = (error as { message?: unknown })?.message
    return createWidgetError('UNKNOWN', { details: typeof message === 'string' ? message : String(error), cause: error })
  }
  const found = <T>(Class: abstract new (...args: never[]) => T) => error.walk((e) => e instanceof Class) as T | null
  const reverted = found(ContractFunctionRevertedError)
  if (reverted) return createWidgetError('CONTRACT_FUNCTION_REVERTED', { details: reverted.reason ?? reverted.signature ?? reverted.shortMessage, cause: error })
  if (found(ContractFunctionZeroDataError)) return createWidgetError('CONTRACT_ZERO_DATA', { details: error.shortMessage, cause: error })
  if (found(InvalidAddressError)) return createWidgetError('INVALID_ADDRESS', { details: error.shortMessage, cause: error })
  if (found(UrlRequiredError)) return createWidgetError('NO_RPC_URL', { cause: error })
  if (found(TimeoutError)) return createWidgetError('RPC_TIMEOUT', { details: error.details, cause: error })
  const rpc = error.walk((e) => typeof (e as { code?: unknown }).code === 'number') as { code: number; details?: string; shortMessage?: string } | null
  if (rpc) {
    const mapped = fromRpcError({ code: rpc.code, message: rpc.details || rpc.shortMessage })
    return createWidgetError(mapped.code, { details: mapped.details, cause: error })
  }
  const http = found(HttpRequestError)
  if (http) return createWidgetError('HTTP_REQUEST_FAILED', { details: http.details || undefined, status: http.status, cause: error })
  const node = fromRpcError({ message: error.details || error.shortMessage })
  if (node.code !== 'UNKNOWN_RPC_ERROR') return createWidgetError(node.code, { details: node.details, cause: error })
  return createWidgetError('UNKNOWN', { details: error.shortMessage, cause: error })
}
