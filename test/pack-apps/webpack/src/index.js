// Plain JavaScript, no loaders: what the package needs of a webpack site is webpack itself.
import { createElement } from 'react'
import { createRoot } from 'react-dom/client'
import { ConnectButton, createWidget, WidgetModal, WidgetProvider } from 'tessera'

const query = new URLSearchParams(location.search)
const widget = createWidget({
  projectId: query.get('project') ?? 'host',
  networks: [{ chainNamespace: 'eip155', caipNetworkId: 'eip155:31337', id: 31337, name: 'Local', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [query.get('rpc')] } }, blockTime: 2_000 }],
  services: { api: query.get('api'), relay: query.get('relay') },
})
// The core is there once the widget has started (its code loads after the page's first frame).
widget
  .whenStarted()
  .then(() => widget.core.getBlockNumber({ chainId: 31337 }))
  .then(
    (n) => (document.getElementById('core').textContent = `block ${n}`),
    (e) => (document.getElementById('core').textContent = `error ${e.code ?? e.message}`),
  )
createRoot(document.getElementById('root')).render(createElement(WidgetProvider, { widget }, createElement(ConnectButton), createElement(WidgetModal)))
