import { useState } from 'react'

const wallets = ['MetaMask', 'Rabby', 'Phantom', 'WalletConnect']

/** `npm run bench:ui`'s floor: React alone, a button that opens a dialog listing four wallets. */
export function FloorApp() {
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
