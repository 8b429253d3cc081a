import { createStore } from 'zustand/vanilla'
import type { Address, Hex } from 'viem'
import { parseCaipAddress } from '../../shared/protocol/caip'
import { formatUnits, parseUnits } from '../../shared/protocol/display'
import { errorTable } from '../../shared/protocol/errorTable'
import { createWidgetError, isErrorCode } from '../../shared/protocol/errors'
import { DEFAULT_SWAP_SLIPPAGE_PERCENT, NATIVE_TOKEN_ADDRESS, type SwapQuote, type SwapToken } from '../../shared/protocol/schemas/convert'
import type { TokenBalance } from '../../shared/protocol/schemas/entities'
import type { Core } from '../core/createCore'
import { showSendOutcome } from '../families/showSendOutcome'
import type { Notifications } from '../state/createNotifications'
import type { Router } from '../state/createRouter'
import { errorNotice, toErrorNotice, type ErrorNotice } from '../state/errorNotice'

/** How long the amount rests before it is quoted (as Send's estimate): typing does not ask for a quote per keystroke. */
export const QUOTE_DELAY_MS = 300
/** Above this price impact (percent) the view warns; above the limit it refuses to swap. */
export const PRICE_IMPACT_WARNING_PERCENT = 5
export const PRICE_IMPACT_LIMIT_PERCENT = 15
/** What a native sell keeps for its fee, in fees: the wallet sets its own fee cap, commonly twice today's fee. */
const FEE_RESERVE_FACTOR = 2n
/** How long the wallet may take to say whether it sends calls atomically (EIP-5792) before the swap is asked in two steps. */
const CAPABILITIES_WAIT_MS = 2_000
/** How often, and for how long, a batch sent through EIP-5792 is followed until its receipt. */
const CALLS_STATUS_INTERVAL_MS = 1_000
const CALLS_STATUS_TIMEOUT_MS = 120_000

/** Why the form cannot swap yet, said by the view in the widget's locale, before any wallet is asked. */
export type SwapIssue =
  | { reason: 'overBalance'; symbol: string }
  | { reason: 'noRoomForFee'; symbol: string }
  | { reason: 'feeNotCovered'; symbol: string }
  | { reason: 'priceImpact'; limit: number }
  | { reason: 'tooManyDecimals'; symbol: string; decimals: number }

export type SwapState = {
  /** The tokens the chain's swap provider trades, with the account's balances (zero where it holds none). */
  tokens: TokenBalance[]
  hasLoadedTokens: boolean
  /** The network has no swap provider: the view says 'Network not supported for Swaps'. */
  isUnsupported: boolean
  from: TokenBalance | undefined
  to: TokenBalance | undefined
  /** The typed amount of `from`, as a decimal string. */
  amount: string | undefined
  quote: SwapQuote | undefined
  isQuoting: boolean
  /** Wei per gas, from the data service. */
  gasPrice: bigint | undefined
  /** What the router may spend of `from` (an ERC-20); undefined for the native currency. */
  allowance: bigint | undefined
  /**
   * The wallet sends calls atomically on this chain (EIP-5792 `atomic` supported or ready: a smart account): an
   * approval the swap needs goes with it in one batch, both or neither, instead of as its own request first. Asked of
   * the wallet the first time an approval is needed; undefined until then.
   */
  canBatch: boolean | undefined
  /** The account is a smart account: its fee may be sponsored, so the form never says it lacks gas (SPEC §5). */
  isSmartAccount: boolean
  /** A wallet request under way: the approval or the swap. */
  step: 'form' | 'approving' | 'swapping'
  /** The quote was read again when Swap was pressed and gives less: the visitor looks at the new figures first. */
  hasPriceMoved: boolean
  slippagePercent: number
  error: ErrorNotice | undefined
}

