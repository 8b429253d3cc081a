import { BaseError, TimeoutError } from 'viem'
import { isSafeRpcMethod } from '../../../src/shared/protocol/rpcMethods'
import { shouldThrow } from '../../../src/worker/rpc-transport/fallback'
import { httpTransport } from '../../../src/worker/rpc-transport/http'
import { createRankedFallback } from '../../../src/worker/rpc-transport/rankedFallback'
import { getNodeAnswer, getRetryAfterMs, isNodeAnswer, shouldRetry } from '../../../src/worker/rpc-transport/shouldRetry'

/** One JSON-RPC call as a client sent it: its method and params, forwarded unchanged. */
export type UpstreamCall = { method: string; params?: unknown }

/** A JSON-RPC error object, as a node answers it and as the endpoint answers its own. */
export type RpcErrorObject = { code: number; message: string; data?: unknown }

export type CreateUpstreamsParameters = {
  /** The chain's nodes, the first tried first while it answers. */
  urls: readonly string[]
  /** One node's time to answer one call; then the call moves on to the next node. */
  attemptTimeoutMs: number
  /** A call's whole budget, across nodes, rounds and backoff. */
  callTimeoutMs: number
}

/**
 * The JSON-RPC error a node answered to the call itself (a revert and its data, invalid params): the client's to read.
 * Undefined for a failure of the nodes (no answer, a timeout, an HTTP error status, an answer that is not JSON-RPC),
 * whose text is never passed on.
 */
export function getNodeError(error: unknown): RpcErrorObject | undefined {
  const found = getNodeAnswer(error)
  return found && { code: found.code, message: found.details, ...(found.data !== undefined && { data: found.data }) }
}

/** Whether the nodes failed by running out of time (a call's attempt or its whole budget). */
export const isTimeout = (error: unknown) => error instanceof BaseError && error.walk((e) => e instanceof TimeoutError) !== null

/**
 * A chain's upstream nodes behind the worker's ranked fallback (src/worker/rpc-transport/rankedFallback.ts) with the
 * worker's EVM rules and HTTP transport (fallback.ts, shouldRetry.ts, http.ts), so the endpoint and the widget fail
 * over alike: healthy nodes first, a dead or slow one cooled off, safe reads hedged, a revert or a node message every
 * node would repeat answered at once, the calls of one tick sent to a node as one batch, answers bounded in size, and
 * a call that a node answered with a JSON-RPC error and the others failed on ending with the node's error.
 * No latency ranking: its pings would run for as long as the process.
 * @example const upstreams = createUpstreams({ urls: ['http://127.0.0.1:8545'], attemptTimeoutMs: 5_000, callTimeoutMs: 15_000 }); await upstreams.request({ method: 'eth_blockNumber' })
 */
export function createUpstreams({ urls, attemptTimeoutMs, callTimeoutMs }: CreateUpstreamsParameters) {
  const endpoints = urls.map((url) => {
    // One attempt per node and call: retries are the fallback's rounds over every node.
    const { request } = httpTransport(url, { timeoutMs: attemptTimeoutMs, retryCount: 0 })({})
    const send = (call: UpstreamCall, signal: AbortSignal) => request(call as never, { signal })
    return { url, request: send, ping: (signal: AbortSignal) => send({ method: 'eth_blockNumber' }, signal) }
  })
  const fallback = createRankedFallback<UpstreamCall>(
    endpoints,
    {
      shouldThrow,
      shouldRetry,
      retryAfterMs: (error) => getRetryAfterMs(error),
      timeoutError: (call, url) => new TimeoutError({ body: call, url }),
      isHedgeable: (call) => isSafeRpcMethod(call.method),
      isAnswer: isNodeAnswer,
    },
    { timeoutMs: callTimeoutMs },
  )
  return {
    /** The result of the first node that answers; rejects with viem's errors when none does. */
    request: (call: UpstreamCall): Promise<unknown> => fallback.request(call),
  }
}

export type Upstreams = ReturnType<typeof createUpstreams>
