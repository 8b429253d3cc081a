import { createRoot } from 'react-dom/client'
import { ConnectButton, createWidget, WidgetModal, WidgetProvider, type WidgetNetwork } from 'tessera'

const query = new URLSearchParams(location.search)
const rpcUrl = query.get('rpc') ?? 'http://127.0.0.1:8545'
// ?solanaRpc=…&solanaNetwork=solana:…&solanaAccount=… adds a Solana cluster: its client is a lazy chunk of the worker.
const solanaRpc = query.get('solanaRpc')
const solanaNetwork = query.get('solanaNetwork')
const networks: WidgetNetwork[] = [{ chainNamespace: 'eip155', caipNetworkId: 'eip155:31337', id: 31337, name: 'Local', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [rpcUrl] } } }]
if (solanaRpc && solanaNetwork) {
  networks.push({ chainNamespace: 'solana', caipNetworkId: solanaNetwork, id: solanaNetwork.split(':')[1]!, name: 'Solana Local', nativeCurrency: { name: 'Solana', symbol: 'SOL', decimals: 9 }, rpcUrls: { default: { http: [solanaRpc] } } })
}
const widget = createWidget({ projectId: 'host', networks })
const show = (id: string) => [(text: string) => (document.getElementById(id)!.textContent = text), (e: { code?: string; details?: string; message?: string }) => (document.getElementById(id)!.textContent = `error ${e.code} ${e.details ?? e.message}`)] as const
widget.core!.getBlockNumber({ chainId: 31337 }).then((n) => show('core')[0](`block ${n}`), show('core')[1])
if (solanaRpc && solanaNetwork) {
  widget.core!.solana.getBalance({ caipNetworkId: solanaNetwork, address: query.get('solanaAccount')! }).then((v) => show('solana')[0](`lamports ${v}`), show('solana')[1])
}
createRoot(document.getElementById('root')!).render(<WidgetProvider widget={widget}><ConnectButton /><WidgetModal /></WidgetProvider>)
