import { createRoot } from 'react-dom/client'
import { ConnectButton, createWidget, WidgetModal, WidgetProvider } from '../../src/main'
import type { StackManifest } from '../../services/stack/manifest'
import { announceBenchWallet } from '../pack-apps/vite/src/benchWallet'

declare const __TESSERA_STACK__: StackManifest

/**
 * The page `npm run bench:ui` and the budget test measure: a React page with Tessera's button and modal, nothing else.
 * `?solana` adds the local Solana network, so a second chain family is configured; `?bitcoin` adds the local Bitcoin
 * network (its http URL the stack's Esplora-style API), a third; `?polkadot` the local Polkadot network, the fourth.
 */
// One reference: Vite's define writes the manifest where it is named (the floor page carries it once too, so the
// budget's difference is the widget alone).
const stack = __TESSERA_STACK__
const chain = stack.chains[0]!
const query = new URLSearchParams(location.search)
const solana = query.has('solana') ? stack.solana : undefined
const bitcoin = query.has('bitcoin') ? stack.bitcoin : undefined
const polkadot = query.has('polkadot') ? stack.polkadot : undefined
// bench:ui's stages of the button: the page's own code starts (its imports evaluated), the widget made.
performance.mark('bench:entry')
announceBenchWallet()
const widget = createWidget({
  projectId: stack.services.projectId,
  networks: [
    {
      chainNamespace: 'eip155',
      caipNetworkId: chain.caipNetworkId,
      id: chain.chainId,
      name: chain.name,
      nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
      rpcUrls: { default: { http: [chain.rpcUrl] } },
      ...(chain.blockTimeSeconds ? { blockTime: chain.blockTimeSeconds * 1_000 } : {}),
    },
    ...(solana
      ? [
          {
            chainNamespace: 'solana' as const,
            caipNetworkId: solana.caipNetworkId,
            id: solana.caipNetworkId.split(':')[1]!,
            name: 'Solana Local',
            nativeCurrency: { name: 'Solana', symbol: 'SOL', decimals: 9 },
            rpcUrls: { default: { http: [solana.rpcUrl] } },
          },
        ]
      : []),
    ...(bitcoin
      ? [
          {
            chainNamespace: 'bip122' as const,
            caipNetworkId: bitcoin.caipNetworkId,
            id: bitcoin.caipNetworkId.split(':')[1]!,
            name: 'Bitcoin Local',
            nativeCurrency: { name: 'Bitcoin', symbol: 'BTC', decimals: 8 },
            rpcUrls: { default: { http: [bitcoin.apiUrl] } },
          },
        ]
      : []),
    ...(polkadot
      ? [
          {
            chainNamespace: 'polkadot' as const,
            caipNetworkId: polkadot.caipNetworkId,
            id: polkadot.caipNetworkId.split(':')[1]!,
            name: 'Polkadot Local',
            nativeCurrency: { name: 'Rococo', symbol: polkadot.token.symbol, decimals: polkadot.token.decimals },
            rpcUrls: { default: { http: [polkadot.httpUrl], webSocket: [polkadot.rpcUrl] } },
          },
        ]
      : []),
  ],
})
performance.mark('bench:created')

createRoot(document.getElementById('root')!).render(
  <WidgetProvider widget={widget}>
    <ConnectButton />
    <WidgetModal />
  </WidgetProvider>,
)
