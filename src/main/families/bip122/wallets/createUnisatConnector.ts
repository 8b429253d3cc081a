import { base64, hex } from '@scure/base'
import type { BitcoinNetwork } from '../../../../shared/families/bip122/address'
import { createWidgetError } from '../../../../shared/protocol/errors'
import { toSafeImageUrl } from '../../../connectors/walletStandard/toSafeImageUrl'
import { checkSignPsbt, noAccountError, toBitcoinAccounts, type BitcoinAccount, type BitcoinConnector } from './bitcoinConnector'
import { createAccountReporter } from './createAccountReporter'
import { toBitcoinWalletError } from './toBitcoinWalletError'

/**
 * A Unisat-style injected object (`window.unisat`; OKX, Binance and others copy its shape), as UniSat publishes it:
 * `requestAccounts()`/`getAccounts()` answer the current address in a list, `signPsbt(hex, options)` the signed PSBT in
 * hex, `signMessage(text, type)` a base64 signature; `switchChain` (newer) and `switchNetwork` (livenet or testnet only)
 * move it; `disconnect` (newer) ends the site's access. Errors are thrown as `{ code, message }` (4001 is a refusal).
 */
export type UnisatProvider = {
  requestAccounts: () => Promise<unknown>
  getAccounts: () => Promise<unknown>
  getPublicKey?: () => Promise<unknown>
  getNetwork?: () => Promise<unknown>
  switchNetwork?: (network: string) => Promise<unknown>
  switchChain?: (chain: string) => Promise<unknown>
  disconnect?: () => Promise<unknown>
  signPsbt: (psbtHex: string, options: { autoFinalized: boolean; toSignInputs?: { index: number; address: string }[] }) => Promise<unknown>
  signMessage: (message: string, type: 'bip322-simple' | 'ecdsa') => Promise<unknown>
  on?: (event: string, listener: (value: unknown) => void) => unknown
  removeListener?: (event: string, listener: (value: unknown) => void) => unknown
}

// UniSat's names of the networks it serves: its chains (switchChain) and, for older versions, its networks
// (switchNetwork takes livenet and testnet only). It has no regtest.
const chainNames: Partial<Record<BitcoinNetwork, string>> = { mainnet: 'BITCOIN_MAINNET', testnet: 'BITCOIN_TESTNET', signet: 'BITCOIN_SIGNET' }
const networkNames: Partial<Record<BitcoinNetwork, string>> = { mainnet: 'livenet', testnet: 'testnet' }

/** Whether a page object looks like a Unisat-style provider. Never throws. */
export function isUnisatProvider(value: unknown): value is UnisatProvider {
  try {
    const provider = value as Partial<UnisatProvider> | null
    return typeof provider === 'object' && provider !== null && typeof provider.requestAccounts === 'function' && typeof provider.getAccounts === 'function' && typeof provider.signPsbt === 'function' && typeof provider.signMessage === 'function'
  } catch {
    return false
  }
}

export type UnisatConnectorParameters = {
  provider: UnisatProvider
  /** The global it was found at (`unisat`), which names it in the connector's id. */
  key?: string
  name?: string
  icon?: string
}

/**
 * A connector for a Unisat-style injected object: one address (the wallet's current one, payment), `signPsbt` on hex
 * with `autoFinalized: false`, `signMessage` with 'bip322-simple', `switchChain` (else `switchNetwork`) to move,
 * `disconnect` where the wallet has it, and the accountsChanged and networkChanged events.
 * @example const connector = createUnisatConnector({ provider: window.unisat })
 */
