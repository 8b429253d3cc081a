import { version } from 'react'
import { createRoot } from 'react-dom/client'
import { ConnectButton, createWidget, WidgetModal, WidgetProvider, type WidgetNetwork } from 'tessera'

// The local stack's URLs come in the query: ?rpc=…&api=…&relay=…&project=…, and for Solana ?solanaRpc=…&solanaNetwork=…&solanaAccount=…
const query = new URLSearchParams(location.search)
const rpcUrl = query.get('rpc') ?? 'http://127.0.0.1:8545'
const solanaRpc = query.get('solanaRpc')
const solanaNetwork = query.get('solanaNetwork')
const networks: WidgetNetwork[] = [{ chainNamespace: 'eip155', caipNetworkId: 'eip155:31337', id: 31337, name: 'Local', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [rpcUrl] } } }]
if (solanaRpc && solanaNetwork) {
  networks.push({ chainNamespace: 'solana', caipNetworkId: solanaNetwork, id: solanaNetwork.split(':')[1]!, name: 'Solana Local', nativeCurrency: { name: 'Solana', symbol: 'SOL', decimals: 9 }, rpcUrls: { default: { http: [solanaRpc] } } })
}
const api = query.get('api')
const relay = query.get('relay')
const widget = createWidget({
  projectId: query.get('project') ?? 'host',
  networks,
  ...(api && relay ? { services: { api, relay }, siwx: { required: true } } : {}),
})
const show = (id: string) => [(text: string) => (document.getElementById(id)!.textContent = text), (e: { code?: string; details?: string; message?: string }) => (document.getElementById(id)!.textContent = `error ${e.code} ${e.details ?? e.message}`)] as const
document.getElementById('react')!.textContent = `React ${version}`
widget.core!.getBlockNumber({ chainId: 31337 }).then((n) => show('core')[0](`block ${n}`), show('core')[1])
if (solanaRpc && solanaNetwork) {
  widget.core!.solana.getBalance({ caipNetworkId: solanaNetwork, address: query.get('solanaAccount')! }).then((v) => show('solana')[0](`lamports ${v}`), show('solana')[1])
}
createRoot(document.getElementById('root')!).render(<WidgetProvider widget={widget}><ConnectButton /><WidgetModal /></WidgetProvider>)
