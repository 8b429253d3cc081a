import { encodeFunctionData, erc20Abi, type Address, type Hex } from 'viem'
import { isEvmAddress } from '../../../shared/families/eip155/address'
import { parseCaipAddress } from '../../../shared/protocol/caip'
import { formatUnits, parseUnits } from '../../../shared/protocol/display'
import { createWidgetError } from '../../../shared/protocol/errors'
import { isInsufficientGas, isReceiverLike } from '../../../shared/protocol/send'
import type { TokenBalance } from '../../../shared/protocol/schemas/entities'
import type { Core } from '../../core/createCore'
import { createSendFlow, type SendFamily } from '../sendFlow'
import { isNativeToken, toSendErrorNotice, type ReceiverCheck } from '../sendForm'
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

type EvmTransfer = {
  transaction: { from: Address; to: Address; data?: Hex; value?: Hex }
  gasPrice: bigint
  /** The fee in USD, at the native token's price. */
  gasPriceInUSD: number
  networkBalanceInUSD: string
  isInsufficientGas: boolean
}

/** The transaction that moves `amount` of `token` (the native currency, or an ERC-20's `transfer`). */
const transactionOf = (from: Address, token: TokenBalance | undefined, to: Address, amount: bigint): EvmTransfer['transaction'] => {
  const tokenAddress = token && tokenAddressOf(token)
  return tokenAddress
    ? { from, to: tokenAddress, data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] }) }
    : { from, to, value: `0x${amount.toString(16)}` }
}

/**
 * EVM's part of the send flow: addresses and names (the data service resolves them), the account's tokens as the data
 * service lists them, the gas priced by the network's node through the worker and shown in USD, the wallet's
 * eth_sendTransaction, and the receipt the worker waits for. A node's refusal is said as one of our sentences.
 */
export function evmSendFamily({ getConnector }: Pick<SendContext, 'getConnector'>, core: Core | undefined): SendFamily<EvmTransfer> {
  const isSmartAccount = () => {
    try {
      return getConnector().embeddedWalletInfo?.()?.accountType === 'smartAccount'
    } catch {
      return false
    }
  }
  return {
    isAddress: isReceiverLike,
    checkReceiver: checkEvmReceiver,
    /** A name's Ethereum address (coin type 60); undefined when the service knows no such name (404, or 400 for one it cannot hold). */
    async lookupName(name) {
      if (!core) throw createWidgetError('NAME_RESOLVE_FAILED', { details: 'no core' })
      try {
        const profile = await core.dataService.lookupName({ name })
        return profile.addresses['60']?.address
      } catch (error) {
        const status = (error as { status?: unknown } | null)?.status
        if (status === 404 || status === 400) return undefined
        throw error
      }
    },
    receiverOn: (receiver) => receiver!,
    parseAmount: (amount, _caipNetworkId, token) => parseUnits(amount!, Number(token?.quantity.decimals ?? NATIVE_DECIMALS)),
    /** A plain transfer at today's gas price, with room for the wallet's fee cap. */
    async priceFeeReserve(core, { caipNetworkId }) {
      const gasPrice = BigInt((await core.request({ caipNetworkId, method: 'eth_gasPrice' })) as Hex)
      return formatUnits(gasPrice * NATIVE_TRANSFER_GAS * FEE_RESERVE_FACTOR, NATIVE_DECIMALS)
    },
    /** The transaction and its gas, priced by the node; whether the native balance pays it (SPEC §5: never asked of a smart account). */
    async buildTransfer(core, { caipNetworkId, from, to, amount, token, balances = [] }) {
      const transaction = transactionOf(from as Address, token, to as Address, amount)
      const [gasPriceHex, gasHex] = (await Promise.all([core.request({ caipNetworkId, method: 'eth_gasPrice' }), core.request({ caipNetworkId, method: 'eth_estimateGas', params: [transaction] })])) as [Hex, Hex]
      const gasPrice = BigInt(gasPriceHex)
      const native = balances.find(isNativeToken)
      const gasCost = formatUnits(gasPrice * BigInt(gasHex), NATIVE_DECIMALS)
      const gasCostUsd = (Number(gasCost) * (native?.price ?? 0)).toFixed(6)
      const networkBalanceInUSD = native ? String(native.value) : '0'
      return {
        transaction,
        gasPrice,
        gasPriceInUSD: Number(gasCostUsd),
        networkBalanceInUSD,
        isInsufficientGas: isInsufficientGas({
          nativeBalance: native ? parseUnits(native.quantity.numeric, Number(native.quantity.decimals)) : 0n,
          gasCostUsd,
          nativeBalanceUsd: networkBalanceInUSD,
          isSmartAccount: isSmartAccount(),
        }),
      }
    },
    feeOf: ({ gasPrice, gasPriceInUSD, networkBalanceInUSD, isInsufficientGas }) => ({ gasPrice, gasPriceInUSD, networkBalanceInUSD, isInsufficientGas }),
    /** The account's tokens as the data service lists them (those without decimals are not sendable). */
    async readBalances(core, { caipNetworkId, address, force }) {
      const { balances } = await core.dataService.getBalance({ address, chainId: caipNetworkId, forceUpdate: force })
      return balances.filter((b) => b.quantity.decimals !== '0')
    },
    /** The wallet signs and sends (eth_sendTransaction); the worker waits for the receipt, then the balances are read again. */
    getSigner(core) {
      const { request } = getConnector()
      if (!request) throw createWidgetError('AUTH_CONNECTOR_NOT_FOUND')
      return async ({ transfer: { transaction }, caipNetworkId, from }) => {
        const hash = (await request({ method: 'eth_sendTransaction', params: [transaction] })) as Hex
        const waitForBlock = async () => {
          const receipt = await core.waitForTransactionReceipt({ caipNetworkId, hash })
          // A mined transaction spent gas, whatever its status.
          await core.invalidateBalances({ caipNetworkId, address: from as Address })
          return { isSuccess: receipt.status === 'success' }
        }
        return { id: hash, waitForBlock }
      }
    },
    refusals: new Set(),
    /** A node's refusal of the estimate, in our words: one the native balance cannot pay is the form's own sentence. */
    describeFailure(error) {
      const notice = toSendErrorNotice(error)
      return notice.code === 'SEND_FEE_NOT_COVERED' ? { isInsufficientGas: true } : { error: notice }
    },
    failedCode: 'SOMETHING_WENT_WRONG',
  }
}

/**
 * The send flow on EVM networks (SPEC §4, §5): load balances, pick a token, amount and receiver (an address or a
 * registered name), estimate gas in the worker, send through the wallet; 'Transaction started', Account with no back,
 * form reset; when the receipt lands, 'Transaction confirmed' or 'Transaction failed…' and the balances read again.
 */
export function createSendController(context: SendContext): SendController {
  return createSendFlow(context, evmSendFamily(context, context.core))
}
