import type { ErrorCode } from '../../shared/protocol/errorTable'
import { createWidgetError, type WidgetError } from '../../shared/protocol/errors'
import type { TokenBalance } from '../../shared/protocol/schemas/entities'
import type { Core } from '../core/createCore'
import { errorNotice, toErrorNotice, type ErrorNotice } from '../state/errorNotice'
import { checkAmount, createSendForm, toSendErrorNotice, type SendState } from './sendForm'
import { showSendOutcome } from './showSendOutcome'
import type { SendContext, SendController } from './types'

/** A transfer built in the worker, with what the form and the approve-transaction view say of it. */
export type BuiltTransfer<Transfer> = {
  transfer: Transfer
  /** The receiver, checked against the network. */
  to: string
  /** The amount as typed in the form. */
  amount: string
  caipNetworkId: string
  /** The paying account's address. */
  from: string
}

/** A transfer the worker has handed to the network: its id, and the wait for the block that holds it. */
export type SentTransfer = {
  id: string
  /** Resolves once a block holds the transfer, saying whether its call succeeded there. */
  waitForBlock: () => Promise<{ isSuccess: boolean }>
}

/** What one chain family brings to the send flow: its rules, its worker calls, its wallet. */
export type SendFamily<Transfer> = {
  /** Whether a value is an address of the family, of any of its networks (one of another network gets its own sentence). */
  isAddress(value: string): boolean
  /** The receiver as an address of `caipNetworkId`: throws INVALID_ADDRESS, or the family's wrong-network error. */
  receiverOn(receiver: string | undefined, caipNetworkId: string): string
  /** The typed amount in the network's smallest unit: throws the family's refusal of it. */
  parseAmount(amount: string | undefined, caipNetworkId: string): bigint
  /** Builds and prices the transfer in the worker, which refuses what breaks the family's rules (dust, deposits, funds). */
  buildTransfer(core: Core, request: { caipNetworkId: string; from: string; to: string; amount: bigint }): Promise<Transfer>
  /** The fee the form shows, and what Max leaves for it. */
  feeOf(transfer: Transfer, caipNetworkId: string): Pick<SendState, 'networkFee' | 'feeReserve'>
  /** The symbol of the network's native currency. */
  symbolOf(caipNetworkId: string): string
  /** The account's native balance, as the token list shows it. */
  readBalance(core: Core, request: { caipNetworkId: string; address: string; force: boolean }): Promise<TokenBalance>
  /**
   * How the connected wallet signs a built transfer and the worker sends it. Throws AUTH_CONNECTOR_NOT_FOUND when the
   * wallet is not of the family: called before the approve-transaction view opens.
   */
  getSigner(core: Core): (built: BuiltTransfer<Transfer>) => Promise<SentTransfer>
  /** Errors a transfer is refused with before anything is signed: the form says them as they are. */
  refusals: ReadonlySet<string>
  /** Errors the network refuses a signed transfer with that the form says as they are (others: a transfer that would fail). */
  submitRefusals?: ReadonlySet<string>
  /** The error a wait ends with when the transfer can no longer be included: said as it is (nothing was sent). */
  notIncludedCode?: ErrorCode
}

const codeOf = (error: unknown) => (error as { code?: string } | null)?.code

/**
 * The send flow the Bitcoin and Polkadot families share (SPEC §4, §5, §8): the fee priced before the wallet is asked,
 * the family's refusals said before anything is signed, the approve-transaction view while the wallet decides, the
 * widget's own words for every failure, and the toasts of the wait for the block.
 * @example
 * export const createSendController = (context: SendContext) =>
 *   createSendFlow(context, { isAddress, receiverOn, parseAmount, buildTransfer, feeOf, symbolOf, readBalance, getSigner, refusals })
 */
