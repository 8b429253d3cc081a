import { createRoot } from 'react-dom/client'
import { ConnectButton, createWidget, WidgetModal, WidgetProvider } from 'tessera'
import { announceBenchWallet } from './benchWallet'

// `npm run bench:ui`: a site's page with the widget's button and modal and nothing else; the node's URL in ?rpc=….
// bench:ui's stages of the button: the page's own code starts (its imports evaluated), the widget made.
performance.mark('bench:entry')
announceBenchWallet()
const rpcUrl = new URLSearchParams(location.search).get('rpc') ?? 'http://127.0.0.1:8545'
const widget = createWidget({
  projectId: 'bench',
  networks: [{ chainNamespace: 'eip155', caipNetworkId: 'eip155:31337', id: 31337, name: 'Local', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [rpcUrl] } } }],
})
performance.mark('bench:created')
createRoot(document.getElementById('root')!).render(
  <WidgetProvider widget={widget}>
    <ConnectButton />
    <WidgetModal />
  </WidgetProvider>,
)
