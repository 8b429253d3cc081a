import { base64, hex } from '@scure/base'
import type { BitcoinNetwork } from '../../../shared/protocol/addresses/bitcoin'
import { createWidgetError } from '../../../shared/protocol/errors'
import { toSafeImageUrl } from '../solana/createWalletStandardConnector'
import { checkSignPsbt, noAccountError, toBitcoinAccounts, type BitcoinAccount, type BitcoinConnector } from './bitcoinConnector'
import { createAccountReporter } from './createAccountReporter'
import { toBitcoinWalletError } from './toBitcoinWalletError'

/** A Unisat-style injected object (`window.unisat`; OKX and others copy its shape). */
export type UnisatProvider = {
  requestAccounts: () => Promise<unknown>
  getAccounts: () => Promise<unknown>
  getPublicKey?: () => Promise<unknown>
  getNetwork?: () => Promise<unknown>
  switchNetwork?: (network: string) => Promise<unknown>
  signPsbt: (psbtHex: string, options: { autoFinalized: boolean; toSignInputs?: { index: number; address: string }[] }) => Promise<unknown>
  signMessage: (message: string, type: 'bip322-simple' | 'ecdsa') => Promise<unknown>
  on?: (event: string, listener: (value: unknown) => void) => unknown
  removeListener?: (event: string, listener: (value: unknown) => void) => unknown
}

// Unisat's names of the networks it serves.
const networkNames: Record<BitcoinNetwork, string> = { mainnet: 'livenet', testnet: 'testnet', signet: 'signet', regtest: 'regtest' }

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
 * with `autoFinalized: false`, `signMessage` with 'bip322-simple', and the accountsChanged and networkChanged events.
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
    // Unisat-style wallets have no call to end a site's access: the widget forgets the connection.
    disconnect: async () => {},
    async switchNetwork(network) {
      if (typeof provider.switchNetwork !== 'function') throw createWidgetError('UNSUPPORTED_METHOD', { details: `${name} does not switch networks` })
      await call(() => provider.switchNetwork!(networkNames[network]))
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
