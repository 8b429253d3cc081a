import { decodeSs58, describeSs58Prefix, GENERIC_SS58_PREFIX, isPolkadotAddress } from '../../../shared/families/polkadot/address'
import type { PolkadotTransfer } from '../../../shared/families/polkadot/coreApi'
import { formatUnits, parseUnits } from '../../../shared/protocol/display'
import { createWidgetError } from '../../../shared/protocol/errors'
import { createSendFlow, type SendFamily } from '../sendFlow'
import type { SendContext, SendController } from '../types'
import { isPolkadotConnector, ss58PrefixOf } from './connector'

/** Errors a transfer is refused with before anything is signed: the form says them as they are. */
const refusals = new Set(['POLKADOT_ADDRESS_WRONG_NETWORK', 'POLKADOT_BELOW_EXISTENTIAL_DEPOSIT', 'POLKADOT_INSUFFICIENT_FUNDS', 'INVALID_ADDRESS', 'SEND_INPUT_MISSING'])
/** The node's refusals of a signed transfer that say what to do (prepare it again, fund the fee). */
const submitRefusals = new Set(['POLKADOT_TRANSACTION_STALE', 'POLKADOT_CANNOT_PAY_FEE'])
/** How often the worker looks for the block that holds the transfer. */
const INCLUSION_POLL_MS = 1_000
/** The longest wait for that block: a mortal transaction's era ends long before (the worker then says it was not included). */
const INCLUSION_MAX_WAIT_MS = 600_000

/** The amount in planck; anything the form's own check would not take is SEND_INPUT_MISSING. */
const planckOf = (amount: string | undefined, decimals: number) => {
  const text = amount?.trim() ?? ''
  const fraction = text.split('.')[1] ?? ''
  const value = /^\d+(\.\d+)?$/.test(text) && fraction.replace(/0+$/, '').length <= decimals ? parseUnits(text, decimals) : 0n
  if (value <= 0n) throw createWidgetError('SEND_INPUT_MISSING', { field: 'amount', details: `not an amount of at most ${decimals} decimals: ${text.slice(0, 40)}` })
  return value
}

/** Polkadot's part of the send flow: SS58 addresses and prefixes, planck amounts, the fee with what the account must keep, the extension's signature. */
export function polkadotSendFamily({ getNetwork, getConnector }: Pick<SendContext, 'getNetwork' | 'getConnector'>): SendFamily<PolkadotTransfer> {
  const networkOf = (caipNetworkId: string) => getNetwork(caipNetworkId) ?? ({ caipNetworkId, name: caipNetworkId, nativeCurrency: { name: 'Polkadot', symbol: 'DOT', decimals: 10 } } as const)
  // What the account must keep besides the amount and the fee (its existential deposit, its locks), as last read.
  let mustKeep = 0n

  return {
    isAddress: isPolkadotAddress,
    /** The receiver, checked against the network: INVALID_ADDRESS, or POLKADOT_ADDRESS_WRONG_NETWORK naming both. */
    receiverOn(receiver, caipNetworkId) {
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
    },
    parseAmount: (amount, caipNetworkId) => planckOf(amount, networkOf(caipNetworkId).nativeCurrency.decimals),
    buildTransfer: (core, { caipNetworkId, from, to, amount }) => core.polkadot.buildTransfer({ caipNetworkId, from, to, amount }),
    feeOf(transfer, caipNetworkId) {
      const { symbol, decimals } = networkOf(caipNetworkId).nativeCurrency
      // Max leaves the fee and what the account must keep; the fee alone is what the form shows.
      return { networkFee: { amount: formatUnits(transfer.fee, decimals), symbol }, feeReserve: formatUnits(transfer.fee + mustKeep, decimals) }
    },
    async readBalances(core, { caipNetworkId, address, force }) {
      const { free, transferable } = await core.polkadot.getBalance({ caipNetworkId, address, force })
      mustKeep = free - transferable
      const { name, symbol, decimals } = networkOf(caipNetworkId).nativeCurrency
      return [{ name, symbol, chainId: caipNetworkId, value: 0, price: 0, iconUrl: '', quantity: { decimals: String(decimals), numeric: formatUnits(free, decimals) } }]
    },
    /** The extension signs the payload; the worker submits it, then waits for its block within the transfer's era. */
    getSigner(core) {
      const connector = getConnector()
      if (!isPolkadotConnector(connector)) throw createWidgetError('AUTH_CONNECTOR_NOT_FOUND')
      return async ({ transfer, caipNetworkId }) => {
        const signature = await connector.signTransfer(transfer)
        const submission = await core.polkadot.submitTransfer({ caipNetworkId, payload: transfer.payload, signature })
        const waitForBlock = () => core.polkadot.waitForTransaction({ caipNetworkId, submission, pollIntervalMs: INCLUSION_POLL_MS, maxWaitMs: INCLUSION_MAX_WAIT_MS })
        return { id: submission.hash, waitForBlock }
      }
    },
    refusals,
    submitRefusals,
    notIncludedCode: 'POLKADOT_TRANSACTION_NOT_INCLUDED',
  }
}

/**
 * The send flow on Polkadot (SPEC §4, §5, §8), in the shape of the other families' so the Send view serves it: the
 * amount in the network's token with its decimals, the fee the node prices (paymentInfo) shown before the extension is
 * asked, and the rules said before anything is signed: an address of another network, an amount that would leave a
 * new account under the existential deposit, more than the account can send while keeping its own. The transfer
 * (balances.transferKeepAlive) is built in the worker, signed by the extension (signPayload), submitted by the worker,
 * which then waits for its block ('Transaction confirmed', or 'Transaction failed' when its call failed there).
 */
export function createSendController(context: SendContext): SendController {
  return createSendFlow(context, polkadotSendFamily(context))
}
