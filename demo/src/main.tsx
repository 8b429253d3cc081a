import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { createEip1193Provider, createWidget, WidgetModal, WidgetProvider, type WidgetNetwork } from '../../src/main'
import { announceProvider, createDevWallet } from '../devWallet/createDevWallet'
import { createDevBitcoinWallet, registerDevBitcoinWallet } from '../devWallet/bitcoin/createDevBitcoinWallet'
import { createDevSolanaWallet, registerDevSolanaWallet } from '../devWallet/solana/createDevSolanaWallet'
import { App } from './App'
import { stack } from './stack'

// The demo has no browser extension: its dev wallet (anvil's unlocked accounts) announces itself by EIP-6963.
const devWallet = createDevWallet({
  chains: stack.chains.map(({ chainId, name, rpcUrl }) => ({ chainId, name, rpcUrl })),
  accounts: stack.devAccounts.slice(0, 3),
  storage: localStorage,
})
announceProvider(window, devWallet)
Object.assign(window, { devWallet })

// ?families=eip155 (or =solana, =bip122, or a list) offers those families only; by default the demo offers every family
// the stack runs.
const families = new URLSearchParams(location.search).get('families')?.split(',') ?? ['eip155', 'solana', ...(stack.bitcoin ? ['bip122'] : [])]
const solana = families.includes('solana') ? stack.solana : undefined
if (solana) {
  // Its Solana dev wallet (the local chain's funded keys) registers by the Wallet Standard.
  const devSolanaWallet = createDevSolanaWallet({ rpcUrls: { 'solana:localnet': solana.rpcUrl }, storage: localStorage })
  registerDevSolanaWallet(devSolanaWallet)
  Object.assign(window, { devSolanaWallet })
}

const bitcoin = families.includes('bip122') ? stack.bitcoin : undefined
if (bitcoin) {
  // Its Bitcoin dev wallet (the regtest chain's funded dev keys) is reachable by the Bitcoin Wallet Standard and as a
  // sats-connect provider in window.btc_providers; ?bitcoinWallet=sats-connect (or =wallet-standard) offers one way only.
  const only = new URLSearchParams(location.search).get('bitcoinWallet')
  const devBitcoinWallet = createDevBitcoinWallet({ accounts: bitcoin.devAccounts.slice(0, 3), storage: localStorage })
  registerDevBitcoinWallet(devBitcoinWallet, { standard: only !== 'sats-connect', satsConnect: only !== 'wallet-standard' })
  Object.assign(window, { devBitcoinWallet })
}

// Polkadot is offered when asked for (?families=…,polkadot): its core module loads @polkadot/api in the worker, which
// the other journeys need not wait for. Its dev extension stands in for a browser extension: it is injected before the
// widget starts, as extensions' content scripts are, from a chunk of its own (the widget's code has no @polkadot/*).
const polkadot = families.includes('polkadot') ? stack.polkadot : undefined
if (polkadot) {
  const { createDevPolkadotExtension } = await import('../devWallet/polkadot/createDevPolkadotExtension')
  const devPolkadotExtension = await createDevPolkadotExtension({ accounts: polkadot.devAccounts.slice(0, 3), storage: localStorage })
  devPolkadotExtension.inject()
  Object.assign(window, { devPolkadotExtension })
}

