import { encodeFunctionData, erc20Abi, type Address, type Hex } from 'viem'
import { isEvmAddress } from '../../../shared/families/eip155/address'
import { parseCaipAddress, parseCaipNetworkId } from '../../../shared/protocol/caip'
import { formatUnits, parseUnits } from '../../../shared/protocol/display'
import { errorNotice, toErrorNotice, type ErrorNotice } from '../../state/errorNotice'
import { createWidgetError } from '../../../shared/protocol/errors'
import { checkSendInput, isInsufficientGas, isReceiverLike } from '../../../shared/protocol/send'
import type { TokenBalance } from '../../../shared/protocol/schemas/entities'
import type { Core } from '../../core/createCore'
import { checkAmount, createSendForm, isNativeToken, toSendErrorNotice, type ReceiverCheck, type SendState } from '../sendForm'
import { showSendOutcome } from '../showSendOutcome'
import type { SendContext, SendController } from '../types'

const tokenAddressOf = (token: TokenBalance) => (token.address ? (parseCaipAddress(token.address)?.address as Address | undefined) : undefined)

/** The gas of a plain native transfer, what the fee reserve is priced with until the real transfer is estimated. */
const NATIVE_TRANSFER_GAS = 21_000n
/**
 * The fee reserve is this many times today's fee: the wallet sets its own fee cap (commonly twice the base fee plus
 * the tip), and the node refuses a transfer whose value and fee cap together exceed the balance.
 */
const FEE_RESERVE_FACTOR = 2n
const NATIVE_DECIMALS = 18

/**
 * The receiver field on EVM networks: a 0x address (a mixed-case one must pass its EIP-55 checksum), or a name with
 * a dot for the name service (alice.tessera.id). Anything else, 40 hex digits without 0x included, is not.
 * @example checkEvmReceiver('0xF39Fd6e51aad88F6F4ce6aB8827279cffFb92266') // { reason: 'badChecksum' }
 */
export function checkEvmReceiver(value: string): ReceiverCheck {
  if (/^0x/i.test(value)) {
    if (!/^0x[0-9a-fA-F]{40}$/.test(value)) return { reason: 'badAddress' }
    return isEvmAddress(value, { strict: true }) ? undefined : { reason: 'badChecksum' }
  }
  return /^[^\s.]+(\.[^\s.]+)+$/.test(value) ? 'name' : { reason: 'badAddress' }
}

/**
 * The send flow (SPEC §4, §5): load balances, pick a token, amount and receiver (an address or a registered name),
 * estimate gas in the worker, send through the wallet; 'Transaction started', Account with no back, form reset; when
 * the receipt lands, 'Transaction confirmed' or 'Transaction failed…' and the sender's balances refreshed.
 */
