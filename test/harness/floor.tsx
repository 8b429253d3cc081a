import { useState } from 'react'
import { createRoot } from 'react-dom/client'
import type { StackManifest } from '../../services/stack/manifest'

declare const __TESSERA_STACK__: StackManifest

/** The floor of `npm run bench:ui`: a plain React page built the same way, a button that opens a dialog of four wallets. */
const wallets = ['MetaMask', 'Rabby', 'Phantom', 'WalletConnect']
function App() {
  const [isOpen, setOpen] = useState(false)
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Connect Wallet
      </button>
      {isOpen ? (
        <div role="dialog" aria-label="Connect Wallet">
          <ul>
            {wallets.map((name) => (
              <li key={name}>
                <button type="button">{name}</button>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </>
  )
}

// The test stack's manifest, which the widget's page carries too: the budget compares the widget, not test data.
Object.assign(window, { stack: __TESSERA_STACK__ })
createRoot(document.getElementById('root')!).render(<App />)
