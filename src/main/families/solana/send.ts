import { isSolanaAddress } from '../../../shared/families/solana/address'
import { parseCaipAddress, type CaipNetworkId } from '../../../shared/protocol/caip'
import { formatUnits } from '../../../shared/protocol/display'
import { errorNotice, toErrorNotice, type ErrorNotice } from '../../state/errorNotice'
import { createWidgetError, type WidgetError } from '../../../shared/protocol/errors'
import { parseSolanaAmount } from '../../../shared/families/solana/amount'
import type { TokenBalance } from '../../../shared/protocol/schemas/entities'
import { checkAmount, createSendForm, isNativeToken, type ReceiverCheck } from '../sendForm'
import { showSendOutcome } from '../showSendOutcome'
import type { SendContext, SendController } from '../types'

const SOL_DECIMALS = 9
const mintOf = (token: TokenBalance) => (token.address ? parseCaipAddress(token.address)?.address : undefined)
const shortMint = (mint: string) => `${mint.slice(0, 4)}…${mint.slice(-4)}`
/** The receiver field on Solana: a base58 address (no names resolve here). */
export const checkSolanaReceiver = (value: string): ReceiverCheck => (isSolanaAddress(value) ? undefined : { reason: 'badAddress' })

/**
 * The send flow on Solana (SPEC §4, §5, §8), in the shape of the EVM one so the Send view serves both: SOL and SPL
 * balances read in the worker, the transfer built there (creating the receiver's token account when missing), signed
 * by the wallet, sent and confirmed by the worker ('Transaction confirmed'). A missing or invalid amount or receiver is
 * 'Please enter a valid amount and receiver address'; a failed send 'Failed to send transaction. Please try again.'.
 */
