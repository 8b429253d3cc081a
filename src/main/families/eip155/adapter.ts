import { createInjectedConnector, type InjectedConnector } from '../../connectors/createInjectedConnector'
import { createLazyConnector } from '../../connectors/createLazyConnector'
import type { WalletConnectConnector } from '../../connectors/createWalletConnectConnector'
import { WALLET_CONNECT_ID } from '../../connectors/walletConnectId'
import { discoverInjected } from '../../connectors/discoverInjected'
import type { NamespaceAdapter, NamespaceConnector } from '../types'
import { toNamespaceConnector } from './toNamespaceConnector'
import { retryingImport } from '../../lazy/retryingImport'

// The send form's and the sign-in message's code load on first use (a failed load is asked for anew).
const sendCode = retryingImport(() => import('./send'), 'createSendController')
const signInMessageCode = retryingImport(() => import('./signInMessage'), 'createSignInMessage')

/**
 * EVM networks (eip155): wallets by EIP-6963 (and the legacy window.ethereum), native balances read by the core. WalletConnect's connector is the widget's (it spans families) and is wrapped by toNamespaceConnector.
 */
export const eip155Adapter: NamespaceAdapter = {
  namespace: 'eip155',
  discover(target) {
    if (!target) return { getConnectors: () => [], subscribe: () => () => {}, stop: () => {} }
    const discovery = discoverInjected(target)
    const byRdns = new Map<string, { injected: InjectedConnector; connector: NamespaceConnector }>()
    const getConnectors = () => {
      for (const detail of discovery.getProviders()) {
        if (byRdns.get(detail.info.rdns)?.injected.provider === detail.provider) continue
        const injected = createInjectedConnector(detail)
        byRdns.set(detail.info.rdns, { injected, connector: toNamespaceConnector(injected) })
      }
      return [...byRdns.values()].map((entry) => entry.connector)
    }
    return { getConnectors, subscribe: (listener) => discovery.subscribe(() => listener()), stop: () => discovery.stop() }
  },
  loadSend: () => sendCode().then((m) => m.createSendController),
  loadSignInMessage: () => signInMessageCode().then((m) => m.createSignInMessage),
  walletConnect: (load: () => Promise<WalletConnectConnector>) =>
    toNamespaceConnector(createLazyConnector({ id: WALLET_CONNECT_ID, name: 'WalletConnect', type: 'WALLET_CONNECT', chain: 'eip155', imageUrl: undefined, info: { rdns: '' } }, () => load())),
}

