/**
 * `npm run bench:ui`'s visitor has one browser wallet installed, announced by EIP-6963 as extensions do, so the widget's
 * dialog opens on a wallet row as the floor's opens on "MetaMask". It answers only what a page asks before connecting.
 */
export function announceBenchWallet() {
  const provider = {
    async request({ method }: { method: string }) {
      if (method === 'eth_accounts') return []
      if (method === 'eth_chainId') return '0x7a69'
      throw Object.assign(new Error(`Bench Wallet does not answer ${method}`), { code: 4200 })
    },
    on() {},
    removeListener() {},
  }
  const info = {
    uuid: '8a0d5f0e-6c1b-4c3e-9a2e-5b0c7d6e4f21',
    name: 'Bench Wallet',
    icon: 'data:image/svg+xml,%3Csvg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"%3E%3Crect width="32" height="32" rx="8" fill="%233b82f6"/%3E%3C/svg%3E',
    rdns: 'dev.tessera.bench',
  }
  const announce = () => window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: Object.freeze({ info, provider }) }))
  window.addEventListener('eip6963:requestProvider', announce)
  announce()
}