export function createSendController({ core, notifications, router, getAccount, getNetwork, getConnector, onConfirmed, now = Date.now }: SendContext): SendController {
  const { loadBalances, ...form } = createSendForm({ notifications, now, checkReceiver: checkSolanaReceiver })
  const { store, reset } = form
  /** The SPL mints the site named for a cluster (SolanaNetwork `tokens`); others show as their mint. */
  const getKnownTokens = (caipNetworkId: string) => {
    const network = getNetwork(caipNetworkId)
    return network?.chainNamespace === 'solana' ? (network.tokens ?? []) : []
  }
  /** The connected wallet signs a wire transaction (solana:signTransaction). */
  const signTransaction = async ({ transaction, caipNetworkId }: { transaction: Uint8Array; caipNetworkId: string }) => {
    const connector = getConnector()
    const { address } = getAccount()
    if (!connector.signTransaction || !address) throw createWidgetError('AUTH_CONNECTOR_NOT_FOUND')
    return connector.signTransaction(transaction, address, caipNetworkId as CaipNetworkId)
  }

  const loadTokenBalances = async ({ force = false } = {}) => {
    const { address, caipNetworkId } = getAccount()
    if (!core || !address) return
    await loadBalances(async () => {
      const [lamports, tokens] = await Promise.all([core.solana.getBalance({ caipNetworkId, address, force }), core.solana.getTokenBalances({ caipNetworkId, owner: address })])
      const known = getKnownTokens(caipNetworkId)
      const balance = (symbol: string, name: string, decimals: number, amount: bigint, mint?: string, iconUrl = ''): TokenBalance => ({
        name,
        symbol,
        chainId: caipNetworkId,
        ...(mint ? { address: `${caipNetworkId}:${mint}` } : {}),
        value: 0,
        price: 0,
        iconUrl,
        quantity: { decimals: String(decimals), numeric: formatUnits(amount, decimals) },
      })
      return [
        balance('SOL', 'Solana', SOL_DECIMALS, lamports),
        ...tokens.map((t) => {
          const token = known.find((k) => k.address === t.mint)
          return balance(token?.symbol ?? shortMint(t.mint), token?.name ?? t.mint, t.decimals, t.amount, t.mint, token?.iconUrl)
        }),
      ]
    }, { force })
  }

  const fail = (error: WidgetError) => {
    store.setState({ loading: false, error: toErrorNotice(error) })
    return error
  }

  return {
    ...form,
    loadTokenBalances,
    isReceiverLike: isSolanaAddress,
    /**
     * Prices the form's transfer in the worker:
     * 1. for SOL, once, the fee reserve: the fee of a transfer of the same shape (to the sender itself), so Max and the
     *    room-for-fee check need no request while the visitor types;
     * 2. once the amount and receiver are valid, the fee of the transfer itself (built in the worker). An amount above
     *    the balance never gets here: nothing is built for it.
     */
    async estimate() {
      const { address, caipNetworkId } = getAccount()
      const first = store.getState()
      if (!core || !address || !first.token) return
      if (isNativeToken(first.token) && first.feeReserve === undefined) {
        try {
          const { transaction } = await core.solana.buildTransfer({ caipNetworkId, from: address, to: address, amount: 1n, decimals: SOL_DECIMALS })
          store.setState({ feeReserve: formatUnits(await core.solana.estimateFee({ caipNetworkId, transaction }), SOL_DECIMALS) })
        } catch {
          // No reserve: Max waits for a fee it can leave room for; the send itself still says what fails.
        }
      }
      const { token, sendTokenAmount, receiverAddress, receiverIssue, feeReserve } = store.getState()
      if (!token || !sendTokenAmount || !receiverAddress || receiverIssue || checkAmount(sendTokenAmount, { token, feeReserve })) return store.setState({ networkFee: undefined })
      try {
        const amount = parseSolanaAmount(sendTokenAmount, Number(token.quantity.decimals))
        const { transaction } = await core.solana.buildTransfer({ caipNetworkId, from: address, to: receiverAddress, amount, mint: mintOf(token), decimals: Number(token.quantity.decimals) })
        const lamports = await core.solana.estimateFee({ caipNetworkId, transaction })
        const latest = store.getState()
        // The visitor changed the form meanwhile: this fee is for another transfer.
        if (latest.token !== token || latest.sendTokenAmount !== sendTokenAmount || latest.receiverAddress !== receiverAddress) return
        store.setState({ networkFee: { amount: formatUnits(lamports, SOL_DECIMALS), symbol: 'SOL' } })
      } catch {
        // a transfer the chain cannot carry: the send names it; no fee to show
        store.setState({ networkFee: undefined })
      }
    },
    /**
     * Sends what the form holds. Resolves to the transaction's signature once it is sent. What the form can tell wrong
     * (an amount above the balance, too many decimals, not an address…) is refused before any request, and said by
     * the form itself; a missing amount or receiver is the spec's 'Please enter a valid amount and receiver address'.
     */
    async send() {
      const { token, sendTokenAmount, receiverAddress, receiverIssue, feeReserve } = store.getState()
      const { address, caipNetworkId } = getAccount()
      if (!token || !address) throw fail(createWidgetError('SEND_INPUT_MISSING', { field: 'token', details: 'missing: token' }))
      const amountIssue = checkAmount(sendTokenAmount, { token, feeReserve })
      if (amountIssue) {
        const code = amountIssue.reason === 'overBalance' || amountIssue.reason === 'noRoomForFee' ? 'INSUFFICIENT_FUNDS' : 'SOLANA_SEND_INVALID'
        throw createWidgetError(code, { field: 'amount', details: amountIssue.reason === 'overBalance' ? `${sendTokenAmount} ${token.symbol} is more than the ${token.quantity.numeric} available` : `amount: ${amountIssue.reason}` })
      }
      if (receiverIssue) throw createWidgetError('SOLANA_SEND_INVALID', { field: 'receiverAddress', details: `not a Solana address: ${receiverAddress ?? ''}` })
      let amount: bigint
      try {
        if (!receiverAddress) throw createWidgetError('SOLANA_SEND_INVALID', { field: 'receiverAddress', details: 'missing: receiverAddress' })
        amount = parseSolanaAmount(sendTokenAmount ?? '', Number(token.quantity.decimals))
      } catch (error) {
        throw fail(error as WidgetError)
      }
      if (!core) throw fail(createWidgetError('SOLANA_SEND_FAILED', { details: 'no core' }))
      store.setState({ loading: true, error: undefined })
      const mint = mintOf(token)
      try {
        const { transaction, lastValidBlockHeight } = await core.solana.buildTransfer({ caipNetworkId, from: address, to: receiverAddress!, amount, mint, decimals: Number(token.quantity.decimals) })
        // The approve-transaction view shows what the wallet is asked to sign while the visitor decides there.
        router.push('ApproveTransaction', { to: receiverAddress, amount: sendTokenAmount, symbol: token.symbol, caipNetworkId })
        const signed = await signTransaction({ transaction, caipNetworkId })
        const signature = await core.solana.sendTransaction({ caipNetworkId, transaction: signed })
        notifications.show(errorNotice('TRANSACTION_STARTED'), { variant: 'success' })
        const startedAt = now()
        router.reset('Account')
        reset({ keepBalances: mint !== undefined })
        const show = (message: ErrorNotice, variant: 'success' | 'error') => showSendOutcome({ notifications, startedAt, now, message, variant })
        void core.solana
          .waitForConfirmation({ caipNetworkId, signature, lastValidBlockHeight })
          .then(
            async () => {
              show(errorNotice('TRANSACTION_CONFIRMED'), 'success')
              onConfirmed?.(signature)
              await loadTokenBalances({ force: true })
            },
            (error: unknown) => {
              const code = (error as { code?: unknown } | null)?.code
              // A destroyed widget has no one to tell. Failed on chain or expired: the spec's send failure. Anything
              // else (the wait timed out, the node failed) leaves the outcome unknown: sending again could pay twice.
              if (code === 'CORE_DESTROYED') return
              show(errorNotice(code === 'SOLANA_SEND_FAILED' ? 'SOLANA_SEND_FAILED' : 'TRANSACTION_UNCONFIRMED'), 'error')
            },
          )
          .catch(() => {})
        return signature
      } catch (error) {
        const widgetError = error as WidgetError
        // A refusal in the wallet says so; anything else is the spec's Solana send failure.
        store.setState({ loading: false, error: widgetError.code === 'USER_REJECTED' ? toErrorNotice(widgetError) : errorNotice('SOLANA_SEND_FAILED') })
        if (router.store.getState().view === 'ApproveTransaction') router.goBack()
        notifications.show(errorNotice('SOLANA_SEND_FAILED'), { variant: 'error' })
        throw error
      }
    },
  }
}
