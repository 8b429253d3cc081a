import {
  createTransport,
  ExecutionRevertedError,
  FeeCapTooHighError,
  FeeCapTooLowError,
  InsufficientFundsError,
  IntrinsicGasTooHighError,
  IntrinsicGasTooLowError,
  NonceMaxValueError,
  NonceTooHighError,
  NonceTooLowError,
  TipAboveFeeCapError,
  TimeoutError,
  TransactionTypeNotSupportedError,
  type EIP1193RequestFn,
  type Transport,
} from 'viem'
import { isSafeRpcMethod } from '../../shared/protocol/rpcMethods'
import { createRankedFallback, type RankedFallbackParameters } from './rankedFallback'
import { getRetryAfterMs, isNodeAnswer, MAX_RETRY_AFTER_MS, shouldRetry } from './shouldRetry'

/** Node messages that every node would answer the same way: asking the next one is pointless. */
const nodeMessages = [
  ExecutionRevertedError.nodeMessage,
  FeeCapTooHighError.nodeMessage,
  FeeCapTooLowError.nodeMessage,
  NonceTooHighError.nodeMessage,
  NonceTooLowError.nodeMessage,
  NonceMaxValueError.nodeMessage,
  InsufficientFundsError.nodeMessage,
  IntrinsicGasTooHighError.nodeMessage,
  IntrinsicGasTooLowError.nodeMessage,
  TransactionTypeNotSupportedError.nodeMessage,
  TipAboveFeeCapError.nodeMessage,
]

const messagesOf = (error: unknown): string[] => {
  const messages: string[] = []
  for (let e = error as { message?: unknown; details?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (typeof e.details === 'string') messages.push(e.details)
    if (typeof e.message === 'string') messages.push(e.message)
  }
  return messages
}

const codesOf = (error: unknown): number[] => {
  const codes: number[] = []
  for (let e = error as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (typeof e.code === 'number') codes.push(e.code)
  }
  return codes
}

/**
 * Whether a failure ends the request instead of moving to the next transport (SPEC §4): a revert, an internal
 * error, a node message every node would repeat, or the user saying no.
 */
export function shouldThrow(error: unknown): boolean {
  const codes = codesOf(error)
  if (codes.some((code) => code === 3 || code === -32603 || code === 4001 || code === 5000)) return true
  const messages = messagesOf(error)
  return nodeMessages.some((pattern) => messages.some((message) => pattern.test(message)))
}

export type FallbackTransportParameters = RankedFallbackParameters & {
  /** Which methods may be sent to two endpoints at once: the safe reads (SPEC §6), never a signing or sending one. */
  isHedgeable?: (method: string) => boolean
}

export { getHedgeDelayMs, HEDGE_LATENCY_FACTOR } from './rankedFallback'

/**
 * The EVM transports behind Tessera's ranked fallback (rankedFallback.ts): healthy endpoints first, hedged safe reads,
 * rounds of retries; a revert, a node message every node would repeat or the user saying no ends the request; a node's
 * own JSON-RPC error is reported over another node's failure. Each transport sees single attempts (`retryCount: 0`):
 * retries are rounds over all endpoints, not A, A, A.
 * @example fallbackTransport([httpTransport(a), httpTransport(b)], { rank: true })
 */
export function fallbackTransport(transports: readonly Transport[], { isHedgeable = isSafeRpcMethod, maxRetryAfterMs = MAX_RETRY_AFTER_MS, timeoutMs = 10_000, ...options }: FallbackTransportParameters = {}): Transport<'fallback'> {
  if (transports.length === 0) throw new Error('fallbackTransport needs at least one transport')
  return ((parameters) => {
    const clients = transports.map((transport) => transport({ ...parameters, retryCount: 0 }))
    type Args = { method: string; params?: unknown }
    const fallback = createRankedFallback<Args>(
      clients.map((client, index) => ({
        url: (client.value as { url?: string } | undefined)?.url ?? `transport #${index}`,
        request: (args, signal) => client.request(args as never, { signal }),
        ping: (signal) => client.request({ method: 'eth_blockNumber' }, { signal }),
      })),
      {
        shouldThrow,
        shouldRetry,
        retryAfterMs: (error) => getRetryAfterMs(error, { maxMs: maxRetryAfterMs }),
        timeoutError: (args, url) => new TimeoutError({ body: args, url }),
        isHedgeable: (args) => isHedgeable(args.method),
        isAnswer: isNodeAnswer,
      },
      { ...options, timeoutMs, maxRetryAfterMs },
    )
    return createTransport(
      {
        key: 'tessera-fallback',
        name: 'Tessera fallback',
        type: 'fallback',
        retryCount: 0,
        timeout: timeoutMs,
        request: (({ method, params }: Args, options?: { signal?: AbortSignal }) => fallback.request({ method, params }, { signal: options?.signal })) as EIP1193RequestFn,
      },
      { transports: clients },
    )
  }) as Transport<'fallback'>
}
