import { base58 } from '@scure/base'
import type { SolanaSignAndSendTransactionFeature, SolanaSignAndSendTransactionOptions, SolanaSignMessageFeature, SolanaSignTransactionFeature } from '@solana/wallet-standard-features'
import type { IdentifierString, Wallet, WalletAccount } from '@wallet-standard/base'
import type { StandardConnectFeature, StandardDisconnectFeature, StandardEventsChangeProperties, StandardEventsFeature } from '@wallet-standard/features'
import { isSolanaAddress } from '../../../../shared/families/solana/address'
import type { CaipNetworkId, ChainNamespace } from '../../../../shared/protocol/caip'
import { createWidgetError } from '../../../../shared/protocol/errors'
import { toSafeImageUrl } from '../../../connectors/walletStandard/toSafeImageUrl'
import { toWalletStandardError } from '../../../connectors/walletStandard/toWalletStandardError'

/** Wallet Standard's Solana chains as CAIP-2 ids (the reference is the genesis hash's first 32 characters). */
export const solanaCaipNetworkIds = {
  'solana:mainnet': 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
  'solana:devnet': 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1',
  'solana:testnet': 'solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z',
} as const satisfies Record<string, CaipNetworkId>

// Wallet Standard chain prefixes (and feature prefixes) by the namespace Tessera calls them.
const namespaceByPrefix: Record<string, ChainNamespace> = { solana: 'solana', bitcoin: 'bip122', bip122: 'bip122', eip155: 'eip155', ethereum: 'eip155', polkadot: 'polkadot' }

type Features = Partial<
  StandardConnectFeature & StandardDisconnectFeature & StandardEventsFeature & SolanaSignMessageFeature & SolanaSignTransactionFeature & SolanaSignAndSendTransactionFeature
>

export type SolanaConnectorEvents = {
  /** The wallet's Solana accounts changed; never empty (no account left is onDisconnect). */
  onAccountsChanged?: (accounts: string[]) => void
  /** The wallet no longer gives this site any Solana account. */
  onDisconnect?: () => void
}

/** A connector for one Wallet Standard wallet on Solana. */
export type WalletStandardConnector = {
  readonly id: string
  readonly name: string
  readonly type: 'ANNOUNCED'
  readonly namespace: 'solana'
  /** The wallet's icon, only when it is a data:image/(svg+xml|png|jpeg|webp|gif) URI. */
  readonly imageUrl: string | undefined
  /** CAIP-2 ids of the Solana networks the wallet offers now (a wallet may change them). */
  readonly chains: CaipNetworkId[]
  /** Every chain family the wallet offers now, Solana among them. */
  readonly namespaces: ChainNamespace[]
  readonly wallet: Wallet
  connect: () => Promise<{ accounts: string[] }>
  /** Whether the wallet lets this site see an account without asking the user (a silent standard:connect). */
  isAuthorized: () => Promise<boolean>
  getAccounts: () => Promise<string[]>
  disconnect: () => Promise<void>
  /** The 64-byte ed25519 signature of `message` by `address`. */
  signMessage: (message: Uint8Array, address: string) => Promise<Uint8Array>
  /** The wire transaction, signed by `address`, as the wallet returned it. */
  signTransaction: (wireTransaction: Uint8Array, address: string, caipNetworkId: CaipNetworkId) => Promise<Uint8Array>
  /** Has the wallet sign and send; the base58 transaction signature. */
  signAndSendTransaction: (wireTransaction: Uint8Array, address: string, caipNetworkId: CaipNetworkId, options?: SolanaSignAndSendTransactionOptions) => Promise<string>
  /** Follows account changes and disconnects (standard:events 'change'); returns the function that stops. */
  watch: (events: SolanaConnectorEvents) => () => void
}

export type WalletStandardConnectorParameters = {
  wallet: Wallet
  /** The CAIP-2 id the caller gives the local network, for wallets that list 'solana:localnet'. */
  localnetCaipNetworkId?: CaipNetworkId
}

const badResponse = (details: string) => createWidgetError('WALLET_BAD_RESPONSE', { details })

