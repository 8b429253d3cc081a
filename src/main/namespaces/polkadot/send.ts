import { decodeSs58, describeSs58Prefix, GENERIC_SS58_PREFIX, isPolkadotAddress } from '../../../shared/protocol/addresses/polkadot'
import type { PolkadotTransfer } from '../../../shared/protocol/core/polkadotApi'
import { formatUnits, parseUnits } from '../../../shared/protocol/display'
import { createWidgetError, type WidgetError } from '../../../shared/protocol/errors'
import type { TokenBalance } from '../../../shared/protocol/schemas/entities'
import { errorNotice, toErrorNotice, type ErrorNotice } from '../../state/errorNotice'
import { checkAmount, createSendForm, toSendErrorNotice } from '../sendForm'
import { showSendOutcome } from '../showSendOutcome'
import type { SendContext, SendController } from '../types'
import { isPolkadotConnector, ss58PrefixOf } from './adapter'

/** Errors a transfer is refused with before anything is signed: the form says them as they are. */
const refusals = new Set(['POLKADOT_ADDRESS_WRONG_NETWORK', 'POLKADOT_BELOW_EXISTENTIAL_DEPOSIT', 'POLKADOT_INSUFFICIENT_FUNDS', 'INVALID_ADDRESS', 'SEND_INPUT_MISSING'])
/** How often the worker looks for the block that holds the transfer. */
const INCLUSION_POLL_MS = 1_000
/** The longest wait for that block: a mortal transaction's era ends long before (the worker then says it was not included). */
const INCLUSION_MAX_WAIT_MS = 600_000

const isRefusal = (error: unknown) => refusals.has((error as { code?: string } | null)?.code ?? '')

/**
 * The send flow on Polkadot (SPEC §4, §5, §8), in the shape of the other families' so the Send view serves it: the
 * amount in the network's token with its decimals, the fee the node prices (paymentInfo) shown before the extension is
 * asked, and the rules said before anything is signed: an address of another network, an amount that would leave a
 * new account under the existential deposit, more than the account can send while keeping its own. The transfer
 * (balances.transferKeepAlive) is built in the worker, signed by the extension (signPayload), submitted by the worker,
 * which then waits for its block ('Transaction confirmed', or 'Transaction failed' when its call failed there).
 */
