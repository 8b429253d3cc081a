import { createWidgetError } from '../../shared/protocol/errors'
import type { Widget } from '../widget/createWidget'

/**
 * `create` made once per widget and chain id: repeated calls share the value (and its one subscription to the widget);
 * two widgets on a page share nothing.
 */
export function perWidgetAndChain<T>(create: (widget: Widget, chainId: number) => T) {
  const byWidget = new WeakMap<Widget, Map<number, T>>()
  return (widget: Widget, chainId: number): T => {
    let byChain = byWidget.get(widget)
    if (!byChain) byWidget.set(widget, (byChain = new Map()))
    if (!byChain.has(chainId)) byChain.set(chainId, create(widget, chainId))
    return byChain.get(chainId)!
  }
}

/** Throws NETWORK_NOT_FOUND unless `chainId` is one of the widget's EVM networks (the core knows no other). */
export function assertEvmNetwork(widget: Widget, chainId: number) {
  if (widget.getNetworks().some((n) => n.chainNamespace === 'eip155' && Number(n.id) === chainId)) return
  throw createWidgetError('NETWORK_NOT_FOUND', { details: `eip155:${chainId} is not one of the widget's networks.` })
}
