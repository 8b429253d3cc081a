// A site built on wagmi hooks: the wallet is connected in Tessera's modal, and the hooks see it.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { createRoot } from 'react-dom/client'
import { ConnectButton, createWidget, WidgetModal, WidgetProvider } from 'tessera'
import { createWagmiAdapter } from 'tessera/wagmi'
import { defineChain, erc20Abi, maxUint256, parseEther } from 'viem'
import { useAccount, useBalance, useSendTransaction, useSignMessage, useSwitchChain, useWaitForTransactionReceipt, useWriteContract, WagmiProvider } from 'wagmi'

const query = new URLSearchParams(location.search)
const local = (id: number, rpcUrl: string) => defineChain({ id, name: `Local ${id}`, nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [rpcUrl] } }, blockTime: 2_000 })
const adapter = createWagmiAdapter({ chains: [local(31337, query.get('rpc')!), local(31338, query.get('rpc2')!)] })
const widget = createWidget({ projectId: 'host', networks: adapter.networks, adapters: [adapter] })
const recipient = query.get('to') as `0x${string}`
const token = query.get('token') as `0x${string}`
const spender = query.get('spender') as `0x${string}`

function Wagmi() {
  const account = useAccount()
  const balance = useBalance({ address: recipient })
  const sign = useSignMessage()
  const send = useSendTransaction()
  const receipt = useWaitForTransactionReceipt({ hash: send.data })
  const switchChain = useSwitchChain()
  const approve = useWriteContract()
  return (
    <section>
      <p id="sdk">{widget.sdkVersion}</p>
      <p id="account">{account.status === 'connected' ? `${account.address} on ${account.chainId}` : account.status}</p>
      <p id="balance">{balance.data ? `recipient ${balance.data.value}` : 'recipient …'}</p>
      <button type="button" onClick={() => sign.signMessage({ message: 'hello from wagmi' })}>Sign with wagmi</button>
      <p id="signature">{sign.data ?? ''}</p>
      <button type="button" onClick={() => send.sendTransaction({ to: recipient, value: parseEther('0.01') })}>Send with wagmi</button>
      <p id="receipt">{receipt.data ? `receipt ${receipt.data.status}` : ''}</p>
      <button type="button" onClick={() => approve.writeContract({ address: token, abi: erc20Abi, functionName: 'approve', args: [spender, maxUint256] })}>
        Approve unlimited with wagmi
      </button>
      <p id="approval">{approve.error ? (approve.error.message.includes('User rejected the request.') ? 'rejected' : 'failed') : (approve.data ?? '')}</p>
      <button type="button" onClick={() => switchChain.switchChain({ chainId: 31338 })}>Switch with wagmi</button>
      <button type="button" onClick={() => void balance.refetch()}>Read balance</button>
    </section>
  )
}

const queryClient = new QueryClient()
createRoot(document.getElementById('root')!).render(
  <WagmiProvider config={adapter.wagmiConfig}>
    <QueryClientProvider client={queryClient}>
      <WidgetProvider widget={widget}>
        <ConnectButton />
        <Wagmi />
        <WidgetModal />
      </WidgetProvider>
    </QueryClientProvider>
  </WagmiProvider>,
)