// ?chains=31337 requests only those chains (a wallet on another one sees Switch Network).
const requestedChains = new URLSearchParams(location.search).get('chains')?.split(',').map(Number)
// Network icons (SPEC §3 assets), drawn here: a diamond for the local EVM chains, three bars for Solana.
const svgIcon = (body: string) => `data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 28 28"><rect width="28" height="28" rx="8" fill="#1f2430"/>${body}</svg>`)}`
const evmIcon = svgIcon('<path d="M14 4l7 10-7 4-7-4zM14 19.5l7-4.2L14 24l-7-8.7z" fill="#8fa8ff"/>')
const solanaIcon = svgIcon('<path d="M8 8h12l-2 3H6zM8 17h12l-2 3H6zM10 12.5h12l-2 3H8z" fill="#27e3a2"/>')
const bitcoinIcon = svgIcon('<circle cx="14" cy="14" r="9" fill="#f7931a"/><path d="M11.5 9.5h3.5a2 2 0 0 1 0 4h-3.5zm0 4h4a2 2 0 0 1 0 4h-4zM12.5 8v12M14.5 8v12" fill="none" stroke="#fff" stroke-width="1.4"/>')
const polkadotIcon = svgIcon('<circle cx="14" cy="14" r="4" fill="#e6007a"/><circle cx="14" cy="6.5" r="2.5" fill="#e6007a"/><circle cx="14" cy="21.5" r="2.5" fill="#e6007a"/><circle cx="7.5" cy="10.2" r="2.5" fill="#e6007a"/><circle cx="20.5" cy="10.2" r="2.5" fill="#e6007a"/><circle cx="7.5" cy="17.8" r="2.5" fill="#e6007a"/><circle cx="20.5" cy="17.8" r="2.5" fill="#e6007a"/>')
const evmChains = families.includes('eip155') ? stack.chains : []
const networks: WidgetNetwork[] = evmChains.filter((chain) => !requestedChains || requestedChains.includes(chain.chainId)).map((chain) => ({
  chainNamespace: 'eip155',
  caipNetworkId: chain.caipNetworkId,
  id: chain.chainId,
  name: chain.name,
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: [chain.rpcUrl] } },
  testnet: true,
  contracts: { multicall3: { address: chain.multicall3 } },
  ...(chain.blockTimeSeconds ? { blockTime: chain.blockTimeSeconds * 1_000 } : {}),
  assets: { imageUrl: evmIcon },
  // The second local chain has a block explorer (its rows in Activity link to it); the first has none, and no links.
  ...(chain.chainId === stack.chains[1]?.chainId ? { blockExplorers: { default: { name: 'Tessera Explorer', url: 'https://explorer.tessera.invalid' } } } : {}),
}))
if (solana) {
  networks.push({
    chainNamespace: 'solana',
    caipNetworkId: solana.caipNetworkId,
    id: solana.caipNetworkId.split(':')[1]!,
    name: 'Solana Local',
    nativeCurrency: { name: 'Solana', symbol: 'SOL', decimals: 9 },
    rpcUrls: { default: { http: [solana.rpcUrl], webSocket: [solana.wsUrl] } },
    testnet: true,
    tokens: [{ address: solana.mint.address, symbol: solana.mint.symbol, name: 'Tessera USD' }],
    assets: { imageUrl: solanaIcon },
  })
}

if (bitcoin) {
  networks.push({
    chainNamespace: 'bip122',
    caipNetworkId: bitcoin.caipNetworkId,
    id: bitcoin.caipNetworkId.split(':')[1]!,
    name: 'Bitcoin Local',
    nativeCurrency: { name: 'Bitcoin', symbol: 'BTC', decimals: 8 },
    // A Bitcoin network's http URL is its Esplora-style API.
    rpcUrls: { default: { http: [bitcoin.apiUrl] } },
    testnet: true,
    assets: { imageUrl: bitcoinIcon },
  })
}

if (polkadot) {
  networks.push({
    chainNamespace: 'polkadot',
    caipNetworkId: polkadot.caipNetworkId,
    id: polkadot.caipNetworkId.split(':')[1]!,
    name: 'Polkadot Local',
    nativeCurrency: { name: 'Rococo', symbol: polkadot.token.symbol, decimals: polkadot.token.decimals },
    // The core speaks JSON-RPC over WebSocket to a Polkadot node; the same port answers HTTP.
    rpcUrls: { default: { http: [polkadot.httpUrl], webSocket: [polkadot.rpcUrl] } },
    ss58Prefix: polkadot.ss58Prefix,
    testnet: true,
    assets: { imageUrl: polkadotIcon },
  })
}

const siwxMode = new URLSearchParams(location.search).get('siwx')
// ?locale=fr shows the widget in French (by default it follows the browser's language).
const locale = new URLSearchParams(location.search).get('locale') ?? undefined

const widget = createWidget({
  projectId: stack.services.projectId,
  networks,
  metadata: { name: 'Tessera demo dApp' },
  locale,
  featuredWalletIds: ['sample-mobile-wallet'],
  services: { api: stack.services.api, walletRegistry: stack.services.api, relay: stack.services.relay },
  // ?siwx=required or ?siwx=optional turns on sign-in with the wallet (the default SIWX, sessions in the data service).
  siwx: siwxMode ? { required: siwxMode === 'required' } : undefined,
  // E-mail and social login through the stack's secure frame (on its own origin), when the stack runs the auth
  // service and an EVM network is on; ?auth=off leaves them out.
  // ?review=off turns off the review shown before the wallet asks (issue #36), as a site can.
  review: new URLSearchParams(location.search).get('review') !== 'off',
  auth: stack.auth && evmChains.length > 0 && new URLSearchParams(location.search).get('auth') !== 'off' ? { frameUrl: `${stack.auth.frameOrigin}/` } : undefined,
})

// `provider`: the widget's EIP-1193 provider, as a site's wagmi or ethers would use it (EIP-5792 for every wallet).
Object.assign(window, { widget, provider: createEip1193Provider(widget) })

const root = document.getElementById('root')
if (!root) throw new Error('demo: #root is missing from index.html')
createRoot(root).render(
  <StrictMode>
    <WidgetProvider widget={widget}>
      <App />
      <WidgetModal />
    </WidgetProvider>
  </StrictMode>,
)