// Bytes from the wallet, checked and copied (a Uint8Array from another realm fails instanceof).
const toBytes = (value: unknown, what: string, length?: number): Uint8Array => {
  if (Object.prototype.toString.call(value) !== '[object Uint8Array]') throw badResponse(`The wallet returned a ${what} that is not bytes`)
  const bytes = Uint8Array.from(value as Uint8Array)
  if (length !== undefined ? bytes.length !== length : bytes.length === 0) throw badResponse(`The wallet returned a ${what} of ${bytes.length} bytes`)
  return bytes
}

const firstOutput = <T>(outputs: unknown): Partial<T> => {
  const first = Array.isArray(outputs) ? (outputs[0] as unknown) : undefined
  if (typeof first !== 'object' || first === null) throw badResponse('The wallet returned no output')
  return first as Partial<T>
}

const hasSolanaChain = (chains: unknown) => Array.isArray(chains) && chains.some((c) => typeof c === 'string' && c.startsWith('solana:'))

/** The Solana addresses among a wallet's accounts, in order, without repeats; an invalid one is a bad response. */
function solanaAddresses(accounts: unknown): string[] {
  if (!Array.isArray(accounts)) throw badResponse('The wallet reported accounts that are not a list')
  const addresses: string[] = []
  for (const account of accounts as Partial<WalletAccount>[]) {
    const address = account?.address
    // An account that names no chain is taken when its address is a Solana one (a multi-family wallet's other accounts are not).
    const named = Array.isArray(account?.chains) && account.chains.length > 0
    if (named ? !hasSolanaChain(account.chains) : typeof address !== 'string' || !isSolanaAddress(address)) continue
    if (typeof address !== 'string' || !isSolanaAddress(address)) throw badResponse(`The wallet reported an invalid Solana address: ${String(address)}`)
    if (!addresses.includes(address)) addresses.push(address)
  }
  return addresses
}

/** The families a wallet offers, from its chains and feature names ('bitcoin:connect' → bip122). */
export function walletNamespaces(wallet: Wallet): ChainNamespace[] {
  const prefixes = [...wallet.chains, ...Object.keys(wallet.features)].map((id) => id.split(':')[0]!)
  return [...new Set(prefixes.map((prefix) => namespaceByPrefix[prefix]).filter((n): n is ChainNamespace => n !== undefined))]
}

/**
 * A connector for one Wallet Standard wallet on Solana: a plain object over the wallet's features. Addresses
 * are base58 and checked; wallet errors become WidgetErrors (refusals USER_REJECTED, see toWalletStandardError);
 * a feature the wallet lacks is UNSUPPORTED_METHOD naming the feature.
 * @example const connector = createWalletStandardConnector({ wallet }); const { accounts } = await connector.connect()
 */
