import { base64, hex } from '@scure/base'
import type { Wallet, WalletAccount } from '@wallet-standard/base'
import type { StandardEventsChangeProperties } from '@wallet-standard/features'
import { decodeBitcoinAddress, type BitcoinNetwork } from '../../../../shared/families/bip122/address'
import { createWidgetError } from '../../../../shared/protocol/errors'
import { toSafeImageUrl } from '../../../connectors/walletStandard/toSafeImageUrl'
import { checkSignPsbt, noAccountError, sameAccounts, toBitcoinAccounts, type BitcoinAccount, type BitcoinConnector } from './bitcoinConnector'
import { toBitcoinWalletError } from './toBitcoinWalletError'

type FeatureMethods = Record<string, Record<string, unknown> | undefined>

/**
 * Whether a registered wallet can be a Bitcoin connector: a name, `bitcoin:connect`, and `bitcoin:signTransaction` or
 * `bitcoin:signMessage`. Never throws, whatever a page script registered.
 */
export function isBitcoinWallet(wallet: unknown): wallet is Wallet {
  try {
    const { name, features } = wallet as Partial<Wallet>
    if (typeof name !== 'string' || name.length === 0 || typeof features !== 'object' || features === null) return false
    const methods = features as FeatureMethods
    return (
      typeof methods['bitcoin:connect']?.connect === 'function' &&
      (typeof methods['bitcoin:signTransaction']?.signTransaction === 'function' || typeof methods['bitcoin:signMessage']?.signMessage === 'function')
    )
  } catch {
    return false
  }
}

const badResponse = (details: string) => createWidgetError('WALLET_BAD_RESPONSE', { details })

// Bytes from the wallet, checked and copied (a Uint8Array from another realm fails instanceof).
const toBytes = (value: unknown, what: string): Uint8Array => {
  if (Object.prototype.toString.call(value) !== '[object Uint8Array]' || (value as Uint8Array).length === 0) throw badResponse(`The wallet returned a ${what} that is not bytes`)
  return Uint8Array.from(value as Uint8Array)
}

/** The first output of a Wallet Standard method: a list as the Bitcoin features publish it (one output per input), or one object as some wallets answer. */
const firstOutput = <T>(output: unknown): Partial<T> => {
  const first = Array.isArray(output) ? (output[0] as unknown) : output
  if (typeof first !== 'object' || first === null) throw badResponse('The wallet returned no output')
  return first as Partial<T>
}

/** The Bitcoin accounts among a wallet's accounts: those naming a bitcoin chain, or naming none with a Bitcoin address. */
function bitcoinAccounts(accounts: unknown): BitcoinAccount[] {
  if (!Array.isArray(accounts)) return []
  const addresses = (accounts as Partial<WalletAccount>[])
    .filter((account) => {
      const chains = account?.chains
      const isNamed = Array.isArray(chains) && chains.length > 0
      return isNamed ? chains.some((chain) => typeof chain === 'string' && chain.startsWith('bitcoin:')) : typeof account?.address === 'string' && !!decodeBitcoinAddress(account.address)
    })
    .map((account) => ({ address: account.address, publicKey: account.publicKey instanceof Uint8Array || Object.prototype.toString.call(account.publicKey) === '[object Uint8Array]' ? hex.encode(Uint8Array.from(account.publicKey as Uint8Array)) : undefined }))
  return toBitcoinAccounts(addresses)
}

/**
 * A connector for one Bitcoin Wallet Standard wallet (`bitcoin:connect` with purposes, `bitcoin:signTransaction` on
 * PSBT bytes, `bitcoin:signMessage`, `standard:events`). The wallet's `accounts` are the ones this site may use, so a
 * wallet that still lists them is authorized without a prompt.
 * @example const connector = createWalletStandardBitcoinConnector({ wallet }); const accounts = await connector.connect('mainnet')
 */
