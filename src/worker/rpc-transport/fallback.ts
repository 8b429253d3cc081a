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
  TransactionTypeNotSupportedError,
  type EIP1193RequestFn,
  type Transport,
} from 'viem'
import { createTransportRanking, type CreateTransportRankingParameters, type TransportRanking } from './ranking'

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

export type FallbackTransportParameters = {
  /** Rank the transports by latency and stability (SPEC §4); off by default. */
  rank?: boolean | Omit<CreateTransportRankingParameters, 'pings'>
  onRanking?: (ranking: TransportRanking) => void
}

/**
 * Tries each transport in turn, ranked when ranking runs; moves on after a failure unless shouldThrow says the
 * next node would fail the same way.
 * @example fallbackTransport([httpTransport(a), httpTransport(b)], { rank: true })
 */
export function fallbackTransport(transports: readonly Transport[], { rank = false, onRanking }: FallbackTransportParameters = {}): Transport<'fallback'> {
  if (transports.length === 0) throw new Error('fallbackTransport needs at least one transport')
  return ((parameters) => {
    const clients = transports.map((transport) => transport({ ...parameters, retryCount: 0 }))
    let order = clients.map((_, index) => index)
    if (rank) {
      const ranking = createTransportRanking({
        ...(typeof rank === 'object' ? rank : {}),
        pings: clients.map((client) => () => client.request({ method: 'eth_blockNumber' })),
      })
      ranking.subscribe((ranked) => (order = ranked.map((r) => r.index)))
      onRanking?.(ranking)
    }
    return createTransport(
      {
        key: 'tessera-fallback',
        name: 'Tessera fallback',
        type: 'fallback',
        retryCount: 0,
        request: (async (args: { method: string; params?: unknown }, options?: { signal?: AbortSignal }) => {
          const tried = [...order]
          let lastError: unknown
          for (const index of tried) {
            try {
              return await clients[index]!.request(args as never, options)
            } catch (error) {
              lastError = error
              if (shouldThrow(error) || options?.signal?.aborted) throw error
            }
          }
          throw lastError
        }) as EIP1193RequestFn,
      },
      { transports: clients },
    )
  }) as Transport<'fallback'>
}