export function createWalletStandardConnector({ wallet, localnetCaipNetworkId }: WalletStandardConnectorParameters): WalletStandardConnector {
  const caipByWalletChain = new Map<string, CaipNetworkId>(Object.entries(solanaCaipNetworkIds))
  if (localnetCaipNetworkId) caipByWalletChain.set('solana:localnet', localnetCaipNetworkId)
  const walletChainByCaip = new Map([...caipByWalletChain].map(([chain, caip]) => [caip as string, chain as IdentifierString]))

  const feature = <K extends keyof Features>(name: K): NonNullable<Features[K]> => {
    const found = (wallet.features as Features)[name]
    if (typeof found !== 'object' || found === null) throw createWidgetError('UNSUPPORTED_METHOD', { details: `${wallet.name} does not support ${name}` })
    return found as NonNullable<Features[K]>
  }
  /** Runs a call into the wallet; whatever it throws comes out a WidgetError. */
  const call = async <T>(run: () => Promise<T> | T): Promise<T> => {
    try {
      return await run()
    } catch (error) {
      throw toWalletStandardError(error)
    }
  }
  const accountOf = (address: string): WalletAccount => {
    if (typeof address !== 'string' || !isSolanaAddress(address)) throw createWidgetError('INVALID_ADDRESS', { details: `Not a Solana address: ${String(address)}` })
    const account = wallet.accounts.find((a) => a.address === address)
    if (!account) throw createWidgetError('UNAUTHORIZED', { details: `${address} is not connected in ${wallet.name}` })
    return account
  }
  const walletChainOf = (caipNetworkId: string): IdentifierString => {
    const chain = walletChainByCaip.get(caipNetworkId)
    if (!chain || !wallet.chains.includes(chain)) throw createWidgetError('UNSUPPORTED_CHAIN', { details: `${wallet.name} does not offer ${caipNetworkId}` })
    return chain
  }
  const transactionBytes = (wireTransaction: Uint8Array) => {
    if (!(wireTransaction instanceof Uint8Array) || wireTransaction.length === 0) throw createWidgetError('INVALID_PARAMS', { details: 'The transaction must be non-empty wire bytes' })
    return wireTransaction
  }
  const connectAccounts = async (silent: boolean) => {
    const connect = feature('standard:connect')
    const output = await call(() => connect.connect(silent ? { silent: true } : undefined))
    return solanaAddresses((output as { accounts?: unknown } | undefined)?.accounts)
  }

  return {
    id: `walletStandard:${wallet.name}`,
    name: wallet.name,
    type: 'ANNOUNCED',
    namespace: 'solana',
    imageUrl: toSafeImageUrl(wallet.icon),
    get chains() {
      return [...new Set(wallet.chains.map((chain) => caipByWalletChain.get(chain)).filter((id): id is CaipNetworkId => id !== undefined))]
    },
    get namespaces() {
      return walletNamespaces(wallet)
    },
    wallet,
    async connect() {
      const accounts = await connectAccounts(false)
      if (accounts.length === 0) throw badResponse('The wallet returned no Solana account')
      return { accounts }
    },
    isAuthorized: async () => (await connectAccounts(true).catch(() => [])).length > 0,
    getAccounts: async () => solanaAddresses(wallet.accounts),
    async disconnect() {
      const disconnect = (wallet.features as Features)['standard:disconnect']
      if (!disconnect) return // the widget forgets the connection either way
      await call(() => disconnect.disconnect()).catch((error: unknown) => {
        throw createWidgetError('DISCONNECT_FAILED', { details: (error as { shortMessage?: string }).shortMessage, cause: error })
      })
    },
    async signMessage(message, address) {
      const signer = feature('solana:signMessage')
      if (!(message instanceof Uint8Array)) throw createWidgetError('INVALID_PARAMS', { details: 'The message must be bytes' })
      const account = accountOf(address)
      const output = firstOutput<{ signature: unknown }>(await call(() => signer.signMessage({ account, message })))
      return toBytes(output.signature, 'signature', 64)
    },
    async signTransaction(wireTransaction, address, caipNetworkId) {
      const signer = feature('solana:signTransaction')
      const transaction = transactionBytes(wireTransaction)
      const account = accountOf(address)
      const chain = walletChainOf(caipNetworkId)
      const output = firstOutput<{ signedTransaction: unknown }>(await call(() => signer.signTransaction({ account, transaction, chain })))
      return toBytes(output.signedTransaction, 'signed transaction')
    },
    async signAndSendTransaction(wireTransaction, address, caipNetworkId, options) {
      const sender = feature('solana:signAndSendTransaction')
      const transaction = transactionBytes(wireTransaction)
      const account = accountOf(address)
      const chain = walletChainOf(caipNetworkId)
      const output = firstOutput<{ signature: unknown }>(await call(() => sender.signAndSendTransaction({ account, transaction, chain, ...(options ? { options } : {}) })))
      return base58.encode(toBytes(output.signature, 'transaction signature', 64))
    },
    watch({ onAccountsChanged, onDisconnect }) {
      const events = feature('standard:events')
      let last: string[] = (() => {
        try {
          return solanaAddresses(wallet.accounts)
        } catch {
          return []
        }
      })()
      const onChange = (properties: StandardEventsChangeProperties) => {
        if (typeof properties !== 'object' || properties === null || !('accounts' in properties)) return
        let next: string[]
        try {
          next = solanaAddresses(properties.accounts)
        } catch {
          return // a malformed event is ignored; getAccounts() tells the truth
        }
        if (next.length === last.length && next.every((a, i) => a === last[i])) return
        last = next
        if (next.length > 0) onAccountsChanged?.(next)
        else onDisconnect?.()
      }
      let off: unknown
      try {
        off = events.on('change', onChange)
      } catch (error) {
        throw toWalletStandardError(error)
      }
      return () => {
        if (typeof off === 'function') off()
      }
    },
  }
}
