import { proxy, wrap, type Remote } from 'comlink'
import { createWidget } from '../../src/main'
import type { StackManifest } from '../../services/stack/manifest'
import type { HostWorkerApi } from './hostComlinkWorker'

declare const __TESSERA_STACK__: StackManifest

/** What test/browser/hostComlink.spec.ts reaches: the host's own comlink worker and a Tessera widget, on one page and one comlink. */
export type HostComlinkPage = { hostWorker: Remote<HostWorkerApi>; proxy: typeof proxy; widget: ReturnType<typeof createWidget>; chainId: number }

declare global {
  interface Window {
    hostPage: HostComlinkPage
  }
}

const hostWorker = wrap<HostWorkerApi>(new Worker(new URL('./hostComlinkWorker.ts', import.meta.url), { type: 'module', name: 'host' }))
const chain = __TESSERA_STACK__.chains[0]!
const widget = createWidget({
  projectId: __TESSERA_STACK__.services.projectId,
  networks: [{ chainNamespace: 'eip155', caipNetworkId: chain.caipNetworkId, id: chain.chainId, name: chain.name, nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [chain.rpcUrl] } } }],
})

window.hostPage = { hostWorker, proxy, widget, chainId: chain.chainId }
// The widget's core is there once it has started.
void widget.whenStarted().then(() => (document.getElementById('status')!.textContent = 'ready'))
