import { isSolanaAddress } from '../../../shared/families/solana/address'
import { parseCaipAddress, type CaipNetworkId } from '../../../shared/protocol/caip'
import { formatUnits } from '../../../shared/protocol/display'
import { createWidgetError } from '../../../shared/protocol/errors'
import { parseSolanaAmount } from '../../../shared/families/solana/amount'
import type { TokenBalance } from '../../../shared/protocol/schemas/entities'
import type { Core } from '../../core/createCore'
import { createSendFlow, type SendFamily } from '../sendFlow'
import type { ReceiverCheck } from '../sendForm'
import type { SendContext, SendController } from '../types'

const SOL_DECIMALS = 9
const mintOf = (token: TokenBalance) => (token.address ? parseCaipAddress(token.address)?.address : undefined)
const shortMint = (mint: string) => `${mint.slice(0, 4)}…${mint.slice(-4)}`
/** The receiver field on Solana: a base58 address (no names resolve here). */
export const checkSolanaReceiver = (value: string): ReceiverCheck => (isSolanaAddress(value) ? undefined : { reason: 'badAddress' })

type SolanaTransfer = { transaction: Uint8Array; lastValidBlockHeight: bigint; fee: bigint }

/**
 * Solana's part of the send flow: base58 addresses, SOL and SPL balances read in the worker, the transfer built there
 * (creating the receiver's token account when missing) and priced by the node, signed by the wallet
 * (solana:signTransaction), sent and confirmed by the worker.
 */
export function solanaSendFamily({ getAccount, getNetwork, getConnector }: Pick<SendContext, 'getAccount' | 'getNetwork' | 'getConnector'>): SendFamily<SolanaTransfer> {
  /** The SPL mints the site named for a cluster (SolanaNetwork `tokens`); others show as their mint. */
  const knownTokensOf = (caipNetworkId: string) => {
    const network = getNetwork(caipNetworkId)
    return network?.chainNamespace === 'solana' ? (network.tokens ?? []) : []
  }
  const priced = async (core: Core, caipNetworkId: string, built: { transaction: Uint8Array; lastValidBlockHeight: bigint }) => ({
    ...built,
    fee: await core.solana.estimateFee({ caipNetworkId, transaction: built.transaction }),
  })
  return {
    isAddress: isSolanaAddress,
    receiverOn: (receiver) => receiver!,
    parseAmount: (amount, _caipNetworkId, token) => parseSolanaAmount(amount ?? '', Number(token?.quantity.decimals ?? SOL_DECIMALS)),
    /** The fee of a SOL transfer of the same shape (to the sender itself). */
    async priceFeeReserve(core, { caipNetworkId, from }) {
      const { transaction } = await core.solana.buildTransfer({ caipNetworkId, from, to: from, amount: 1n, decimals: SOL_DECIMALS })
      return formatUnits(await core.solana.estimateFee({ caipNetworkId, transaction }), SOL_DECIMALS)
    },
    async buildTransfer(core, { caipNetworkId, from, to, amount, token }) {
      const mint = token && mintOf(token)
      const decimals = Number(token?.quantity.decimals ?? SOL_DECIMALS)
      return priced(core, caipNetworkId, await core.solana.buildTransfer({ caipNetworkId, from, to, amount, ...(mint && { mint }), decimals }))
    },
    feeOf: ({ fee }) => ({ networkFee: { amount: formatUnits(fee, SOL_DECIMALS), symbol: 'SOL' } }),
    async readBalances(core, { caipNetworkId, address, force }) {
      const [lamports, tokens] = await Promise.all([core.solana.getBalance({ caipNetworkId, address, force }), core.solana.getTokenBalances({ caipNetworkId, owner: address })])
      const known = knownTokensOf(caipNetworkId)
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
    },
    /** The wallet signs the wire transaction; the worker sends it, then waits for its confirmation before it expires. */
    getSigner(core) {
      const connector = getConnector()
      if (!connector.signTransaction) throw createWidgetError('AUTH_CONNECTOR_NOT_FOUND')
      return async ({ transfer: { transaction, lastValidBlockHeight }, caipNetworkId }) => {
        const { address } = getAccount()
        if (!address) throw createWidgetError('AUTH_CONNECTOR_NOT_FOUND')
        const signed = await connector.signTransaction!(transaction, address, caipNetworkId as CaipNetworkId)
        const signature = await core.solana.sendTransaction({ caipNetworkId, transaction: signed })
        const waitForBlock = () => core.solana.waitForConfirmation({ caipNetworkId, signature, lastValidBlockHeight }).then(() => ({ isSuccess: true }))
        return { id: signature, waitForBlock }
      }
    },
    refusals: new Set(),
    // Failed on chain or expired: the spec's send failure.
    notIncludedCode: 'SOLANA_SEND_FAILED',
    // An amount or receiver the form refuses: 'Please enter a valid amount and receiver address'.
    invalidInputCode: 'SOLANA_SEND_INVALID',
  }
}

/**
 * The send flow on Solana (SPEC §4, §5, §8): SOL and SPL tokens, the fee in SOL priced before the wallet is asked; a
 * missing or invalid amount or receiver is 'Please enter a valid amount and receiver address'; a failed send 'Failed
 * to send transaction. Please try again.'.
 */
export function createSendController(context: SendContext): SendController {
  return createSendFlow(context, solanaSendFamily(context))
}