export function createUnisatConnector({ provider, key = 'unisat', name = 'UniSat Wallet', icon }: UnisatConnectorParameters): BitcoinConnector {
  const call = async <T>(run: () => Promise<T>): Promise<T> => {
    try {
      return await run()
    } catch (error) {
      throw toBitcoinWalletError(error)
    }
  }
  /** The wallet's addresses as accounts, with its public key when it tells it (the key is of the current address). */
  const toAccounts = async (addresses: unknown): Promise<BitcoinAccount[]> => {
    if (!Array.isArray(addresses)) return []
    const publicKey = await provider.getPublicKey?.().catch(() => undefined)
    return toBitcoinAccounts(addresses.slice(0, 1).map((address) => ({ address, publicKey, purpose: 'payment' })))
  }
  const currentAccounts = async () => {
    try {
      return await toAccounts(await provider.getAccounts())
    } catch {
      return []
    }
  }

  return {
    id: `injected:${key}`,
    name,
    type: 'INJECTED',
    namespace: 'bip122',
    kind: 'unisat',
    imageUrl: toSafeImageUrl(icon),
    async connect() {
      const accounts = await toAccounts(await call(() => provider.requestAccounts()))
      if (accounts.length === 0) throw noAccountError(name)
      return accounts
    },
    isAuthorized: async () => (await currentAccounts()).length > 0,
    getAccounts: currentAccounts,
    async disconnect() {
      // Older Unisat-style wallets have no call to end a site's access: the widget forgets the connection either way.
      if (typeof provider.disconnect !== 'function') return
      await call(() => provider.disconnect!()).catch((error: { shortMessage?: string }) => {
        throw createWidgetError('DISCONNECT_FAILED', { details: error.shortMessage, cause: error })
      })
    },
    async switchNetwork(network) {
      const notOffered = () => createWidgetError('CHAIN_NOT_SUPPORTED', { details: `${name} does not offer Bitcoin ${network}` })
      if (typeof provider.switchChain === 'function') {
        const chain = chainNames[network]
        if (!chain) throw notOffered()
        await call(() => provider.switchChain!(chain))
        return
      }
      if (typeof provider.switchNetwork !== 'function') throw createWidgetError('UNSUPPORTED_METHOD', { details: `${name} does not switch networks` })
      const networkName = networkNames[network]
      if (!networkName) throw notOffered()
      await call(() => provider.switchNetwork!(networkName))
    },
    async signMessage(message, address) {
      if (typeof message !== 'string') throw createWidgetError('INVALID_PARAMS', { details: 'The message must be text' })
      const [current] = await currentAccounts()
      if (current?.address !== address) throw createWidgetError('UNAUTHORIZED', { details: `${address} is not ${name}'s current address` })
      const signature = await call(() => provider.signMessage(message, 'bip322-simple'))
      if (typeof signature !== 'string' || signature.length === 0) throw createWidgetError('WALLET_BAD_RESPONSE', { details: `${name} returned no signature` })
      return signature
    },
    async signPsbt(parameters) {
      checkSignPsbt(parameters)
      const psbtHex = hex.encode(base64.decode(parameters.psbtBase64))
      const toSignInputs = parameters.signingIndexes.map((index) => ({ index, address: parameters.address }))
      const signed = await call(() => provider.signPsbt(psbtHex, { autoFinalized: false, toSignInputs }))
      if (typeof signed !== 'string' || !/^(?:[0-9a-fA-F]{2})+$/.test(signed)) throw createWidgetError('WALLET_BAD_RESPONSE', { details: `${name} returned a signed PSBT that is not hex` })
      return base64.encode(hex.decode(signed.toLowerCase()))
    },
    watch({ onAccountsChanged, onDisconnect }) {
      if (typeof provider.on !== 'function') return () => {}
      const reporter = createAccountReporter({ currentAccounts, onAccountsChanged, onDisconnect })
      // accountsChanged carries the addresses; a network change moves the address, so it is asked for. Newest answer wins.
      const onAccounts = (accounts: unknown) => reporter.reportNewest(toAccounts(accounts))
      const onNetwork = () => reporter.reportNewest(currentAccounts())
      try {
        provider.on('accountsChanged', onAccounts)
        provider.on('networkChanged', onNetwork)
      } catch {
        // a provider whose events fail still signs
      }
      return () => {
        reporter.stop()
        try {
          provider.removeListener?.('accountsChanged', onAccounts)
          provider.removeListener?.('networkChanged', onNetwork)
        } catch {
          // nothing more to stop
        }
      }
    },
  }
}
