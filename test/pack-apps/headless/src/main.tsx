import { useState } from 'react'
import { createRoot } from 'react-dom/client'
import { ConnectButton, createWidget, useDisconnect, useSendForm, useSwitchNetwork, useTokens, useWalletList, WidgetModal, WidgetProvider, type WidgetNetwork } from 'tessera'

// A site that draws its own connect UI with the hooks (docs/headless.md): its own button, its own wallet list, its own
// send form. The local stack comes in the query: ?rpc=…&rpc2=…&api=…&project=… (the data service reads the balances).
const query = new URLSearchParams(location.search)
const api = query.get('api')
const local = (id: number, rpcUrl: string): WidgetNetwork => ({ chainNamespace: 'eip155', caipNetworkId: `eip155:${id}`, id, name: `Local ${id}`, nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [rpcUrl] } }, blockTime: 2_000 })
const widget = createWidget({ projectId: query.get('project') ?? 'headless', networks: [local(31337, query.get('rpc')!), local(31338, query.get('rpc2')!)], ...(api ? { services: { api } } : {}) })

/** The site's own wallet list: the wallets as Tessera's Connect view lists them. */
function WalletList({ onDone }: { onDone: () => void }) {
  const { wallets, connect } = useWalletList()
  const [error, setError] = useState<string>()
  return (
    <section aria-label="Choose a wallet">
      <ul>
        {wallets.map((wallet) => (
          <li key={`${wallet.type}:${wallet.id}`}>
            <button type="button" onClick={() => connect(wallet).then(onDone, (e: { shortMessage?: string; message: string }) => setError(e.shortMessage ?? e.message))}>
              {wallet.name}
              {wallet.isRecent ? ' (recent)' : ''}
            </button>
          </li>
        ))}
      </ul>
      {error ? <p role="alert">{error}</p> : null}
    </section>
  )
}

/** The site's own send form: Tessera's form state and rules, the site's markup. */
function SendForm() {
  const form = useSendForm()
  const { tokens } = useTokens()
  if (form.isLoading || !form.state) return <p>Loading the send form…</p>
  return (
    <form
      aria-label="Send"
      onSubmit={(event) => {
        event.preventDefault()
        form.send().then((hash) => (document.getElementById('sent')!.textContent = hash), () => {})
      }}
    >
      <p id="tokens">{tokens.map((t) => `${t.symbol} ${t.quantity.numeric}`).join(', ')}</p>
      <label>
        Amount
        <input value={form.amountText} onChange={(e) => form.setAmount(e.target.value)} />
      </label>
      <button type="button" onClick={() => void form.fillMax()}>
        Max
      </button>
      <label>
        To
        <input value={form.state.receiverAddress ?? ''} onChange={(e) => form.setReceiver(e.target.value)} />
      </label>
      {form.amountIssue ? <p role="alert">{`amount: ${form.amountIssue.reason}`}</p> : null}
      <button type="submit" disabled={!form.isSendable}>
        Send {form.state.token?.symbol}
      </button>
      <p id="sent" />
    </form>
  )
}

function App() {
  const [isChoosing, setChoosing] = useState(false)
  const { disconnect } = useDisconnect()
  const { networks, switchNetwork, activeCaipNetworkId } = useSwitchNetwork()
  return (
    <main>
      <h1>Headless host</h1>
      <ConnectButton.Custom>
        {({ account, network, isConnected, openAccount }) =>
          isConnected && account ? (
            <>
              <p id="account">{`${account.address} on ${network?.name}`}</p>
              <button type="button" onClick={openAccount}>
                {account.displayName}
              </button>
              <button type="button" onClick={() => void disconnect()}>
                Disconnect
              </button>
              <select aria-label="Network" value={activeCaipNetworkId} onChange={(e) => void switchNetwork(e.target.value)}>
                {networks.map((n) => (
                  <option key={n.caipNetworkId} value={n.caipNetworkId}>
                    {n.name}
                  </option>
                ))}
              </select>
              <SendForm />
            </>
          ) : (
            <>
              <p id="account">disconnected</p>
              <button type="button" aria-expanded={isChoosing} onClick={() => setChoosing(!isChoosing)}>
                Sign in with a wallet
              </button>
              {isChoosing ? <WalletList onDone={() => setChoosing(false)} /> : null}
            </>
          )
        }
      </ConnectButton.Custom>
    </main>
  )
}

// The widget's modal stays mounted: the account view and WalletConnect's QR code are still Tessera's.
createRoot(document.getElementById('root')!).render(
  <WidgetProvider widget={widget}>
    <App />
    <WidgetModal />
  </WidgetProvider>,
)
