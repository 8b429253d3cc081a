import type { BitcoinNetwork } from '../../../../shared/families/bip122/address'
import { createWidgetError } from '../../../../shared/protocol/errors'
import { toSafeImageUrl } from '../../../connectors/walletStandard/toSafeImageUrl'
import { checkSignPsbt, noAccountError, toBitcoinAccounts, type BitcoinAccount, type BitcoinConnector, type WalletAddress } from './bitcoinConnector'
import { createAccountReporter } from './createAccountReporter'
import { toBitcoinWalletError } from './toBitcoinWalletError'

/** An entry of `window.btc_providers`: the wallet's name and icon, and in `id` the path of its provider object on `window`. */
export type SatsConnectProviderInfo = { id: string; name: string; icon?: string; webUrl?: string }

/**
 * A sats-connect provider: `request(method, params)` answering a JSON-RPC 2.0 response object (`{ jsonrpc: '2.0', id,
 * result }` or `{ jsonrpc: '2.0', id, error: { code, message, data? } }`), and its events.
 */
export type SatsConnectProvider = {
  request: (method: string, params: unknown) => Promise<unknown>
  addListener?: (listener: { eventName: string; cb: (event: unknown) => void }) => unknown
}

// sats-connect's names of the four networks (BitcoinNetworkType).
const networkNames: Record<BitcoinNetwork, string> = { mainnet: 'Mainnet', testnet: 'Testnet', signet: 'Signet', regtest: 'Regtest' }

const badResponse = (details: string) => createWidgetError('WALLET_BAD_RESPONSE', { details })

type Answer = { status?: unknown; result?: unknown; error?: unknown }

/**
 * What a provider's answer says, or undefined when it says neither:
 * 1. `{ status: 'success', result }` or `{ status: 'error', error }`, the shape the sats-connect library gives dApps
 *    (some providers answer it themselves); any other status says nothing;
 * 2. a JSON-RPC 2.0 response, as providers answer: an `error` member is a failure, a `result` member (null included:
 *    wallet_disconnect answers null) a success.
 * Reading a page script's object may throw: that is an answer that says nothing.
 */
function readAnswer(answer: unknown): { result: unknown } | { error: unknown } | undefined {
  if (typeof answer !== 'object' || answer === null) return undefined
  try {
    const { status, result, error } = answer as Answer
    if ('status' in answer) return status === 'success' ? { result } : status === 'error' ? { error } : undefined
    if (error !== undefined && error !== null) return { error }
    return 'result' in answer ? { result } : undefined
  } catch {
    return undefined
  }
}

/**
 * A connector for one sats-connect provider (Xverse, Magic Eden and others list theirs in `window.btc_providers`):
 * `getAddresses` for the payment and ordinals addresses, `signPsbt` (base64, never broadcast by the wallet),
 * `signMessage` with BIP-322, `wallet_getAccount` to reconnect without a prompt, and the accountChange, networkChange and
 * disconnect events. Providers answer JSON-RPC 2.0 responses (the library's `{ status }` shape is taken too); an error,
 * answered or thrown, is the WidgetError of its code (toBitcoinWalletError: -32000 and 4001 are refusals).
 * @example const connector = createSatsConnectConnector({ info: window.btc_providers[0], provider })
 */
export function createSatsConnectConnector({ info, provider }: { info: SatsConnectProviderInfo; provider: SatsConnectProvider }): BitcoinConnector {
  /** One request; the answer's `result` (an empty object where it is not one), or its error as a WidgetError. */
  const request = async (method: string, params: unknown): Promise<Record<string, unknown>> => {
    let answer: unknown
    try {
      answer = await provider.request(method, params)
    } catch (error) {
      // Some providers reject instead of answering an error (Leather rejects with the error response itself).
      throw toBitcoinWalletError(error)
    }
    const read = readAnswer(answer)
    if (!read) throw badResponse(`${info.name} answered ${method} with neither a result nor an error`)
    if ('error' in read) throw toBitcoinWalletError(typeof read.error === 'object' && read.error !== null ? read.error : { message: String(read.error) })
    return typeof read.result === 'object' && read.result !== null ? (read.result as Record<string, unknown>) : {}
  }
  const addressesOf = (result: Record<string, unknown>) => toBitcoinAccounts(Array.isArray(result.addresses) ? (result.addresses as WalletAddress[]) : [])
  /** The addresses the site may use now, without a prompt; none when the wallet gives the site no permission. */
  const currentAccounts = async (): Promise<BitcoinAccount[]> => {
    try {
      return addressesOf(await request('wallet_getAccount', null))
    } catch {
      return []
    }
  }

  return {
    id: `satsConnect:${info.id}`,
    name: info.name,
    type: 'ANNOUNCED',
    namespace: 'bip122',
    kind: 'satsConnect',
    imageUrl: toSafeImageUrl(info.icon),
    async connect() {
      const accounts = addressesOf(await request('getAddresses', { purposes: ['payment', 'ordinals'] }))
      if (accounts.length === 0) throw noAccountError(info.name)
      return accounts
    },
    isAuthorized: async () => (await currentAccounts()).length > 0,
    getAccounts: currentAccounts,
    async disconnect() {
      await request('wallet_disconnect', null).catch((error: { code?: string }) => {
        // A wallet without the method has nothing to end: the widget forgets the connection either way.
        if (error.code === 'METHOD_NOT_FOUND' || error.code === 'UNSUPPORTED_METHOD' || error.code === 'METHOD_NOT_SUPPORTED') return
        throw createWidgetError('DISCONNECT_FAILED', { details: (error as { shortMessage?: string }).shortMessage, cause: error })
      })
    },
    async switchNetwork(network) {
      await request('wallet_changeNetwork', { name: networkNames[network] })
    },
    async signMessage(message, address) {
      if (typeof message !== 'string') throw createWidgetError('INVALID_PARAMS', { details: 'The message must be text' })
      const { signature } = await request('signMessage', { address, message, protocol: 'BIP322' })
      if (typeof signature !== 'string' || signature.length === 0) throw badResponse(`${info.name} returned no signature`)
      return signature
    },
    async signPsbt(parameters) {
      checkSignPsbt(parameters)
      const { psbt } = await request('signPsbt', { psbt: parameters.psbtBase64, signInputs: { [parameters.address]: [...parameters.signingIndexes] }, broadcast: false })
      if (typeof psbt !== 'string' || !/^[A-Za-z0-9+/]+={0,2}$/.test(psbt)) throw badResponse(`${info.name} returned a signed PSBT that is not base64`)
      return psbt
    },
    watch({ onAccountsChanged, onDisconnect }) {
      if (typeof provider.addListener !== 'function') return () => {}
      const reporter = createAccountReporter({ currentAccounts, onAccountsChanged, onDisconnect })
      // An event may carry the new addresses; otherwise they are asked for, and only the newest answer counts.
      const onChange = (event: unknown) => {
        const carried = (event as { addresses?: unknown } | null)?.addresses
        if (Array.isArray(carried)) return reporter.report(toBitcoinAccounts(carried as WalletAddress[]))
        reporter.reportNewest(currentAccounts())
      }
      const offs: unknown[] = []
      try {
        offs.push(provider.addListener({ eventName: 'accountChange', cb: onChange }))
        offs.push(provider.addListener({ eventName: 'networkChange', cb: onChange }))
        offs.push(provider.addListener({ eventName: 'disconnect', cb: () => reporter.report([]) }))
      } catch {
        // a provider whose events fail still signs; getAccounts() tells the truth
      }
      return () => {
        reporter.stop()
        for (const off of offs) if (typeof off === 'function') off()
      }
    },
  }
}
