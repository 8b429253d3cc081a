import type { ErrorCode } from '../../shared/protocol/errorTable'
import { createWidgetError, type WidgetError } from '../../shared/protocol/errors'
import type { TokenBalance } from '../../shared/protocol/schemas/entities'
import type { Core } from '../core/createCore'
import { errorNotice, toErrorNotice, type ErrorNotice } from '../state/errorNotice'
import { checkAmount, createSendForm, isNativeToken, toSendErrorNotice, type ReceiverCheck, type SendState } from './sendForm'
import { showSendOutcome } from './showSendOutcome'
import type { SendContext, SendController } from './types'

/** A transfer built in the worker, with what the form and the approve-transaction view say of it. */
export type BuiltTransfer<Transfer> = {
  transfer: Transfer
  /** The receiver, checked against the network (a name resolved to its address). */
  to: string
  /** The amount as typed in the form. */
  amount: string
  token: TokenBalance
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

/** The fee the form shows for a priced transfer, and what Max leaves for it. */
export type FeeFields = Partial<Pick<SendState, 'networkFee' | 'feeReserve' | 'gasPrice' | 'gasPriceInUSD' | 'networkBalanceInUSD' | 'isInsufficientGas'>>

/** What one chain family brings to the send flow: its rules, its worker calls, its wallet. */
export type SendFamily<Transfer> = {
  /** Whether a value is something the family could send to: an address of any of its networks (or a name, where names resolve). */
  isAddress(value: string): boolean
  /** The receiver field's rules, where they say more than `isAddress` (a checksum, a name to look up). */
  checkReceiver?(value: string): ReceiverCheck
  /** Looks a name up where the family has a name service: its address, undefined when the service has none. */
  lookupName?(name: string): Promise<string | undefined>
  /** The receiver as an address of `caipNetworkId`: throws INVALID_ADDRESS, or the family's wrong-network error. */
  receiverOn(receiver: string | undefined, caipNetworkId: string): string
  /** The typed amount in the token's smallest unit: throws the family's refusal of it. */
  parseAmount(amount: string | undefined, caipNetworkId: string, token?: TokenBalance): bigint
  /**
   * What the native token's fee reserve is, priced once before any amount is typed (so Max and the room-for-fee
   * check need no request while the visitor types). Without it, the reserve is the priced transfer's (`feeOf`).
   */
  priceFeeReserve?(core: Core, request: { caipNetworkId: string; from: string }): Promise<string>
  /** Builds and prices the transfer in the worker, which refuses what breaks the family's rules (dust, deposits, funds). */
  buildTransfer(core: Core, request: { caipNetworkId: string; from: string; to: string; amount: bigint; token?: TokenBalance; balances?: readonly TokenBalance[] }): Promise<Transfer>
  /** The fee the form shows, and what Max leaves for it. */
  feeOf(transfer: Transfer, caipNetworkId: string): FeeFields
  /** The account's balances on the network, as the token list shows them (the native one first). */
  readBalances(core: Core, request: { caipNetworkId: string; address: string; force: boolean }): Promise<TokenBalance[]>
  /**
   * How the connected wallet signs a built transfer and the worker sends it. Throws AUTH_CONNECTOR_NOT_FOUND when the
   * wallet is not of the family: called before the approve-transaction view opens.
   */
  getSigner(core: Core): (built: BuiltTransfer<Transfer>) => Promise<SentTransfer>
  /** Errors a transfer is refused with before anything is signed: the form says them as they are. */
  refusals: ReadonlySet<string>
  /** How a failure to price the transfer that is no refusal is said (the family's node said why); unsaid by default. */
  describeFailure?(error: unknown): Pick<SendState, 'error'> | Pick<SendState, 'isInsufficientGas'>
  /** Errors the network refuses a signed transfer with that the form says as they are (others: a transfer that would fail). */
  submitRefusals?: ReadonlySet<string>
  /** The error a wait ends with when the transfer can no longer be included: said as it is (nothing was sent). */
  notIncludedCode?: ErrorCode
  /** What send() refuses an amount or receiver the form already says is wrong with (no second sentence is shown). */
  invalidInputCode?: ErrorCode
  /** The toast of a send that failed for any reason but the visitor's refusal. */
  failedCode?: ErrorCode
}

const codeOf = (error: unknown) => (error as { code?: string } | null)?.code

/** The fee fields of a transfer no longer priced (the reserve stays where it was priced on its own). */
const unpriced = (keepReserve: boolean): FeeFields => ({
  networkFee: undefined,
  gasPrice: undefined,
  gasPriceInUSD: undefined,
  isInsufficientGas: false,
  ...(!keepReserve && { feeReserve: undefined }),
})

/**
 * The send flow every chain family shares (SPEC §4, §5, §8): the token list, the fee priced before the wallet is
 * asked, the family's refusals said before anything is signed, the approve-transaction view while the wallet decides,
 * the widget's own words for every failure, and the toasts of the wait for the block. A family brings its rules, its
 * worker calls and its wallet (`SendFamily`).
 * @example
 * export const createSendController = (context: SendContext) =>
 *   createSendFlow(context, { isAddress, receiverOn, parseAmount, buildTransfer, feeOf, readBalances, getSigner, refusals })
 */
export function createSendFlow<Transfer>(
  { core, notifications, router, getAccount, onConfirmed, now = Date.now }: SendContext,
  family: SendFamily<Transfer>,
): SendController {
  const { submitRefusals = new Set(), notIncludedCode, invalidInputCode = 'SEND_INPUT_MISSING', failedCode = 'SOLANA_SEND_FAILED' } = family
  const checkReceiver = family.checkReceiver ?? ((value: string): ReceiverCheck => (family.isAddress(value) ? undefined : { reason: 'badAddress' }))
  const { loadBalances, resolveReceiver, ...form } = createSendForm({ notifications, now, checkReceiver, ...(family.lookupName && { lookupName: family.lookupName }) })
  const { store, reset } = form
  const isRefusal = (error: unknown) => family.refusals.has(codeOf(error) ?? '')
  const clearedFee = () => unpriced(family.priceFeeReserve !== undefined)

  /** Builds the transfer the form holds, in the worker: every rule is checked there or here before it exists. */
  const build = async (): Promise<BuiltTransfer<Transfer>> => {
    const { token, sendTokenAmount, tokenBalances } = store.getState()
    const { address: from, caipNetworkId } = getAccount()
    if (!token || !from) throw createWidgetError('SEND_INPUT_MISSING', { field: 'token', details: 'missing: token or account' })
    const to = family.receiverOn(await resolveReceiver(), caipNetworkId)
    const amount = family.parseAmount(sendTokenAmount, caipNetworkId, token)
    if (!core) throw createWidgetError(failedCode, { details: 'no core' })
    const transfer = await family.buildTransfer(core, { caipNetworkId, from, to, amount, token, balances: tokenBalances })
    return { transfer, to, amount: sendTokenAmount!, token, caipNetworkId, from }
  }
  const feeOf = ({ transfer, caipNetworkId }: BuiltTransfer<Transfer>) => family.feeOf(transfer, caipNetworkId)
  /** A failure to price the transfer: a refusal in its own words, the family's reading of the rest, or nothing. */
  const failureOf = (error: unknown): Partial<SendState> => (isRefusal(error) ? { error: toErrorNotice(error) } : (family.describeFailure?.(error) ?? {}))

  const loadTokenBalances = async ({ force = false } = {}) => {
    const { address, caipNetworkId } = getAccount()
    if (!core || !address) return
    await loadBalances(() => family.readBalances(core, { caipNetworkId, address, force }), { force })
  }

  /**
   * Prices the native token's fee reserve once, so Max and the room-for-fee check need no request while the visitor
   * types. Undefined when there is nothing to price.
   */
  const priceFeeReserve = (): Promise<void> | undefined => {
    const { token, feeReserve } = store.getState()
    const { address: from, caipNetworkId } = getAccount()
    if (!core || !from || !token || !isNativeToken(token) || feeReserve !== undefined || !family.priceFeeReserve) return undefined
    return family.priceFeeReserve(core, { caipNetworkId, from }).then(
      (reserve) => store.setState({ feeReserve: reserve }),
      // No reserve: Max waits for a fee it can leave room for; the transfer's own price says what fails.
      () => {},
    )
  }

  /**
   * What the form says is wrong, refused before anything is built: nothing missing, an amount within the balance (and
   * the fee), a receiver the family takes. The form shows the issue; only a missing field gets a sentence here.
   */
  const refuseFormIssues = () => {
    const { token, sendTokenAmount, receiverAddress, receiverIssue, feeReserve } = store.getState()
    const missing = [!token && 'token', !sendTokenAmount && 'amount', !receiverAddress && 'receiverAddress'].filter((field): field is string => !!field)
    if (missing.length > 0) {
      // A token is always needed; a family may name its own error for a missing amount or receiver (SPEC §5, Solana).
      const error = createWidgetError(token ? invalidInputCode : 'SEND_INPUT_MISSING', { field: missing[0], details: `missing: ${missing.join(', ')}` })
      store.setState({ error: toErrorNotice(error) })
      throw error
    }
    const amountIssue = checkAmount(sendTokenAmount, { token, feeReserve })
    if (amountIssue) {
      const isFunds = amountIssue.reason === 'overBalance' || amountIssue.reason === 'noRoomForFee'
      throw createWidgetError(isFunds ? 'INSUFFICIENT_FUNDS' : invalidInputCode, {
        field: 'amount',
        details: amountIssue.reason === 'overBalance' ? `${sendTokenAmount} ${token!.symbol} is more than the ${token!.quantity.numeric} available` : `amount: ${amountIssue.reason}`,
      })
    }
    if (receiverIssue?.reason === 'badAddress' || receiverIssue?.reason === 'badChecksum') {
      throw createWidgetError(invalidInputCode, { field: 'receiverAddress', details: `receiverAddress: ${receiverIssue.reason}` })
    }
  }

  /** A refusal is said in its own words; anything else as a send failure of ours (never a node's or a library's text). */
  const noticeOf = (error: unknown): Partial<SendState> =>
    isRefusal(error) ? { error: toErrorNotice(error) } : (family.describeFailure?.(error) ?? { error: toSendErrorNotice(error, { unreachable: 'SOMETHING_WENT_WRONG' }) })
  /** After signing, the family's own refusals say what to do; a refusal in the wallet says so; the rest would fail. */
  const submitNoticeOf = (error: WidgetError) => (submitRefusals.has(error.code) ? toErrorNotice(error) : toSendErrorNotice(error, { unreachable: 'SOMETHING_WENT_WRONG' }))

  /** Says how the wait for the block ended, once 'Transaction started' has had its time, and reads the balances again. */
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
  // What an estimate said: a later estimate that prices the transfer (the balance grew, say) takes it back. A send's
  // error stays until the person changes something.
  let estimateSaid: ErrorNotice | undefined

  return {
    ...form,
    loadTokenBalances,
    isReceiverLike: (value) => family.isAddress(value),
    /**
     * Prices the form's transfer in the worker:
     * 1. for the native token, once, the fee reserve where the family prices it on its own (Max leaves it);
     * 2. once the form is complete and nothing is wrong with it, the transfer itself, with the family's fee. A rule
     *    the transfer breaks (another network's address, the family's minimums, more than the account can spend) is
     *    said at once. An amount the form refuses by itself is never asked of the worker.
     */
    async estimate() {
      const seq = ++estimateSequence
      const reserve = priceFeeReserve()
      if (reserve) {
        await reserve
        if (seq !== estimateSequence) return
      }
      const { token, sendTokenAmount, receiverAddress, receiverIssue, receiverName, feeReserve } = store.getState()
      const { address } = getAccount()
      // An address the family takes, or a name its service has resolved.
      const isReceiverReady = !!receiverAddress && receiverIssue === undefined && (receiverName === undefined || receiverName.status === 'resolved')
      if (!core || !token || !address || !sendTokenAmount || !isReceiverReady) return store.setState(clearedFee())
      // One that leaves no room for the fee keeps the fee it was priced with, which that sentence is about.
      const amountIssue = checkAmount(sendTokenAmount, { token, feeReserve })
      if (amountIssue) {
        if (amountIssue.reason !== 'noRoomForFee') store.setState(clearedFee())
        return
      }
      try {
        const built = await build()
        if (seq !== estimateSequence) return
        const isOwnSaying = estimateSaid !== undefined && store.getState().error === estimateSaid
        store.setState({ ...unpriced(true), ...feeOf(built), ...(isOwnSaying && { error: undefined }) })
        estimateSaid = undefined
      } catch (error) {
        if (seq !== estimateSequence) return
        const failure = failureOf(error)
        estimateSaid = 'error' in failure ? failure.error : undefined
        store.setState({ ...clearedFee(), ...failure })
      }
    },
    /** Sends what the form holds. Resolves to the transaction's id once the network has it. */
    async send() {
      refuseFormIssues()
      store.setState({ loading: true, error: undefined })
      let built: BuiltTransfer<Transfer>
      try {
        built = await build()
      } catch (error) {
        // Refused before anything was signed: the form says why; nothing reached the wallet or the network.
        const code = codeOf(error)
        const isFormIssue = code === 'NAME_RESOLVE_FAILED' || (code === 'SEND_INPUT_MISSING' && !isRefusal(error))
        store.setState({ loading: false, ...clearedFee(), ...(isFormIssue ? {} : noticeOf(error)) })
        throw error
      }
      // The fee of this transfer is on screen before the wallet is asked; one the account cannot pay stops here.
      store.setState({ ...unpriced(true), ...feeOf(built) })
      if (store.getState().isInsufficientGas) {
        store.setState({ loading: false })
        throw createWidgetError('SEND_FEE_NOT_COVERED', { field: 'gasPrice', details: 'the native balance does not pay the network fee' })
      }
      const { to, amount, token, caipNetworkId } = built
      try {
        const signAndSubmit = family.getSigner(core!)
        // The approve-transaction view shows what the wallet is asked to sign while the visitor decides there.
        const { gasPriceInUSD } = store.getState()
        router.push('ApproveTransaction', { to, amount, symbol: token.symbol, caipNetworkId, ...(gasPriceInUSD !== undefined && { gasPriceInUSD }) })
        const sent = await signAndSubmit(built)
        notifications.show(errorNotice('TRANSACTION_STARTED'), { variant: 'success' })
        const startedAt = now()
        router.reset('Account')
        // A token's transfer leaves the list as it was until the new balances are read.
        reset({ keepBalances: !isNativeToken(token) })
        watchOutcome(sent, startedAt)
        return sent.id
      } catch (error) {
        const widgetError = error as WidgetError
        store.setState({ loading: false, error: submitNoticeOf(widgetError) })
        if (router.store.getState().view === 'ApproveTransaction') router.goBack()
        notifications.show(errorNotice(widgetError.code === 'USER_REJECTED' ? 'USER_REJECTED' : failedCode), { variant: 'error' })
        throw error
      }
    },
  }
}