export function createSendFlow<Transfer>(
  { core, notifications, router, getAccount, onConfirmed, now = Date.now }: SendContext,
  family: SendFamily<Transfer>,
): SendController {
  const { submitRefusals = new Set(), notIncludedCode } = family
  const { loadBalances, ...form } = createSendForm({ notifications, now, checkReceiver: (value) => (family.isAddress(value) ? undefined : { reason: 'badAddress' }) })
  const { store, reset } = form
  const isRefusal = (error: unknown) => family.refusals.has(codeOf(error) ?? '')

  /** Builds the transfer the form holds, in the worker: every rule is checked there or here before it exists. */
  const build = async (): Promise<BuiltTransfer<Transfer>> => {
    const { token, sendTokenAmount, receiverAddress } = store.getState()
    const { address: from, caipNetworkId } = getAccount()
    if (!token || !from) throw createWidgetError('SEND_INPUT_MISSING', { field: 'token', details: 'missing: token or account' })
    const to = family.receiverOn(receiverAddress, caipNetworkId)
    const amount = family.parseAmount(sendTokenAmount, caipNetworkId)
    if (!core) throw createWidgetError('SOLANA_SEND_FAILED', { details: 'no core' })
    const transfer = await family.buildTransfer(core, { caipNetworkId, from, to, amount })
    return { transfer, to, amount: sendTokenAmount!, caipNetworkId, from }
  }
  const feeOf = ({ transfer, caipNetworkId }: BuiltTransfer<Transfer>) => family.feeOf(transfer, caipNetworkId)

  const loadTokenBalances = async ({ force = false } = {}) => {
    const { address, caipNetworkId } = getAccount()
    if (!core || !address) return
    await loadBalances(async () => [await family.readBalance(core, { caipNetworkId, address, force })], { force })
  }

  /** A refusal is said in its own words; anything else as a send failure of ours (never a node's or a library's text). */
  const noticeOf = (error: unknown) => (isRefusal(error) ? toErrorNotice(error) : toSendErrorNotice(error, { unreachable: 'SOMETHING_WENT_WRONG' }))
  /** After signing, the family's own refusals say what to do; a refusal in the wallet says so; the rest would fail. */
  const submitNoticeOf = (error: WidgetError) => (submitRefusals.has(error.code) ? toErrorNotice(error) : toSendErrorNotice(error, { unreachable: 'SOMETHING_WENT_WRONG' }))

  /** Says how the wait for the block ended, once 'Transaction started' has had its time, and reads the balance again. */
  const watchOutcome = ({ id, waitForBlock }: SentTransfer, startedAt: number) => {
    const show = (message: ErrorNotice, variant: 'success' | 'error') => showSendOutcome({ notifications, startedAt, now, message, variant })
    void waitForBlock()
      .then(
        async ({ isSuccess }) => {
          // Included, its call failed: the fee is paid, nothing else moved.
          if (!isSuccess) show(errorNotice('TRANSACTION_FAILED'), 'error')
          else {
            show(errorNotice('TRANSACTION_CONFIRMED'), 'success')
            onConfirmed?.(id)
          }
          await loadTokenBalances({ force: true })
        },
        (error: unknown) => {
          // A destroyed widget has no one to tell. A transfer that can no longer be included says nothing was sent;
          // any other end of the wait leaves the outcome unknown (sending again could pay twice).
          const code = codeOf(error)
          if (code === 'CORE_DESTROYED') return
          show(errorNotice(notIncludedCode !== undefined && code === notIncludedCode ? notIncludedCode : 'TRANSACTION_UNCONFIRMED'), 'error')
        },
      )
      .catch(() => {})
  }

  // Only the newest estimate may speak: an older one answering late is for inputs the form no longer holds.
  let estimateSequence = 0
  // The refusal an estimate said: a later estimate that prices the transfer (the balance grew, say) takes it back. A
  // send's error stays until the person changes something.
  let estimateRefusal: ErrorNotice | undefined

  return {
    ...form,
    loadTokenBalances,
    isReceiverLike: (value) => family.isAddress(value),
    /**
     * The network fee of the transfer the form holds, priced by the worker once the form is complete. A rule the
     * transfer breaks (another network's address, the family's minimums, more than the account can spend) is said at once.
     */
    async estimate() {
      const seq = ++estimateSequence
      const { token, sendTokenAmount, receiverAddress } = store.getState()
      const { address } = getAccount()
      if (!core || !token || !address || !receiverAddress || !family.isAddress(receiverAddress) || !sendTokenAmount) {
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
        const built = await build()
        if (seq !== estimateSequence) return
        const isRefusalShown = estimateRefusal !== undefined && store.getState().error === estimateRefusal
        store.setState({ ...feeOf(built), ...(isRefusalShown && { error: undefined }) })
      } catch (error) {
        if (seq !== estimateSequence) return
        estimateRefusal = isRefusal(error) ? toErrorNotice(error) : undefined
        store.setState({ networkFee: undefined, feeReserve: undefined, ...(estimateRefusal && { error: estimateRefusal }) })
      }
    },
    /** Sends what the form holds. Resolves to the transaction's id once the network has it. */
    async send() {
      store.setState({ loading: true, error: undefined })
      let built: BuiltTransfer<Transfer>
      try {
        built = await build()
      } catch (error) {
        // Refused before anything was signed: the form says why; nothing reached the wallet or the network.
        store.setState({ loading: false, error: noticeOf(error) })
        throw error
      }
      const { to, amount, caipNetworkId } = built
      // The fee of this transfer is on screen before the wallet is asked.
      store.setState(feeOf(built))
      try {
        const signAndSubmit = family.getSigner(core!)
        // The approve-transaction view shows what the wallet is asked to sign while the visitor decides there.
        router.push('ApproveTransaction', { to, amount, symbol: family.symbolOf(caipNetworkId), caipNetworkId })
        const sent = await signAndSubmit(built)
        notifications.show(errorNotice('TRANSACTION_STARTED'), { variant: 'success' })
        const startedAt = now()
        router.reset('Account')
        reset({ keepBalances: false })
        watchOutcome(sent, startedAt)
        return sent.id
      } catch (error) {
        const widgetError = error as WidgetError
        store.setState({ loading: false, error: submitNoticeOf(widgetError) })
        if (router.store.getState().view === 'ApproveTransaction') router.goBack()
        notifications.show(errorNotice(widgetError.code === 'USER_REJECTED' ? 'USER_REJECTED' : 'SOLANA_SEND_FAILED'), { variant: 'error' })
        throw error
      }
    },
  }
}
