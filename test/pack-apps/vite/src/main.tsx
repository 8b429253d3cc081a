import { version } from 'react'
import { createRoot } from 'react-dom/client'
import { ConnectButton, createWidget, NetworkButton, WidgetModal, WidgetProvider, type WidgetNetwork } from 'tessera'

// The local stack's URLs come in the query: ?rpc=…&api=…&relay=…&project=…, for Solana ?solanaRpc=…&solanaNetwork=…&solanaAccount=…,
// for Bitcoin ?bitcoinApi=…&bitcoinNetwork=…&bitcoinAccount=…, for Polkadot ?polkadotRpc=…&polkadotNetwork=…&polkadotAccount=…,
// for e-mail and social login ?frame=… (the secure frame's URL, on an origin of its own).
const query = new URLSearchParams(location.search)
const rpcUrl = query.get('rpc') ?? 'http://127.0.0.1:8545'
const solanaRpc = query.get('solanaRpc')
const solanaNetwork = query.get('solanaNetwork')
const bitcoinApi = query.get('bitcoinApi')
const bitcoinNetwork = query.get('bitcoinNetwork')
const polkadotRpc = query.get('polkadotRpc')
const polkadotNetwork = query.get('polkadotNetwork')
const networks: WidgetNetwork[] = [{ chainNamespace: 'eip155', caipNetworkId: 'eip155:31337', id: 31337, name: 'Local', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [rpcUrl] } }, blockTime: 2_000 }]
if (solanaRpc && solanaNetwork) {
  networks.push({ chainNamespace: 'solana', caipNetworkId: solanaNetwork, id: solanaNetwork.split(':')[1]!, name: 'Solana Local', nativeCurrency: { name: 'Solana', symbol: 'SOL', decimals: 9 }, rpcUrls: { default: { http: [solanaRpc] } } })
}
if (bitcoinApi && bitcoinNetwork) {
  networks.push({ chainNamespace: 'bip122', caipNetworkId: bitcoinNetwork, id: bitcoinNetwork.split(':')[1]!, name: 'Bitcoin Local', nativeCurrency: { name: 'Bitcoin', symbol: 'BTC', decimals: 8 }, rpcUrls: { default: { http: [bitcoinApi] } } })
}
if (polkadotRpc && polkadotNetwork) {
  networks.push({ chainNamespace: 'polkadot', caipNetworkId: polkadotNetwork, id: polkadotNetwork.split(':')[1]!, name: 'Polkadot Local', nativeCurrency: { name: 'Rococo', symbol: 'ROC', decimals: 12 }, rpcUrls: { default: { http: [polkadotRpc.replace(/^ws/, 'http')], webSocket: [polkadotRpc] } } })
}
const api = query.get('api')
const relay = query.get('relay')
const frameUrl = query.get('frame')
const widget = createWidget({
  projectId: query.get('project') ?? 'host',
  networks,
  ...(api && relay ? { services: { api, relay }, siwx: { required: true } } : {}),
  ...(frameUrl ? { auth: { frameUrl } } : {}),
})
const show = (id: string) => [(text: string) => (document.getElementById(id)!.textContent = text), (e: { code?: string; details?: string; message?: string }) => (document.getElementById(id)!.textContent = `error ${e.code} ${e.details ?? e.message}`)] as const
// The tests read the widget's state as a site's own code would.
;(window as unknown as { widget: typeof widget }).widget = widget
document.getElementById('react')!.textContent = `React ${version}`
// The core is there once the widget has started (its code loads after the page's first frame).
void widget.whenStarted().then(() => {
  const core = widget.core!
  core.getBlockNumber({ chainId: 31337 }).then((n) => show('core')[0](`block ${n}`), show('core')[1])
  if (solanaRpc && solanaNetwork) {
    core.solana.getBalance({ caipNetworkId: solanaNetwork, address: query.get('solanaAccount')! }).then((v) => show('solana')[0](`lamports ${v}`), show('solana')[1])
  }
  if (bitcoinApi && bitcoinNetwork) {
    core.bitcoin.getBalance({ caipNetworkId: bitcoinNetwork, address: query.get('bitcoinAccount')! }).then((b) => show('bitcoin')[0](`sats ${b.confirmed + b.pending}`), show('bitcoin')[1])
  }
  if (polkadotRpc && polkadotNetwork) {
    core.polkadot.getBalance({ caipNetworkId: polkadotNetwork, address: query.get('polkadotAccount')! }).then((b) => show('polkadot')[0](`planck ${b.free}`), show('polkadot')[1])
  }
})
createRoot(document.getElementById('root')!).render(<WidgetProvider widget={widget}><NetworkButton /><ConnectButton /><WidgetModal /></WidgetProvider>)
