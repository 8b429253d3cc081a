import { describeBitcoinNetworks, decodeBitcoinAddress } from '../../../shared/families/bip122/address'
import type { BitcoinTransfer } from '../../../shared/families/bip122/coreApi'
import { formatUnits } from '../../../shared/protocol/display'
import { createWidgetError } from '../../../shared/protocol/errors'
import { createSendFlow, type SendFamily } from '../sendFlow'
import type { SendContext, SendController } from '../types'
import { bitcoinNetworkOf, isBip122Connector } from './connector'
import { BTC_DECIMALS, parseBitcoinAmount } from './parseBitcoinAmount'

/** Errors a transfer is refused with before anything is signed: the form says them as they are. */
const refusals = new Set(['BITCOIN_AMOUNT_INVALID', 'BITCOIN_AMOUNT_BELOW_DUST', 'BITCOIN_INSUFFICIENT_FUNDS', 'BITCOIN_ADDRESS_WRONG_NETWORK', 'INVALID_ADDRESS', 'SEND_INPUT_MISSING'])
/** How often the worker asks whether the transfer is in a block. */
const CONFIRMATION_POLL_MS = 1_000

// An address of any Bitcoin network is one the field takes: one of another network gets its own sentence.
const isBitcoinAddress = (value: string) => decodeBitcoinAddress(value) !== undefined

/** Bitcoin's part of the send flow: its addresses and networks, BTC amounts, the worker's PSBT, the wallet's signature. */
export function bitcoinSendFamily({ getNetwork, getConnector }: Pick<SendContext, 'getNetwork' | 'getConnector'>): SendFamily<BitcoinTransfer> {
  const networkName = (caipNetworkId: string) => getNetwork(caipNetworkId)?.name ?? caipNetworkId
  const symbolOf = (caipNetworkId: string) => getNetwork(caipNetworkId)?.nativeCurrency.symbol ?? 'BTC'

  /** The paying account: the connected payment address, with the public key the wallet gave for it. */
  const sender = (address: string) => {
    let publicKey: string | undefined
    try {
      const connector = getConnector()
      if (isBip122Connector(connector)) publicKey = connector.bitcoinAccounts().find((a) => a.address === address)?.publicKey
    } catch {
      // no wallet: the address alone (a P2WPKH one needs no key to build)
    }
    return { address, ...(publicKey ? { publicKey } : {}) }
  }

  return {
    isAddress: isBitcoinAddress,
    /** The receiver, checked against the network: INVALID_ADDRESS, or BITCOIN_ADDRESS_WRONG_NETWORK naming both networks. */
    receiverOn(receiver, caipNetworkId) {
      const decoded = decodeBitcoinAddress(receiver ?? '')
      if (!decoded) throw createWidgetError('INVALID_ADDRESS', { field: 'receiverAddress', details: `not a Bitcoin address: ${String(receiver).slice(0, 100)}` })
      if (!decoded.networks.includes(bitcoinNetworkOf(caipNetworkId))) {
        throw createWidgetError('BITCOIN_ADDRESS_WRONG_NETWORK', {
          field: 'receiverAddress',
          params: { addressNetwork: describeBitcoinNetworks(decoded.networks), network: networkName(caipNetworkId) },
          details: `${receiver} is a ${describeBitcoinNetworks(decoded.networks)} address`,
        })
      }
      return receiver!
    },
    parseAmount: (amount) => parseBitcoinAmount(amount),
    buildTransfer: (core, { caipNetworkId, from, to, amount }) => core.bitcoin.buildTransfer({ caipNetworkId, from: sender(from), to, amount }),
    feeOf(transfer, caipNetworkId) {
      const amount = formatUnits(transfer.fee, BTC_DECIMALS)
      return { networkFee: { amount, symbol: symbolOf(caipNetworkId) }, feeReserve: amount }
    },
    async readBalances(core, { caipNetworkId, address, force }) {
      const { confirmed, pending } = await core.bitcoin.getBalance({ caipNetworkId, address, force })
      const currency = getNetwork(caipNetworkId)?.nativeCurrency
      return [
        {
          name: currency?.name ?? 'Bitcoin',
          symbol: currency?.symbol ?? 'BTC',
          chainId: caipNetworkId,
          value: 0,
          price: 0,
          iconUrl: '',
          quantity: { decimals: String(BTC_DECIMALS), numeric: formatUnits(confirmed + pending, BTC_DECIMALS) },
        },
      ]
    },
    /** The wallet signs every input of the PSBT; the worker finalizes and broadcasts it, then waits for its block. */
    getSigner(core) {
      const connector = getConnector()
      if (!isBip122Connector(connector)) throw createWidgetError('AUTH_CONNECTOR_NOT_FOUND')
      return async ({ transfer, from, caipNetworkId }) => {
        const signed = await connector.signPsbt({ psbtBase64: transfer.psbtBase64, address: from, signingIndexes: transfer.inputs.map((_, index) => index), caipNetworkId })
        const txid = await core.bitcoin.finalizeAndBroadcast({ caipNetworkId, psbtBase64: signed })
        // A wait that ends without a block leaves the outcome unknown: a low fee can keep a transfer waiting.
        const waitForBlock = () => core.bitcoin.waitForConfirmation({ caipNetworkId, txid, pollIntervalMs: CONFIRMATION_POLL_MS }).then(() => ({ isSuccess: true }))
        return { id: txid, waitForBlock }
      }
    },
    refusals,
  }
}

/**
 * The send flow on Bitcoin (SPEC §4, §5, §8), in the shape of the other families' so the Send view serves it: the
 * amount in BTC, the fee the worker prices (its fee rate, the PSBT's size) shown before the wallet is asked, and the
 * rules said before anything is signed or broadcast: an address of another network, dust, more than the account can
 * spend with the fee. The PSBT is built in the worker, signed by the wallet, finalized and broadcast by the worker,
 * which then waits for its block ('Transaction confirmed').
 */
export function createSendController(context: SendContext): SendController {
  return createSendFlow(context, bitcoinSendFamily(context))
}
