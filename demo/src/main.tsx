import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { createWidget, WidgetModal, WidgetProvider, type WidgetNetwork } from '../../src/main'
import { announceProvider, createDevWallet } from '../devWallet/createDevWallet'
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

// ?families=eip155 (or =solana) offers one family only; by default the demo offers both families the stack runs.
const families = new URLSearchParams(location.search).get('families')?.split(',') ?? ['eip155', 'solana']
const solana = families.includes('solana') ? stack.solana : undefined
if (solana) {
  // Its Solana dev wallet (the local chain's funded keys) registers by the Wallet Standard.
  const devSolanaWallet = createDevSolanaWallet({ rpcUrls: { 'solana:localnet': solana.rpcUrl }, storage: localStorage })
  registerDevSolanaWallet(devSolanaWallet)
  Object.assign(window, { devSolanaWallet })
}

// ?chains=31337 requests only those chains (a wallet on another one sees Switch Network).
const requestedChains = new URLSearchParams(location.search).get('chains')?.split(',').map(Number)
// Network icons (SPEC §3 assets), drawn here: a diamond for the local EVM chains, three bars for Solana.
const svgIcon = (body: string) => `data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 28 28"><rect width="28" height="28" rx="8" fill="#1f2430"/>${body}</svg>`)}`
const evmIcon = svgIcon('<path d="M14 4l7 10-7 4-7-4zM14 19.5l7-4.2L14 24l-7-8.7z" fill="#8fa8ff"/>')
const solanaIcon = svgIcon('<path d="M8 8h12l-2 3H6zM8 17h12l-2 3H6zM10 12.5h12l-2 3H8z" fill="#27e3a2"/>')
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
  assets: { imageUrl: evmIcon },
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
})

Object.assign(window, { widget })

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
