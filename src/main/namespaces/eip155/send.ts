import { encodeFunctionData, erc20Abi, type Address, type Hex } from 'viem'
import { isEvmAddress } from '../../../shared/protocol/addresses/evm'
import { parseCaipAddress, parseCaipNetworkId } from '../../../shared/protocol/caip'
import { formatUnits, parseUnits } from '../../../shared/protocol/display'
import { errorNotice, toErrorNotice, type ErrorNotice } from '../../state/errorNotice'
import { createWidgetError } from '../../../shared/protocol/errors'
import { checkSendInput, exceedsBalance, isInsufficientGas, isReceiverLike } from '../../../shared/protocol/send'
import type { TokenBalance } from '../../../shared/protocol/schemas/entities'
import type { Core } from '../../core/createCore'
import { createSendForm } from '../sendForm'
import { showSendOutcome } from '../showSendOutcome'
import type { SendContext, SendController } from '../types'

const tokenAddressOf = (token: TokenBalance) => (token.address ? (parseCaipAddress(token.address)?.address as Address | undefined) : undefined)

/**
 * The send flow (SPEC §4, §5): load balances, pick a token, amount and receiver (an address or a registered name),
 * estimate gas in the worker, send through the wallet; 'Transaction started', Account with no back, form reset; when
 * the receipt lands, 'Transaction confirmed' or 'Transaction failed…' and the sender's balances refreshed.
 */
export function createSendController({ core, notifications, router, getAccount: getCaipAccount, getConnector, onConfirmed, now = Date.now }: SendContext): SendController {
  const { loadBalances, ...form } = createSendForm({ notifications, now })
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

  /** Resolves the receiver field: an address as is, a name through the name service. */
  const resolveReceiver = async (value: string): Promise<Address> => {
    if (isEvmAddress(value, { strict: false }) && value.startsWith('0x')) return value as Address
    if (!core) throw createWidgetError('NAME_RESOLVE_FAILED', { details: value })
    const profile = await core.dataService.lookupName({ name: value })
    const address = profile.addresses['60']?.address
    if (!address) throw createWidgetError('NAME_RESOLVE_FAILED', { details: `${value} has no Ethereum address` })
    store.setState({ receiverProfileName: profile.name })
    return address as Address
  }

  const buildTransaction = (from: Address, token: TokenBalance, to: Address, amount: string) => {
    const value = parseUnits(amount, Number(token.quantity.decimals))
    const tokenAddress = tokenAddressOf(token)
    return tokenAddress
      ? { from, to: tokenAddress, data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, value] }) }
      : { from, to, value: `0x${value.toString(16)}` }
  }

  const estimate = async () => {
    const { token, sendTokenAmount, receiverAddress, tokenBalances } = store.getState()
    const { address, chainId } = getAccount()
    if (!core || !address || !chainId || !token || !sendTokenAmount || !receiverAddress || !isEvmAddress(receiverAddress)) return
    try {
      const tx = buildTransaction(address, token, receiverAddress as Address, sendTokenAmount)
      const [gasPriceHex, gasHex] = (await Promise.all([
        core.request({ chainId, method: 'eth_gasPrice' }),
        core.request({ chainId, method: 'eth_estimateGas', params: [tx] }),
      ])) as [Hex, Hex]
      const gasPrice = BigInt(gasPriceHex)
      const native = tokenBalances.find((b) => b.address === undefined)
      const nativePrice = native?.price ?? 0
      const gasCost = formatUnits(gasPrice * BigInt(gasHex), 18)
      const gasCostUsd = (Number(gasCost) * nativePrice).toFixed(6)
      const networkBalanceInUSD = native ? String(native.value) : '0'
      store.setState({
        gasPrice,
        gasPriceInUSD: Number(gasCostUsd),
        networkBalanceInUSD,
        isInsufficientGas: isInsufficientGas({
          nativeBalance: native ? parseUnits(native.quantity.numeric, Number(native.quantity.decimals)) : 0n,
          gasCostUsd,
          nativeBalanceUsd: networkBalanceInUSD,
          isSmartAccount: false,
        }),
      })
    } catch (error) {
      store.setState({ error: toErrorNotice(error) })
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
    /** Sends what the form holds. Resolves to the transaction hash. */
    async send() {
      if (store.getState().gasPrice === undefined) await estimate()
      const { token, sendTokenAmount, receiverAddress, gasPrice } = store.getState()
      const { address, chainId } = getAccount()
      const missing = checkSendInput({
        namespace: 'eip155',
        token: token ? { symbol: token.symbol, decimals: token.quantity.decimals, address: tokenAddressOf(token) } : undefined,
        amount: sendTokenAmount,
        receiverAddress,
        gasPrice,
      })
      if (missing.length > 0 || !address || !chainId || !token || !sendTokenAmount || !receiverAddress) {
        const error = createWidgetError('SEND_INPUT_MISSING', { field: missing[0], details: `missing: ${missing.join(', ')}` })
        store.setState({ error: toErrorNotice(error) })
        throw error
      }
      if (exceedsBalance(sendTokenAmount, token.quantity)) {
        const error = createWidgetError('INSUFFICIENT_FUNDS', { field: 'amount', details: `${sendTokenAmount} ${token.symbol} is more than the ${token.quantity.numeric} available` })
        store.setState({ error: toErrorNotice(error) })
        throw error
      }
      store.setState({ loading: true, error: undefined })
      try {
        const to = await resolveReceiver(receiverAddress)
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
        store.setState({ loading: false, error: toErrorNotice(error) })
        if (router.store.getState().view === 'ApproveTransaction') router.goBack()
        notifications.show(errorNotice('SOMETHING_WENT_WRONG'), { variant: 'error' })
        throw error
      }
    },
  }
}
