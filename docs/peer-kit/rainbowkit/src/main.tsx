// RainbowKit as a site would set it up, on the local anvil chain the Tessera demo uses: the peer kit of the
// side-by-side screenshots. The page's init script brings the same EIP-6963 dev wallet the demo has.
import '@rainbow-me/rainbowkit/styles.css'
import { ConnectButton, RainbowKitProvider, connectorsForWallets, darkTheme, lightTheme, useAccountModal, useChainModal, useConnectModal } from '@rainbow-me/rainbowkit'
import { injectedWallet } from '@rainbow-me/rainbowkit/wallets'
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { createRoot } from 'react-dom/client'
import { defineChain, http } from 'viem'
import { WagmiProvider, createConfig } from 'wagmi'

const params = new URLSearchParams(location.search)
const chains = JSON.parse(params.get('chains') ?? '[]') as { chainId: number; name: string; rpcUrl: string }[]
const toChain = ({ chainId, name, rpcUrl }: (typeof chains)[number]) =>
  defineChain({ id: chainId, name, nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [rpcUrl] } }, testnet: true })
const [first, ...rest] = chains.map(toChain)
if (!first) throw new Error('peer kit: ?chains= names no chain')

const connectors = connectorsForWallets([{ groupName: 'Popular', wallets: [injectedWallet] }], { appName: 'Tessera demo dApp', projectId: 'local' })
const config = createConfig({ chains: [first, ...rest], connectors, transports: Object.fromEntries(chains.map((c) => [c.chainId, http(c.rpcUrl)])) })
const queryClient = new QueryClient()
const theme = params.get('theme') === 'light' ? lightTheme() : darkTheme()

/** Buttons the screenshot script presses to open each modal. */
function Openers() {
  const { openConnectModal } = useConnectModal()
  const { openAccountModal } = useAccountModal()
  const { openChainModal } = useChainModal()
  return (
    <p>
      <button onClick={openConnectModal}>open connect</button> <button onClick={openAccountModal}>open account</button> <button onClick={openChainModal}>open chains</button>
    </p>
  )
}

createRoot(document.getElementById('root')!).render(
  <WagmiProvider config={config}>
    <QueryClientProvider client={queryClient}>
      <RainbowKitProvider theme={theme} modalSize="compact">
        <main style={{ padding: 16, fontFamily: 'system-ui', minHeight: '100vh', background: params.get('theme') === 'light' ? '#f6f7f9' : '#0f1115' }}>
          <ConnectButton />
          <Openers />
        </main>
      </RainbowKitProvider>
    </QueryClientProvider>
  </WagmiProvider>,
)