export function createSendController({ core, notifications, router, getAccount: getCaipAccount, getConnector, onConfirmed, now = Date.now }: SendContext): SendController {
  const isSmartAccount = () => {
    try {
      return getConnector().embeddedWalletInfo?.()?.accountType === 'smartAccount'
    } catch {
      return false
    }
  }
  /** A name's Ethereum address (coin type 60); undefined when the service knows no such name (404, or 400 for one it cannot hold). */
  const lookupName = async (name: string): Promise<string | undefined> => {
    if (!core) throw createWidgetError('NAME_RESOLVE_FAILED', { details: 'no core' })
    try {
      const profile = await core.dataService.lookupName({ name })
      return profile.addresses['60']?.address
    } catch (error) {
      const status = (error as { status?: unknown } | null)?.status
      if (status === 404 || status === 400) return undefined
      throw error
    }
  }
  const { loadBalances, ...form } = createSendForm({ notifications, now, checkReceiver: checkEvmReceiver, lookupName })
  const { store, reset } = form
  const getAccount = () => {
    const { address, caipNetworkId } = getCaipAccount()
    return { address: address as Address | undefined, chainId: Number(parseCaipNetworkId(caipNetworkId)?.reference) || undefined }
  }
  const walletRequest = (args: { method: string; params?: unknown }) => {
    const { request } = getConnector()
    if (!request) throw createWidgetError('AUTH_CONNECTOR_NOT_FOUND')
    return request(args)
  }

  const loadTokenBalances = async ({ force = false } = {}) => {
    const { address, chainId } = getAccount()
    if (!core || !address || !chainId) return
    await loadBalances(async () => (await core.dataService.getBalance({ address, chainId: `eip155:${chainId}`, forceUpdate: force })).balances.filter((b) => b.quantity.decimals !== '0'), { force })
  }

  const buildTransaction = (from: Address, token: TokenBalance, to: Address, amount: string) => {
    const value = parseUnits(amount, Number(token.quantity.decimals))
    const tokenAddress = tokenAddressOf(token)
    return tokenAddress
      ? { from, to: tokenAddress, data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, value] }) }
      : { from, to, value: `0x${value.toString(16)}` }
  }

  /** Whether the form holds a transfer worth pricing: a token, an amount and a receiver with nothing wrong with them. */
  const isComplete = ({ token, sendTokenAmount, receiverAddress, receiverIssue, receiverName, feeReserve }: SendState) =>
    token !== undefined &&
    !!sendTokenAmount &&
    checkAmount(sendTokenAmount, { token, feeReserve }) === undefined &&
    !!receiverAddress &&
    receiverIssue === undefined &&
    (receiverName === undefined || receiverName.status === 'resolved')

  /**
   * Prices the form's transfer in the worker, in two steps:
   * 1. for the native token, once, the fee reserve (a plain transfer at today's gas price, with room for the wallet's
   *    fee cap), so Max and the room-for-fee check need no request while the visitor types;
   * 2. once the form is complete and nothing is wrong with it, the transfer's gas: the fee in USD, and whether the
   *    native balance pays it. An amount above the balance never gets here: no request is made for it.
   * The reserve is not priced again at step 2: Max would stop fitting as the gas price moves between blocks.
   * A node's refusal is said as one of our sentences, never as its text.
   */
  const estimate = async () => {
    const { address, chainId } = getAccount()
    const first = store.getState()
    if (!core || !address || !chainId || !first.token) return
    if (isNativeToken(first.token) && first.feeReserve === undefined) {
      try {
        const gasPrice = BigInt((await core.request({ chainId, method: 'eth_gasPrice' })) as Hex)
        store.setState({ feeReserve: formatUnits(gasPrice * NATIVE_TRANSFER_GAS * FEE_RESERVE_FACTOR, NATIVE_DECIMALS) })
      } catch (error) {
        store.setState({ error: toSendErrorNotice(error) })
        return
      }
    }
    const state = store.getState()
    const { token, sendTokenAmount, receiverAddress, receiverName, tokenBalances } = state
    if (!isComplete(state) || !token || !sendTokenAmount || !receiverAddress) return
    const to = (receiverName?.status === 'resolved' ? receiverName.address : receiverAddress) as Address
    try {
      const tx = buildTransaction(address, token, to, sendTokenAmount)
      const [gasPriceHex, gasHex] = (await Promise.all([
        core.request({ chainId, method: 'eth_gasPrice' }),
        core.request({ chainId, method: 'eth_estimateGas', params: [tx] }),
      ])) as [Hex, Hex]
      const latest = store.getState()
      // The visitor changed the form meanwhile: this price is for another transfer.
      if (latest.token !== token || latest.sendTokenAmount !== sendTokenAmount || latest.receiverAddress !== receiverAddress) return
      const gasPrice = BigInt(gasPriceHex)
      const gas = BigInt(gasHex)
      const native = tokenBalances.find(isNativeToken)
      const nativePrice = native?.price ?? 0
      const gasCost = formatUnits(gasPrice * gas, NATIVE_DECIMALS)
      const gasCostUsd = (Number(gasCost) * nativePrice).toFixed(6)
      const networkBalanceInUSD = native ? String(native.value) : '0'
      store.setState({
        gasPrice,
        gasPriceInUSD: Number(gasCostUsd),
        networkBalanceInUSD,
        error: undefined,
        isInsufficientGas: isInsufficientGas({
          nativeBalance: native ? parseUnits(native.quantity.numeric, Number(native.quantity.decimals)) : 0n,
          gasCostUsd,
          nativeBalanceUsd: networkBalanceInUSD,
          // SPEC §5: a smart account is never told it lacks gas (its operations may be sponsored).
          isSmartAccount: isSmartAccount(),
        }),
      })
    } catch (error) {
      const notice = toSendErrorNotice(error)
      // The node says the balance does not pay the gas: the form's own sentence for it.
      if (notice.code === 'SEND_FEE_NOT_COVERED' && !isNativeToken(token)) store.setState({ isInsufficientGas: true, gasPrice: undefined })
      else store.setState({ error: notice, gasPrice: undefined })
    }
  }

  /**
   * Says how the send ended once its receipt arrives: confirmed, or failed when it reverted; when the wait ends
   * without a receipt, that its outcome is unknown. Then refreshes the balances it changed (gas is spent either way).
   */
  const followReceipt = async (core: Core, { chainId, address, hash, startedAt }: { chainId: number; address: Address; hash: Hex; startedAt: number }) => {
    const show = (message: ErrorNotice, variant: 'success' | 'error') => showSendOutcome({ notifications, startedAt, now, message, variant })
    const receipt = await core.waitForTransactionReceipt({ chainId, hash }).catch((error: unknown) => {
      // A destroyed widget has no one to tell.
      if ((error as { code?: unknown } | null)?.code !== 'CORE_DESTROYED') show(errorNotice('TRANSACTION_UNCONFIRMED'), 'error')
      return undefined
    })
    if (!receipt) return
    const isSuccess = receipt.status === 'success'
    show(errorNotice(isSuccess ? 'TRANSACTION_CONFIRMED' : 'TRANSACTION_FAILED'), isSuccess ? 'success' : 'error')
    await core.invalidateBalances({ chainId, address })
    if (isSuccess) onConfirmed?.(hash)
    await loadTokenBalances({ force: true })
  }

  return {
    ...form,
    loadTokenBalances,
    isReceiverLike,
    estimate,
    /**
     * Sends what the form holds. Resolves to the transaction hash. What the form can tell wrong (an amount above the
     * balance, too many decimals, an unknown name…) is refused before any request, and said by the form itself.
     */
    async send() {
      const { token, sendTokenAmount, receiverAddress, feeReserve } = store.getState()
      const { address, chainId } = getAccount()
      const amountIssue = checkAmount(sendTokenAmount, { token, feeReserve })
      if (amountIssue) {
        const code = amountIssue.reason === 'overBalance' || amountIssue.reason === 'noRoomForFee' ? 'INSUFFICIENT_FUNDS' : 'SEND_INPUT_MISSING'
        throw createWidgetError(code, { field: 'amount', details: amountIssue.reason === 'overBalance' ? `${sendTokenAmount} ${token!.symbol} is more than the ${token!.quantity.numeric} available` : `amount: ${amountIssue.reason}` })
      }
      const missing = checkSendInput({
        namespace: 'eip155',
        token: token ? { symbol: token.symbol, decimals: token.quantity.decimals, address: tokenAddressOf(token) } : undefined,
        amount: sendTokenAmount,
        receiverAddress,
        gasPrice: 0n,
      })
      if (missing.length > 0 || !address || !chainId || !token || !sendTokenAmount || !receiverAddress) {
        const error = createWidgetError('SEND_INPUT_MISSING', { field: missing[0], details: `missing: ${missing.join(', ')}` })
        store.setState({ error: toErrorNotice(error) })
        throw error
      }
      store.setState({ loading: true, error: undefined })
      try {
        const to = (await form.resolveReceiver()) as Address
        if (store.getState().gasPrice === undefined) await estimate()
        const { gasPrice, error: estimateError, isInsufficientGas: isGasShort } = store.getState()
        if (gasPrice === undefined || isGasShort) {
          store.setState({ loading: false })
          throw createWidgetError('SEND_INPUT_MISSING', { field: 'gasPrice', details: estimateError?.code ?? (isGasShort ? 'insufficient gas' : 'missing: gasPrice') })
        }
        // The approve-transaction view shows what the wallet is asked to sign while the visitor decides there.
        router.push('ApproveTransaction', { to, amount: sendTokenAmount, symbol: token.symbol, chainId, gasPriceInUSD: store.getState().gasPriceInUSD })
        const hash = (await walletRequest({ method: 'eth_sendTransaction', params: [buildTransaction(address, token, to, sendTokenAmount)] })) as Hex
        notifications.show(errorNotice('TRANSACTION_STARTED'), { variant: 'success' })
        const startedAt = now()
        router.reset('Account')
        reset({ keepBalances: tokenAddressOf(token) !== undefined })
        if (core) void followReceipt(core, { chainId, address, hash, startedAt }).catch(() => {})
        return hash
      } catch (error) {
        // The form already says what is wrong with its fields or its fee; anything else is said here, in our words.
        const code = (error as { code?: unknown } | null)?.code
        const isFormIssue = code === 'NAME_RESOLVE_FAILED' || code === 'SEND_INPUT_MISSING'
        store.setState({ loading: false, ...(isFormIssue ? {} : { error: toSendErrorNotice(error, { unreachable: 'SOMETHING_WENT_WRONG' }) }) })
        if (router.store.getState().view === 'ApproveTransaction') router.goBack()
        if (!isFormIssue) notifications.show(errorNotice('SOMETHING_WENT_WRONG'), { variant: 'error' })
        throw error
      }
    },
  }
}
