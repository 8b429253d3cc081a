import { useState } from 'react'
import { createRoot } from 'react-dom/client'

// `npm run bench:ui`'s floor: the same site with React alone, a button that opens a dialog listing four wallets.
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
createRoot(document.getElementById('root')!).render(<App />)
