import { createWidget } from '../../src/main'
import type { StackManifest } from '../../services/stack/manifest'

declare const __TESSERA_STACK__: StackManifest

/** A page with no React of its own: the widget mounts itself with widget.mount(element). `?relay=` sets a relay. */
const chain = __TESSERA_STACK__.chains[0]!
const relay = new URLSearchParams(location.search).get('relay') ?? undefined
const widget = createWidget({
  projectId: __TESSERA_STACK__.services.projectId,
  services: { relay },
  networks: [{ chainNamespace: 'eip155', caipNetworkId: chain.caipNetworkId, id: chain.chainId, name: chain.name, nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [chain.rpcUrl] } }, ...(chain.blockTimeSeconds ? { blockTime: chain.blockTimeSeconds * 1_000 } : {}) }],
})
void widget.mount(document.getElementById('wallet')!)
Object.assign(window, { widget })
