import { createTransport, http, type Chain, type EIP1193RequestFn, type Transport } from 'viem'
import type { Widget } from '../../widget/createWidget'
import { toWidgetRef, type WidgetRef } from './widgetRef'

export type TesseraTransportParameters = {
  /** For a chain Tessera's core does not serve (no core, as in SSR or node; a chain not among the widget's networks). Defaults to `http()`. */
  fallback?: Transport
}

export type TesseraTransport = Transport<'tessera'>

/** Whether the widget's worker core reads `chain`: it has a core, and the chain is one of its EVM networks with an RPC URL. */
const isServedByCore = (widget: Widget, chain: Chain | undefined): chain is Chain =>
  widget.core !== undefined && chain !== undefined && widget.getNetworks().some((n) => n.chainNamespace === 'eip155' && n.id === chain.id && n.rpcUrls.default.http.length > 0)

/** An error and its causes, outermost first. */
const causesOf = (error: unknown) => {
  const chain: { code?: unknown; rpcCode?: unknown; shortMessage?: unknown; data?: unknown; cause?: unknown }[] = []
  for (let e = error as (typeof chain)[number] | undefined; e && typeof e === 'object' && chain.length < 8; e = e.cause as typeof e) chain.push(e)
  return chain
}

/** The JSON-RPC code of an error: a node's or wallet's numeric `code` in its causes, else a widget error's `rpcCode`. */
const rpcCodeOf = (error: unknown): { code: number; message?: string; data?: unknown } | undefined => {
  const causes = causesOf(error)
  const node = causes.find((e) => typeof e.code === 'number')
  if (node) return node as { code: number; message?: string; data?: unknown }
  const widget = causes.find((e) => typeof e.rpcCode === 'number')
  return widget ? { code: widget.rpcCode as number, message: widget.shortMessage as string | undefined } : undefined
}

/**
 * What viem classifies (a numeric `code`, the message, `data`) of an error from the core. The core's own failures
 * (CORE_TIMEOUT, …) keep their message: viem reports them as unknown RPC errors, and matches node messages
 * ("execution reverted: …") on the text as it does for any transport.
 */
function toRpcError(error: unknown): unknown {
  const coded = rpcCodeOf(error)
  if (!coded || coded === error) return error
  const message = (error as { details?: string; message?: string }).details ?? coded.message ?? (error as Error).message
  return Object.assign(new Error(message, { cause: error }), { code: coded.code, data: coded.data })
}

/**
 * A viem/wagmi transport whose requests run in Tessera's worker core for the chain it is made for (ranked fallback
 * across the chain's RPC URLs, batching, caching, off the main thread). Where the widget has no core (server, node)
 * or does not know the chain, requests go to `fallback` (http by default). Takes the widget or a reference to it.
 * @example const config = createConfig({ chains: [mainnet], connectors: [tessera(widget)], transports: { [mainnet.id]: tesseraTransport(widget) } })
 */
export function tesseraTransport(widget: Widget | WidgetRef, { fallback = http() }: TesseraTransportParameters = {}): TesseraTransport {
  const widgetRef = toWidgetRef(widget)
  return ({ chain, pollingInterval, retryCount, timeout }) => {
    let fallbackTransport: ReturnType<Transport> | undefined
    const viaFallback = (args: { method: string; params?: unknown }) => (fallbackTransport ??= fallback({ chain, pollingInterval, retryCount, timeout })).request(args as never)
    const request = async ({ method, params }: { method: string; params?: unknown }) => {
      // Read at each request: the widget is attached after the wagmi config creates its clients.
      const current = widgetRef.current
      const hasStarted = await current?.whenStarted().then(() => true, () => false)
      if (!current || !hasStarted || !isServedByCore(current, chain)) return viaFallback({ method, params })
      try {
        return await current.core!.request({ chainId: chain.id, method, params: params as readonly unknown[] | undefined })
      } catch (error) {
        // A destroyed widget's core (before its successor is attached) leaves the reads to the fallback.
        if ((error as { code?: unknown } | null)?.code === 'CORE_DESTROYED') return viaFallback({ method, params })
        throw toRpcError(error)
      }
    }
    // The core retries and ranks the chain's endpoints itself; the fallback transport has its own retries.
    return createTransport({ key: 'tessera', name: 'Tessera', type: 'tessera', retryCount: 0, timeout, request: request as EIP1193RequestFn })
  }
}
