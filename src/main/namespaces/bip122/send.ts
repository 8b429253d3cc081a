import { describeBitcoinNetworks, decodeBitcoinAddress } from '../../../shared/protocol/addresses/bitcoin'
import type { BitcoinTransfer } from '../../../shared/protocol/core/bitcoinApi'
import { formatUnits } from '../../../shared/protocol/display'
import { createWidgetError, type WidgetError } from '../../../shared/protocol/errors'
import type { TokenBalance } from '../../../shared/protocol/schemas/entities'
import { errorNotice, toErrorNotice, type ErrorNotice } from '../../state/errorNotice'
import { checkAmount, createSendForm, toSendErrorNotice } from '../sendForm'
import { showSendOutcome } from '../showSendOutcome'
import type { SendContext, SendController } from '../types'
import { bitcoinNetworkOf, isBip122Connector } from './adapter'
import { BTC_DECIMALS, parseBitcoinAmount } from './parseBitcoinAmount'

/** Errors a transfer is refused with before anything is signed: the form says them as they are. */
const refusals = new Set(['BITCOIN_AMOUNT_INVALID', 'BITCOIN_AMOUNT_BELOW_DUST', 'BITCOIN_INSUFFICIENT_FUNDS', 'BITCOIN_ADDRESS_WRONG_NETWORK', 'INVALID_ADDRESS', 'SEND_INPUT_MISSING'])
/** How often the worker asks whether the transfer is in a block. */
const CONFIRMATION_POLL_MS = 1_000

const isRefusal = (error: unknown) => refusals.has((error as { code?: string } | null)?.code ?? '')

/**
 * The send flow on Bitcoin (SPEC §4, §5, §8), in the shape of the other families' so the Send view serves it: the
 * amount in BTC, the fee the worker prices (its fee rate, the PSBT's size) shown before the wallet is asked, and the
 * rules said before anything is signed or broadcast: an address of another network, dust, more than the account can
 * spend with the fee. The PSBT is built in the worker, signed by the wallet, finalized and broadcast by the worker,
 * which then waits for its block ('Transaction confirmed').
 */
