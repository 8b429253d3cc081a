import { createRoot } from 'react-dom/client'
import { ConnectButton, createWidget, WidgetModal, WidgetProvider } from '../../src/main'
import type { StackManifest } from '../../services/stack/manifest'

declare const __TESSERA_STACK__: StackManifest

/** The page `npm run bench:ui` measures: a React page with Tessera's button and modal, nothing else. */
const chain = __TESSERA_STACK__.chains[0]!
const widget = createWidget({
  projectId: __TESSERA_STACK__.services.projectId,
  networks: [
    {
      chainNamespace: 'eip155',
      caipNetworkId: chain.caipNetworkId,
      id: chain.chainId,
      name: chain.name,
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [chain.rpcUrl] } },
    },
  ],
})

createRoot(document.getElementById('root')!).render(
  <WidgetProvider widget={widget}>
    <ConnectButton />
    <WidgetModal />
  </WidgetProvider>,
)
