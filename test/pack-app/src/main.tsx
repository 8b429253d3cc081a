import { createRoot } from 'react-dom/client'
import { ConnectButton, createWidget, WidgetModal, WidgetProvider } from 'tessera'

const rpcUrl = new URLSearchParams(location.search).get('rpc') ?? 'http://127.0.0.1:8545'
const widget = createWidget({
  projectId: 'host',
  networks: [{ chainNamespace: 'eip155', caipNetworkId: 'eip155:31337', id: 31337, name: 'Local', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [rpcUrl] } } }],
})
widget.core!.getBlockNumber({ chainId: 31337 }).then((n) => (document.getElementById('core')!.textContent = `block ${n}`), (e) => (document.getElementById('core')!.textContent = `error ${e.code}`))
createRoot(document.getElementById('root')!).render(<WidgetProvider widget={widget}><ConnectButton /><WidgetModal /></WidgetProvider>)