export const initialSwapState = (): SwapState => ({
  tokens: [],
  hasLoadedTokens: false,
  isUnsupported: false,
  from: undefined,
  to: undefined,
  amount: undefined,
  quote: undefined,
  isQuoting: false,
  gasPrice: undefined,
  allowance: undefined,
  canBatch: undefined,
  isSmartAccount: false,
  step: 'form',
  hasPriceMoved: false,
  slippagePercent: DEFAULT_SWAP_SLIPPAGE_PERCENT,
  error: undefined,
})

export type SwapContext = {
  core: Core | undefined
  notifications: Notifications
  router: Router
  getAccount: () => { address: Address | undefined; chainId: number | undefined; isSmartAccount?: boolean }
  walletRequest: (args: { method: string; params?: unknown }) => Promise<unknown>
  onConfirmed?: (hash: Hex) => void
  now?: () => number
}

/** A token's CAIP-10 id as the swap routes name it: the native currency as 0xeeee…eeee. */
export const swapAddressOf = (token: TokenBalance, chainId: number) => token.address ?? `eip155:${chainId}:${NATIVE_TOKEN_ADDRESS}`
const isNative = (token: TokenBalance | undefined) => token !== undefined && token.address === undefined
const baseUnits = (token: TokenBalance) => parseUnits(token.quantity.numeric, Number(token.quantity.decimals))

/** The swap provider's token as a pickable balance (none held). */
function toTokenBalance(token: SwapToken, chainId: number): TokenBalance {
  const isNativeToken = parseCaipAddress(token.address)?.address.toLowerCase() === NATIVE_TOKEN_ADDRESS
  return {
    name: token.name,
    symbol: token.symbol,
    chainId: `eip155:${chainId}`,
    ...(isNativeToken ? {} : { address: token.address }),
    value: 0,
    price: 0,
    iconUrl: token.logoUri,
    quantity: { decimals: String(token.decimals), numeric: '0' },
  }
}

/** The fee of the quoted swap in wei: its gas at the data service's gas price. */
export const swapFeeWei = ({ quote, gasPrice }: Pick<SwapState, 'quote' | 'gasPrice'>) => (quote && gasPrice !== undefined ? BigInt(quote.gas) * gasPrice : undefined)

/**
 * What stops the form from swapping, in the order a person fixes it: the amount against the balance, the native
 * currency's room for the fee, the fee itself, the price impact. Undefined when Swap may be pressed.
 */
export function findSwapIssue(state: Pick<SwapState, 'from' | 'amount' | 'quote' | 'gasPrice'> & { tokens: readonly TokenBalance[]; isSmartAccount?: boolean }): SwapIssue | undefined {
  const { from, amount, quote, tokens, isSmartAccount = false } = state
  if (!from || !amount) return undefined
  const decimals = Number(from.quantity.decimals)
  const fraction = amount.split('.')[1] ?? ''
  if (fraction.length > decimals) return { reason: 'tooManyDecimals', symbol: from.symbol, decimals }
  const sold = parseUnits(amount, decimals)
  if (sold > baseUnits(from)) return { reason: 'overBalance', symbol: from.symbol }
  const fee = swapFeeWei(state)
  const native = tokens.find(isNative)
  if (fee !== undefined && native && !isSmartAccount) {
    const nativeBalance = baseUnits(native)
    if (isNative(from) && sold + fee > nativeBalance) return { reason: 'noRoomForFee', symbol: from.symbol }
    if (!isNative(from) && fee > nativeBalance) return { reason: 'feeNotCovered', symbol: native.symbol }
  }
  if (quote && quote.priceImpact > PRICE_IMPACT_LIMIT_PERCENT) return { reason: 'priceImpact', limit: PRICE_IMPACT_LIMIT_PERCENT }
  return undefined
}

/** The least the visitor receives at the slippage, in `to`'s base units (what the router is told to insist on). */
export const minimumReceived = (quote: SwapQuote, slippagePercent: number) => (BigInt(quote.toAmount) * BigInt(Math.round((100 - slippagePercent) * 100))) / 10_000n