export function createSendController({ core, notifications, router, getAccount, getNetwork, getConnector, onConfirmed, now = Date.now }: SendContext): SendController {
  const isBitcoinAddress = (value: string) => decodeBitcoinAddress(value) !== undefined
  // An address of any Bitcoin network is one the field takes: one of another network gets its own sentence.
  const { loadBalances, ...form } = createSendForm({ notifications, now, checkReceiver: (value) => (isBitcoinAddress(value) ? undefined : { reason: 'badAddress' }) })
  const { store, reset } = form
  const networkName = (caipNetworkId: string) => getNetwork(caipNetworkId)?.name ?? caipNetworkId
  const symbolOf = (caipNetworkId: string) => getNetwork(caipNetworkId)?.nativeCurrency.symbol ?? 'BTC'

  /** The paying account: the connected payment address, with the public key the wallet gave for it. */
  const sender = () => {
    const { address } = getAccount()
    if (!address) return undefined
    let publicKey: string | undefined
    try {
      const connector = getConnector()
      if (isBip122Connector(connector)) publicKey = connector.bitcoinAccounts().find((a) => a.address === address)?.publicKey
    } catch {
      // no wallet: the address alone (a P2WPKH one needs no key to build)
    }
    return { address, ...(publicKey ? { publicKey } : {}) }
  }

  /** The receiver, checked against the network: INVALID_ADDRESS, or BITCOIN_ADDRESS_WRONG_NETWORK naming both networks. */
  const receiverOnNetwork = (receiver: string | undefined, caipNetworkId: string) => {
    const decoded = decodeBitcoinAddress(receiver ?? '')
    if (!decoded) throw createWidgetError('INVALID_ADDRESS', { field: 'receiverAddress', details: `not a Bitcoin address: ${String(receiver).slice(0, 100)}` })
    if (!decoded.networks.includes(bitcoinNetworkOf(caipNetworkId))) {
      throw createWidgetError('BITCOIN_ADDRESS_WRONG_NETWORK', {
        field: 'receiverAddress',
        params: { addressNetwork: describeBitcoinNetworks(decoded.networks), network: networkName(caipNetworkId) },
        details: `${receiver} is a ${describeBitcoinNetworks(decoded.networks)} address`,
      })
    }
    return receiver!
  }

  /** Builds the transfer the form holds, in the worker: every rule is checked there or here before a PSBT exists. */
  const build = async (): Promise<{ transfer: BitcoinTransfer; to: string; amount: string; caipNetworkId: string; from: string }> => {
    const { token, sendTokenAmount, receiverAddress } = store.getState()
    const { caipNetworkId } = getAccount()
    const from = sender()
    if (!token || !from) throw createWidgetError('SEND_INPUT_MISSING', { field: 'token', details: 'missing: token or account' })
    const to = receiverOnNetwork(receiverAddress, caipNetworkId)
    const amount = parseBitcoinAmount(sendTokenAmount)
    if (!core) throw createWidgetError('SOLANA_SEND_FAILED', { details: 'no core' })
    const transfer = await core.bitcoin.buildTransfer({ caipNetworkId, from, to, amount })
    return { transfer, to, amount: sendTokenAmount!, caipNetworkId, from: from.address }
  }
  const feeOf = (transfer: BitcoinTransfer, caipNetworkId: string) => {
    const amount = formatUnits(transfer.fee, BTC_DECIMALS)
    return { networkFee: { amount, symbol: symbolOf(caipNetworkId) }, feeReserve: amount }
  }

  const loadTokenBalances = async ({ force = false } = {}) => {
    const { address, caipNetworkId } = getAccount()
    if (!core || !address) return
    await loadBalances(async () => {
      const { confirmed, pending } = await core.bitcoin.getBalance({ caipNetworkId, address, force })
      const currency = getNetwork(caipNetworkId)?.nativeCurrency
      const balance: TokenBalance = {
        name: currency?.name ?? 'Bitcoin',
        symbol: currency?.symbol ?? 'BTC',
        chainId: caipNetworkId,
        value: 0,
        price: 0,
        iconUrl: '',
        quantity: { decimals: String(BTC_DECIMALS), numeric: formatUnits(confirmed + pending, BTC_DECIMALS) },
      }
      return [balance]
    }, { force })
  }

  /** A refusal is said in its own words; anything else as a send failure of ours (never a node's or a library's text). */
  const noticeOf = (error: unknown) => (isRefusal(error) ? toErrorNotice(error) : toSendErrorNotice(error, { unreachable: 'SOMETHING_WENT_WRONG' }))
  const fail = (error: WidgetError) => {
    store.setState({ loading: false, error: noticeOf(error) })
    return error
  }

  // Only the newest estimate may speak: an older one answering late is for inputs the form no longer holds.
  let estimateSequence = 0

  return {
    ...form,
    loadTokenBalances,
    isReceiverLike: isBitcoinAddress,
    /**
     * The network fee of the transfer the form holds, priced by the worker once the form is complete. A rule the
     * transfer breaks (another network's address, dust, more than the account can spend) is said at once.
     */
    async estimate() {
      const seq = ++estimateSequence
      const { token, sendTokenAmount, receiverAddress } = store.getState()
      const { caipNetworkId } = getAccount()
      if (!core || !token || !sender() || !receiverAddress || !isBitcoinAddress(receiverAddress) || !sendTokenAmount) {
        return store.setState({ networkFee: undefined, feeReserve: undefined })
      }
      // What the form says of the amount by itself (not a number, more than the balance, …) is not asked of the worker;
      // one that leaves no room for the fee keeps the fee it was priced with, which that sentence is about.
      const amountIssue = checkAmount(sendTokenAmount, { token, feeReserve: store.getState().feeReserve })
      if (amountIssue) {
        if (amountIssue.reason !== 'noRoomForFee') store.setState({ networkFee: undefined, feeReserve: undefined })
        return
      }
      try {
        const { transfer } = await build()
        if (seq === estimateSequence) store.setState(feeOf(transfer, caipNetworkId))
      } catch (error) {
        if (seq !== estimateSequence) return
        store.setState({ networkFee: undefined, feeReserve: undefined, ...(isRefusal(error) ? { error: toErrorNotice(error) } : {}) })
      }
    },
    /** Sends what the form holds. Resolves to the transaction's id once it is broadcast. */
    async send() {
      store.setState({ loading: true, error: undefined })
      let built: Awaited<ReturnType<typeof build>>
      try {
        built = await build()
      } catch (error) {
        // Refused before anything was signed: the form says why; nothing reached the wallet or the network.
        throw fail(error as WidgetError)
      }
      const { transfer, to, amount, caipNetworkId, from } = built
      // The fee this PSBT pays is on screen before the wallet is asked.
      store.setState(feeOf(transfer, caipNetworkId))
      try {
        const connector = getConnector()
        if (!isBip122Connector(connector)) throw createWidgetError('AUTH_CONNECTOR_NOT_FOUND')
        // The approve-transaction view shows what the wallet is asked to sign while the visitor decides there.
        router.push('ApproveTransaction', { to, amount, symbol: symbolOf(caipNetworkId), caipNetworkId })
        const signed = await connector.signPsbt({ psbtBase64: transfer.psbtBase64, address: from, signingIndexes: transfer.inputs.map((_, index) => index), caipNetworkId })
        const txid = await core!.bitcoin.finalizeAndBroadcast({ caipNetworkId, psbtBase64: signed })
        notifications.show(errorNotice('TRANSACTION_STARTED'), { variant: 'success' })
        const startedAt = now()
        router.reset('Account')
        reset({ keepBalances: false })
        const show = (message: ErrorNotice, variant: 'success' | 'error') => showSendOutcome({ notifications, startedAt, now, message, variant })
        void core!.bitcoin
          .waitForConfirmation({ caipNetworkId, txid, pollIntervalMs: CONFIRMATION_POLL_MS })
          .then(
            async () => {
              show(errorNotice('TRANSACTION_CONFIRMED'), 'success')
              onConfirmed?.(txid)
              await loadTokenBalances({ force: true })
            },
            (error: unknown) => {
              // A destroyed widget has no one to tell. Otherwise the wait ended without a block: the outcome is
              // unknown (a low fee can keep a transfer waiting), and sending again could pay twice.
              if ((error as { code?: unknown } | null)?.code === 'CORE_DESTROYED') return
              show(errorNotice('TRANSACTION_UNCONFIRMED'), 'error')
            },
          )
          .catch(() => {})
        return txid
      } catch (error) {
        const widgetError = error as WidgetError
        // A refusal in the wallet says so; the network's refusal is a transfer that would fail (never the node's text).
        store.setState({ loading: false, error: toSendErrorNotice(widgetError, { unreachable: 'SOMETHING_WENT_WRONG' }) })
        if (router.store.getState().view === 'ApproveTransaction') router.goBack()
        notifications.show(errorNotice(widgetError.code === 'USER_REJECTED' ? 'USER_REJECTED' : 'SOLANA_SEND_FAILED'), { variant: 'error' })
        throw error
      }
    },
  }
}