export function createSendController({ core, notifications, router, getAccount, getNetwork, getConnector, onConfirmed, now = Date.now }: SendContext): SendController {
  const { loadBalances, ...form } = createSendForm({ notifications, now, checkReceiver: (value) => (isPolkadotAddress(value) ? undefined : { reason: 'badAddress' }) })
  const { store, reset } = form
  const networkOf = (caipNetworkId: string) => getNetwork(caipNetworkId) ?? ({ caipNetworkId, name: caipNetworkId, nativeCurrency: { name: 'Polkadot', symbol: 'DOT', decimals: 10 } } as const)
  // What the account must keep besides the amount and the fee (its existential deposit, its locks), as last read.
  let mustKeep = 0n

  /** The receiver, checked against the network: INVALID_ADDRESS, or POLKADOT_ADDRESS_WRONG_NETWORK naming both. */
  const receiverOnNetwork = (receiver: string | undefined, caipNetworkId: string) => {
    const decoded = decodeSs58(receiver ?? '')
    if (!decoded) throw createWidgetError('INVALID_ADDRESS', { field: 'receiverAddress', details: `not an SS58 address: ${String(receiver).slice(0, 100)}` })
    const network = networkOf(caipNetworkId)
    const prefix = ss58PrefixOf(network)
    if (decoded.prefix !== prefix && decoded.prefix !== GENERIC_SS58_PREFIX) {
      throw createWidgetError('POLKADOT_ADDRESS_WRONG_NETWORK', {
        field: 'receiverAddress',
        params: { addressNetwork: describeSs58Prefix(decoded.prefix), network: network.name },
        details: `${receiver} has SS58 prefix ${decoded.prefix}; ${caipNetworkId} uses ${prefix}`,
      })
    }
    return receiver!
  }

  /** The amount in planck; anything the form's own check would not take is SEND_INPUT_MISSING. */
  const planckOf = (amount: string | undefined, decimals: number) => {
    const text = amount?.trim() ?? ''
    const fraction = text.split('.')[1] ?? ''
    const value = /^\d+(\.\d+)?$/.test(text) && fraction.replace(/0+$/, '').length <= decimals ? parseUnits(text, decimals) : 0n
    if (value <= 0n) throw createWidgetError('SEND_INPUT_MISSING', { field: 'amount', details: `not an amount of at most ${decimals} decimals: ${text.slice(0, 40)}` })
    return value
  }

  /** Builds the transfer the form holds, in the worker: every rule is checked there or here before a payload exists. */
  const build = async (): Promise<{ transfer: PolkadotTransfer; to: string; amount: string; caipNetworkId: string }> => {
    const { token, sendTokenAmount, receiverAddress } = store.getState()
    const { address, caipNetworkId } = getAccount()
    if (!token || !address) throw createWidgetError('SEND_INPUT_MISSING', { field: 'token', details: 'missing: token or account' })
    const to = receiverOnNetwork(receiverAddress, caipNetworkId)
    const amount = planckOf(sendTokenAmount, networkOf(caipNetworkId).nativeCurrency.decimals)
    if (!core) throw createWidgetError('SOLANA_SEND_FAILED', { details: 'no core' })
    const transfer = await core.polkadot.buildTransfer({ caipNetworkId, from: address, to, amount })
    return { transfer, to, amount: sendTokenAmount!, caipNetworkId }
  }
  const feeOf = (transfer: PolkadotTransfer, caipNetworkId: string) => {
    const { symbol, decimals } = networkOf(caipNetworkId).nativeCurrency
    // Max leaves the fee and what the account must keep; the fee alone is what the form shows.
    return { networkFee: { amount: formatUnits(transfer.fee, decimals), symbol }, feeReserve: formatUnits(transfer.fee + mustKeep, decimals) }
  }

  const loadTokenBalances = async ({ force = false } = {}) => {
    const { address, caipNetworkId } = getAccount()
    if (!core || !address) return
    await loadBalances(async () => {
      const { free, transferable } = await core.polkadot.getBalance({ caipNetworkId, address, force })
      mustKeep = free - transferable
      const { name, symbol, decimals } = networkOf(caipNetworkId).nativeCurrency
      const balance: TokenBalance = { name, symbol, chainId: caipNetworkId, value: 0, price: 0, iconUrl: '', quantity: { decimals: String(decimals), numeric: formatUnits(free, decimals) } }
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
    isReceiverLike: (value) => isPolkadotAddress(value),
    /**
     * The network fee of the transfer the form holds, priced by the node once the form is complete. A rule the transfer
     * breaks (another network's address, the existential deposit, more than the account can send) is said at once.
     */
    async estimate() {
      const seq = ++estimateSequence
      const { token, sendTokenAmount, receiverAddress } = store.getState()
      const { address, caipNetworkId } = getAccount()
      if (!core || !token || !address || !receiverAddress || !isPolkadotAddress(receiverAddress) || !sendTokenAmount) {
        return store.setState({ networkFee: undefined, feeReserve: undefined })
      }
      // What the form says of the amount by itself is not asked of the worker; one that leaves no room for the fee keeps
      // the fee it was priced with, which that sentence is about.
      const amountIssue = checkAmount(sendTokenAmount, { token, feeReserve: store.getState().feeReserve })
      if (amountIssue) {
        if (amountIssue.reason !== 'noRoomForFee') store.setState({ networkFee: undefined, feeReserve: undefined })
        return
      }
      try {
        const { transfer } = await build()
        if (seq === estimateSequence) store.setState({ ...feeOf(transfer, caipNetworkId), error: undefined })
      } catch (error) {
        if (seq !== estimateSequence) return
        store.setState({ networkFee: undefined, feeReserve: undefined, ...(isRefusal(error) ? { error: toErrorNotice(error) } : {}) })
      }
    },
    /** Sends what the form holds. Resolves to the transaction's hash once the node has it. */
    async send() {
      store.setState({ loading: true, error: undefined })
      let built: Awaited<ReturnType<typeof build>>
      try {
        built = await build()
      } catch (error) {
        // Refused before anything was signed: the form says why; nothing reached the extension or the network.
        throw fail(error as WidgetError)
      }
      const { transfer, to, amount, caipNetworkId } = built
      // The fee of this payload is on screen before the extension is asked.
      store.setState(feeOf(transfer, caipNetworkId))
      const { symbol } = networkOf(caipNetworkId).nativeCurrency
      try {
        const connector = getConnector()
        if (!isPolkadotConnector(connector)) throw createWidgetError('AUTH_CONNECTOR_NOT_FOUND')
        // The approve-transaction view shows what the extension is asked to sign while the visitor decides there.
        router.push('ApproveTransaction', { to, amount, symbol, caipNetworkId })
        const signature = await connector.signTransfer(transfer)
        const submission = await core!.polkadot.submitTransfer({ caipNetworkId, payload: transfer.payload, signature })
        notifications.show(errorNotice('TRANSACTION_STARTED'), { variant: 'success' })
        const startedAt = now()
        router.reset('Account')
        reset({ keepBalances: false })
        const show = (message: ErrorNotice, variant: 'success' | 'error') => showSendOutcome({ notifications, startedAt, now, message, variant })
        void core!.polkadot
          .waitForTransaction({ caipNetworkId, submission, pollIntervalMs: INCLUSION_POLL_MS, maxWaitMs: INCLUSION_MAX_WAIT_MS })
          .then(
            async (inclusion) => {
              // Included, its call failed: the fee is paid, nothing else moved.
              if (!inclusion.isSuccess) show(errorNotice('TRANSACTION_FAILED'), 'error')
              else {
                show(errorNotice('TRANSACTION_CONFIRMED'), 'success')
                onConfirmed?.(submission.hash)
              }
              await loadTokenBalances({ force: true })
            },
            (error: unknown) => {
              // A destroyed widget has no one to tell. An era that ended without the transfer says nothing was sent;
              // any other end of the wait leaves the outcome unknown (sending again could pay twice).
              const code = (error as { code?: unknown } | null)?.code
              if (code === 'CORE_DESTROYED') return
              show(errorNotice(code === 'POLKADOT_TRANSACTION_NOT_INCLUDED' ? 'POLKADOT_TRANSACTION_NOT_INCLUDED' : 'TRANSACTION_UNCONFIRMED'), 'error')
            },
          )
          .catch(() => {})
        return submission.hash
      } catch (error) {
        const widgetError = error as WidgetError
        // A refusal in the extension says so; the network's refusal is a transfer that would fail (never the node's text).
        const notice = widgetError.code === 'POLKADOT_TRANSACTION_STALE' || widgetError.code === 'POLKADOT_CANNOT_PAY_FEE' ? toErrorNotice(widgetError) : toSendErrorNotice(widgetError, { unreachable: 'SOMETHING_WENT_WRONG' })
        store.setState({ loading: false, error: notice })
        if (router.store.getState().view === 'ApproveTransaction') router.goBack()
        notifications.show(errorNotice(widgetError.code === 'USER_REJECTED' ? 'USER_REJECTED' : 'SOLANA_SEND_FAILED'), { variant: 'error' })
        throw error
      }
    },
  }
}