/**
 * Swap on the connected EVM network (SPEC §1, §2, §9), through the data service's convert routes in the worker:
 * 1. the provider's tokens with the account's balances; the quote read again as the amount changes (the view debounces);
 * 2. what would stop the swap (balance, fee, price impact) is said before any wallet is asked;
 * 3. an ERC-20 the router may not spend yet is approved for the exact amount: in the swap's own batch when the wallet
 *    sends calls atomically (EIP-5792; a smart account), else first, as its own wallet request;
 * 4. Swap reads the quote again at the latest block: a lower figure is shown instead of signed; else the swap is built
 *    at the slippage and the wallet asked; 'Transaction started', then confirmed, or refused on chain because the
 *    price moved, said in a sentence; balances are read again.
 * @example const swap = createSwapController(context); await swap.load(); swap.setAmount('0.1'); await swap.refreshQuote()
 */
export function createSwapController({ core, notifications, router, getAccount, walletRequest, onConfirmed, now = Date.now }: SwapContext) {
  const store = createStore<SwapState>()(initialSwapState)
  /** The form a quote is for: an answer for another one is dropped. */
  const formKey = ({ from, to, amount }: Pick<SwapState, 'from' | 'to' | 'amount'>) => (from && to && amount ? `${from.symbol}|${from.address}|${to.address}|${amount}` : undefined)
  const requireAccount = () => {
    const { address, chainId } = getAccount()
    if (!core || !address || !chainId) throw createWidgetError('NO_ACTIVE_CAIP_ADDRESS')
    return { core, address, chainId }
  }

  /** Reads the tokens and balances; `force` reads past the data service's cache (after a swap of ours landed). */
  async function load({ force = false }: { force?: boolean } = {}) {
    const { address, chainId, isSmartAccount = false } = getAccount()
    if (!core || !address || !chainId) return
    store.setState({ isSmartAccount })
    try {
      const [{ tokens }, { balances }] = await Promise.all([core.dataService.getSwapTokens({ chainId: `eip155:${chainId}` }), core.dataService.getBalance({ address, chainId: `eip155:${chainId}`, ...(force ? { forceUpdate: true } : {}) })])
      const held = new Map(balances.map((balance) => [swapAddressOf(balance, chainId).toLowerCase(), balance]))
      const list = tokens.map((token) => held.get(token.address.toLowerCase()) ?? toTokenBalance(token, chainId))
      const { from, to } = store.getState()
      const pick = (chosen: TokenBalance | undefined) => (chosen ? list.find((t) => t.address === chosen.address) : undefined)
      store.setState({ tokens: list, hasLoadedTokens: true, isUnsupported: false, from: pick(from) ?? list.find(isNative) ?? list[0], to: pick(to) ?? list.find((t) => !isNative(t)) })
    } catch (error) {
      const code = (error as { code?: unknown } | null)?.code
      store.setState({ hasLoadedTokens: true, ...(code === 'SWAP_NETWORK_UNSUPPORTED' ? { isUnsupported: true } : { error: toErrorNotice(error, 'TOKEN_BALANCE_UNAVAILABLE') }) })
    }
  }

  /** Whether the wallet sends calls atomically on the chain (EIP-5792 v2 `atomic`, or v1's `atomicBatch`); no answer is no. */
  async function readCanBatch(address: Address, chainId: number): Promise<boolean> {
    const chain = `0x${chainId.toString(16)}`
    const asking = Promise.resolve()
      .then(() => walletRequest({ method: 'wallet_getCapabilities', params: [address, [chain]] }))
      .catch(() => undefined)
    const answer = await Promise.race([asking, new Promise<undefined>((resolve) => setTimeout(resolve, CAPABILITIES_WAIT_MS))])
    const capabilities = (answer as Record<string, { atomic?: { status?: unknown }; atomicBatch?: { supported?: unknown } } | undefined> | undefined)?.[chain]
    return capabilities?.atomic?.status === 'supported' || capabilities?.atomic?.status === 'ready' || capabilities?.atomicBatch?.supported === true
  }

  /** Chooses a side's token; choosing the other side's token turns the pair around. */
  function choose(side: 'from' | 'to', token: TokenBalance) {
    const state = store.getState()
    const other = side === 'from' ? state.to : state.from
    if (other && other.address === token.address) return flip()
    store.setState({ [side]: token, quote: undefined, allowance: undefined, hasPriceMoved: false, error: undefined })
  }
  function flip() {
    const { from, to } = store.getState()
    store.setState({ from: to, to: from, quote: undefined, allowance: undefined, hasPriceMoved: false, error: undefined })
  }
  const setAmount = (amount: string | undefined) => store.setState({ amount: amount || undefined, quote: undefined, hasPriceMoved: false, error: undefined })

  /** Reads the quote for the form, with the router's allowance of `from` and the gas price; stale answers are dropped. */
  async function refreshQuote() {
    const { address, chainId } = getAccount()
    const state = store.getState()
    const key = formKey(state)
    const { from, to, amount } = state
    if (!core || !address || !chainId || !key || !from || !to || !amount) return
    const issue = findSwapIssue({ ...state, quote: undefined, gasPrice: undefined })
    if (issue || Number(amount) <= 0) return
    store.setState({ isQuoting: true })
    try {
      const caipChainId = `eip155:${chainId}`
      // The quote is priced at the gas price it names (SPEC §7); the allowance is read meanwhile.
      const allowanceRead = isNative(from) ? undefined : core.dataService.getAllowance({ chainId: caipChainId, tokenAddress: from.address!, userAddress: address })
      allowanceRead?.catch(() => {})
      const gas = await core.dataService.getGasPrice({ chainId: caipChainId })
      const [quotes, allowance] = await Promise.all([
        core.dataService.getSwapQuote({ chainId: caipChainId, amount: String(parseUnits(amount, Number(from.quantity.decimals))), userAddress: address, from: swapAddressOf(from, chainId), to: swapAddressOf(to, chainId), gasPrice: gas.standard }),
        allowanceRead,
      ])
      if (formKey(store.getState()) !== key) return
      const quote = quotes.quotes[0]
      if (!quote) throw createWidgetError('SWAP_QUOTE_UNAVAILABLE', { details: 'no quote' })
      store.setState({ quote, gasPrice: BigInt(gas.standard), allowance: allowance ? BigInt(allowance.allowance) : undefined, error: undefined })
      if (needsApproval() && store.getState().canBatch === undefined) store.setState({ canBatch: await readCanBatch(address, chainId) })
    } catch (error) {
      if (formKey(store.getState()) === key) store.setState({ quote: undefined, error: toErrorNotice(error, 'SWAP_QUOTE_UNAVAILABLE') })
    } finally {
      if (formKey(store.getState()) === key) store.setState({ isQuoting: false })
    }
  }

  /** The largest amount of `from` Max offers: a native sell keeps room for the fee (twice today's). */
  function maxAmount(): string | undefined {
    const { from, quote, gasPrice } = store.getState()
    if (!from) return undefined
    const balance = baseUnits(from)
    if (!isNative(from)) return from.quantity.numeric
    const fee = (swapFeeWei({ quote, gasPrice }) ?? 0n) * FEE_RESERVE_FACTOR
    return formatUnits(balance > fee ? balance - fee : 0n, Number(from.quantity.decimals))
  }

  const needsApproval = () => {
    const { from, amount, allowance } = store.getState()
    return !isNative(from) && !!from && !!amount && allowance !== undefined && allowance < parseUnits(amount, Number(from.quantity.decimals))
  }
  /** The approval goes in the swap's batch (one press, both or neither) rather than as a request of its own first. */
  const isApprovalBatched = () => needsApproval() && store.getState().canBatch === true

  /** Waits for a transaction the wallet sent; resolves to whether it succeeded (undefined: the wait ended without a receipt). */
  const receiptOf = async (chainId: number, hash: Hex) => {
    const receipt = await core!.waitForTransactionReceipt({ chainId, hash }).catch(() => undefined)
    return receipt ? receipt.status === 'success' : undefined
  }

  /** The approval of exactly the typed amount, its own wallet request; the allowance is read again once it lands. */
  async function approve() {
    const { core, address, chainId } = requireAccount()
    const { from, to, amount } = store.getState()
    if (!from || !to || !amount || isNative(from)) return
    store.setState({ step: 'approving', error: undefined })
    try {
      const { tx } = await core.dataService.buildApproveTransaction({ chainId: `eip155:${chainId}`, userAddress: address, from: swapAddressOf(from, chainId), to: swapAddressOf(to, chainId), amount: String(parseUnits(amount, Number(from.quantity.decimals))) })
      const hash = (await walletRequest({ method: 'eth_sendTransaction', params: [{ from: tx.from, to: tx.to, data: tx.data, value: '0x0', gas: `0x${BigInt(tx.eip155.gas).toString(16)}` }] })) as Hex
      notifications.show(errorNotice('TRANSACTION_STARTED'), { variant: 'success' })
      const isSuccess = await receiptOf(chainId, hash)
      if (isSuccess === false) throw createWidgetError('TRANSACTION_FAILED', { details: `approval ${hash} reverted` })
      const { allowance } = await core.dataService.getAllowance({ chainId: `eip155:${chainId}`, tokenAddress: from.address!, userAddress: address })
      store.setState({ allowance: BigInt(allowance) })
    } catch (error) {
      store.setState({ error: toWalletErrorNotice(error) })
    } finally {
      store.setState({ step: 'form' })
    }
  }

  /**
   * The swap: the quote read again at the latest block (a lower figure is shown, not signed), built at the slippage,
   * signed by the wallet (with the approval it needs, when batched). Resolves to the transaction hash; undefined when
   * nothing was sent, or when a batch was (its hash is known once the wallet reports it).
   */
  async function swap(): Promise<Hex | undefined> {
    const { core, address, chainId } = requireAccount()
    const shown = store.getState()
    const { from, to, amount, quote, slippagePercent } = shown
    if (!from || !to || !amount || !quote || findSwapIssue(shown) || (needsApproval() && !isApprovalBatched())) return undefined
    const key = formKey(shown)
    store.setState({ step: 'swapping', error: undefined, hasPriceMoved: false })
    try {
      await refreshQuote()
      const fresh = store.getState()
      if (formKey(fresh) !== key || !fresh.quote) return undefined
      if (BigInt(fresh.quote.toAmount) < BigInt(quote.toAmount)) {
        store.setState({ hasPriceMoved: true })
        return undefined
      }
      if (findSwapIssue(fresh)) return undefined
      const pair = { chainId: `eip155:${chainId}`, amount: fresh.quote.fromAmount, from: swapAddressOf(from, chainId), to: swapAddressOf(to, chainId), userAddress: address }
      const [{ tx, minimumReceived: least }, approval] = await Promise.all([
        core.dataService.buildSwapTransaction({ ...pair, slippage: slippagePercent }),
        needsApproval() ? core.dataService.buildApproveTransaction(pair) : undefined,
      ])
      // The router insists on no less than the slippage allows of the figure shown.
      if (BigInt(least) < minimumReceived(fresh.quote, slippagePercent)) throw createWidgetError('SWAP_QUOTE_UNAVAILABLE', { details: `built for at least ${least}, shown ${fresh.quote.toAmount}` })
      const value = `0x${BigInt(tx.amount).toString(16)}`
      const sent = approval
        ? ((await walletRequest({
            method: 'wallet_sendCalls',
            params: [{ version: '2.0.0', chainId: `0x${chainId.toString(16)}`, from: address, atomicRequired: true, calls: [{ to: approval.tx.to, data: approval.tx.data, value: '0x0' }, { to: tx.to, data: tx.data, value }] }],
          })) as { id: string })
        : ((await walletRequest({ method: 'eth_sendTransaction', params: [{ from: tx.from, to: tx.to, data: tx.data, value, gas: `0x${BigInt(tx.eip155.gas).toString(16)}` }] })) as Hex)
      notifications.show(errorNotice('TRANSACTION_STARTED'), { variant: 'success' })
      const startedAt = now()
      router.reset('Account')
      store.setState({ amount: undefined, quote: undefined, allowance: undefined })
      const outcome = typeof sent === 'string' ? receiptOf(chainId, sent).then((isSuccess) => ({ isSuccess, hash: sent })) : batchOutcome(sent.id)
      void followSwap({ chainId, address, outcome, startedAt })
      return typeof sent === 'string' ? sent : undefined
    } catch (error) {
      store.setState({ error: toWalletErrorNotice(error) })
      return undefined
    } finally {
      store.setState({ step: 'form' })
    }
  }

  /**
   * How a batch sent through EIP-5792 ended, from wallet_getCallsStatus: success only when every call landed (200);
   * the last receipt's hash names it. Undefined success: no final status within the wait.
   */
  async function batchOutcome(id: string): Promise<{ isSuccess: boolean | undefined; hash: Hex | undefined }> {
    for (let waited = 0; waited < CALLS_STATUS_TIMEOUT_MS; waited += CALLS_STATUS_INTERVAL_MS) {
      const status = (await walletRequest({ method: 'wallet_getCallsStatus', params: [id] }).catch(() => undefined)) as { status?: number; receipts?: { transactionHash?: Hex }[] } | undefined
      const code = status?.status ?? 100
      if (code >= 200) return { isSuccess: code === 200, hash: status?.receipts?.at(-1)?.transactionHash }
      await new Promise((resolve) => setTimeout(resolve, CALLS_STATUS_INTERVAL_MS))
    }
    return { isSuccess: undefined, hash: undefined }
  }

  /** Says how the swap ended: confirmed, or refused on chain (the price moved past the slippage); then balances. */
  async function followSwap({ chainId, address, outcome, startedAt }: { chainId: number; address: Address; outcome: Promise<{ isSuccess: boolean | undefined; hash: Hex | undefined }>; startedAt: number }) {
    const { isSuccess, hash } = await outcome
    const message = isSuccess === undefined ? errorNotice('TRANSACTION_UNCONFIRMED') : errorNotice(isSuccess ? 'TRANSACTION_CONFIRMED' : 'SWAP_PRICE_MOVED')
    showSendOutcome({ notifications, startedAt, now, message, variant: isSuccess ? 'success' : 'error' })
    await core!.invalidateBalances({ chainId, address }).catch(() => {})
    if (isSuccess && hash) onConfirmed?.(hash)
    await load({ force: isSuccess !== undefined })
  }

  return {
    store,
    load,
    choose,
    flip,
    setAmount,
    refreshQuote,
    maxAmount,
    needsApproval,
    isApprovalBatched,
    approve,
    swap,
    setSlippage: (slippagePercent: number) => store.setState({ slippagePercent }),
    reset: () => store.setState(initialSwapState()),
  }
}

/**
 * A wallet's or the chain's refusal as the visitor can act on it, never the node's text: a declined request, a fee the
 * balance does not cover, a revert (the price moved past the slippage while the wallet estimated), another node error.
 */
function toWalletErrorNotice(error: unknown): ErrorNotice {
  const code = (error as { code?: unknown } | null)?.code
  if (code === 4001) return errorNotice('USER_REJECTED')
  if (!isErrorCode(code)) return errorNotice('SOMETHING_WENT_WRONG')
  if (code === 'INSUFFICIENT_FUNDS') return errorNotice('SEND_FEE_NOT_COVERED')
  if (code === 'EXECUTION_REVERTED' || code === 'CONTRACT_FUNCTION_REVERTED') return errorNotice('SWAP_PRICE_MOVED')
  const { kind } = errorTable[code]
  if (kind === 'node' || kind === 'contract') return errorNotice('SWAP_WOULD_FAIL')
  if (kind === 'transport') return errorNotice('SWAP_QUOTE_UNAVAILABLE')
  return toErrorNotice(error)
}

export type SwapController = ReturnType<typeof createSwapController>