export function createWalletStandardBitcoinConnector({ wallet }: { wallet: Wallet }): BitcoinConnector & { wallet: Wallet } {
  /** The wallet's feature `name`, its methods called on it (a wallet's method may use `this`). */
  const feature = <T>(name: string, method: keyof T & string): T => {
    const found = (wallet.features as FeatureMethods)[name]
    if (typeof found?.[method] !== 'function') throw createWidgetError('UNSUPPORTED_METHOD', { details: `${wallet.name} does not support ${name}` })
    return found as T
  }
  const call = async <T>(run: () => Promise<T> | T): Promise<T> => {
    try {
      return await run()
    } catch (error) {
      throw toBitcoinWalletError(error)
    }
  }
  const accountOf = (address: string): WalletAccount => {
    const account = wallet.accounts.find((a) => a.address === address)
    if (!account) throw createWidgetError('UNAUTHORIZED', { details: `${address} is not connected in ${wallet.name}` })
    return account
  }
  const readAccounts = () => {
    try {
      return bitcoinAccounts(wallet.accounts)
    } catch {
      return []
    }
  }

  return {
    id: `walletStandard:${wallet.name}`,
    name: wallet.name,
    type: 'ANNOUNCED',
    namespace: 'bip122',
    kind: 'walletStandard',
    imageUrl: toSafeImageUrl(wallet.icon),
    wallet,
    async connect() {
      const connector = feature<{ connect: (input: { purposes: string[] }) => Promise<unknown> }>('bitcoin:connect', 'connect')
      const output = await call(() => connector.connect({ purposes: ['payment', 'ordinals'] }))
      const accounts = bitcoinAccounts((output as { accounts?: unknown } | undefined)?.accounts)
      if (accounts.length === 0) throw noAccountError(wallet.name)
      return accounts
    },
    isAuthorized: async () => readAccounts().length > 0,
    getAccounts: async () => readAccounts(),
    async disconnect() {
      const disconnector = (wallet.features as FeatureMethods)['standard:disconnect'] as { disconnect?: unknown } | undefined
      if (typeof disconnector?.disconnect !== 'function') return // the widget forgets the connection either way
      await call(() => (disconnector as { disconnect: () => Promise<void> }).disconnect()).catch((error: unknown) => {
        throw createWidgetError('DISCONNECT_FAILED', { details: (error as { shortMessage?: string }).shortMessage, cause: error })
      })
    },
    async signMessage(message, address) {
      const signer = feature<{ signMessage: (input: { account: WalletAccount; message: Uint8Array }) => Promise<unknown> }>('bitcoin:signMessage', 'signMessage')
      if (typeof message !== 'string') throw createWidgetError('INVALID_PARAMS', { details: 'The message must be text' })
      const account = accountOf(address)
      const output = firstOutput<{ signature: unknown }>(await call(() => signer.signMessage({ account, message: new TextEncoder().encode(message) })))
      return base64.encode(toBytes(output.signature, 'signature'))
    },
    async signPsbt(parameters) {
      const signer = feature<{ signTransaction: (input: unknown) => Promise<unknown> }>('bitcoin:signTransaction', 'signTransaction')
      checkSignPsbt(parameters)
      const account = accountOf(parameters.address)
      const input = {
        psbt: base64.decode(parameters.psbtBase64),
        chain: `bitcoin:${parameters.network satisfies BitcoinNetwork}`,
        inputsToSign: [{ account, signingIndexes: [...parameters.signingIndexes] }],
        // Not a field of the published input (signTransaction never broadcasts; signAndSendTransaction does): said for
        // wallets that broadcast unless told not to.
        broadcast: false,
      }
      const output = firstOutput<{ signedPsbt: unknown }>(await call(() => signer.signTransaction(input)))
      return base64.encode(toBytes(output.signedPsbt, 'signed PSBT'))
    },
    watch({ onAccountsChanged, onDisconnect }) {
      const events = (wallet.features as FeatureMethods)['standard:events'] as { on?: unknown } | undefined
      if (typeof events?.on !== 'function') return () => {}
      let last = readAccounts()
      const onChange = (properties: StandardEventsChangeProperties) => {
        if (typeof properties !== 'object' || properties === null || !('accounts' in properties)) return
        const next = bitcoinAccounts(properties.accounts)
        if (sameAccounts(next, last)) return
        last = next
        if (next.length > 0) onAccountsChanged?.(next)
        else onDisconnect?.()
      }
      let off: unknown
      try {
        off = (events as { on: (event: 'change', listener: typeof onChange) => unknown }).on('change', onChange)
      } catch (error) {
        throw toBitcoinWalletError(error)
      }
      return () => {
        if (typeof off === 'function') off()
      }
    },
  }
}
