import { createEip1193Provider, createWidget } from '../../src/main'

/**
 * The page `npm run bench:review` times the review on (issue #36): the widget mounted, one EVM chain (`?rpc=&chainId=`),
 * and a wallet announced by EIP-6963 that gives `?account=` and is never asked to sign (the bench rejects each review).
 * `?descriptors=` (JSON) gives the widget the site's ERC-7730 descriptors (test/browser/reviewDescriptors.spec.ts).
 */
const query = new URLSearchParams(location.search)
const chainId = Number(query.get('chainId'))
const account = query.get('account')!
const wallet = {
  async request({ method }: { method: string }) {
    if (method === 'eth_accounts' || method === 'eth_requestAccounts') return [account]
    if (method === 'eth_chainId') return `0x${chainId.toString(16)}`
    if (method === 'wallet_switchEthereumChain') return null
    throw Object.assign(new Error(`The bench's wallet does not answer ${method}.`), { code: 4200 })
  },
  on() {},
  removeListener() {},
}
const info = { uuid: 'b7d5e2a4-0000-4000-8000-000000000001', name: 'Bench Wallet', icon: 'data:image/svg+xml,<svg xmlns="http://www.w3.org/2000/svg"/>', rdns: 'bench.review.wallet' }
const announce = () => window.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: Object.freeze({ info, provider: wallet }) }))
announce()
window.addEventListener('eip6963:requestProvider', announce)

const widget = createWidget({
  projectId: 'bench',
  networks: [{ chainNamespace: 'eip155', caipNetworkId: `eip155:${chainId}`, id: chainId, name: 'Bench Local', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [query.get('rpc')!] } } }],
  ...(query.has('descriptors') && { review: { descriptors: JSON.parse(query.get('descriptors')!) as unknown[] } }),
})
void widget.mount(document.getElementById('wallet')!)
Object.assign(window, { reviewBench: { widget, provider: createEip1193Provider(widget) } })
