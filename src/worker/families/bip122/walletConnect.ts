import { base64, hex } from '@scure/base'
import { decodeBitcoinAddress, getBitcoinNetwork } from '../../../shared/families/bip122/address'
import { createWidgetError } from '../../../shared/protocol/errors'
import type { Bip122SignMessageParameters, Bip122SignPsbtParameters } from '../../../shared/protocol/walletConnectApi'
import type { WalletConnectFamily } from '../../walletConnect/walletConnectFamily'

/** More Bitcoin addresses than this in a session or an event are not read. */
const MAX_BITCOIN_ADDRESSES = 20
/** A PSBT (BIP-174) starts with these bytes: `psbt` and 0xff. */
const PSBT_MAGIC = [0x70, 0x73, 0x62, 0x74, 0xff]

/**
 * A wallet's Bitcoin addresses on `network` as the widget's accounts (SPEC §3, §6): of the first 20, the first that is
 * not taproot (payment) and then the first taproot one (ordinals); a lone taproot address serves as both. One that is
 * not an address of that network is WALLET_BAD_RESPONSE.
 */
const toBitcoinAddresses = (addresses: readonly unknown[], network: string): string[] => {
  const expected = getBitcoinNetwork(network)
  const unique = [...new Set(addresses.slice(0, MAX_BITCOIN_ADDRESSES))]
  const decoded = unique.map((address) => ({ address, decoded: typeof address === 'string' ? decodeBitcoinAddress(address) : undefined }))
  const invalid = decoded.find((a) => !a.decoded || (expected !== undefined && !a.decoded.networks.includes(expected)))
  if (invalid) throw createWidgetError('WALLET_BAD_RESPONSE', { details: `The wallet reported an invalid address for ${network}: ${String(invalid.address).slice(0, 100)}` })
  const payment = decoded.find((a) => a.decoded!.type !== 'p2tr')
  const ordinals = decoded.find((a) => a.decoded!.type === 'p2tr')
  return [payment, ordinals].filter((a) => a !== undefined).map((a) => a.address as string)
}

/** The addresses of a bip122_addressesChanged event: strings or `{ address }` objects, as wallets send them. */
const announcedAddresses = (data: unknown): unknown[] => (Array.isArray(data) ? data.map((entry) => (typeof entry === 'object' && entry !== null ? (entry as { address?: unknown }).address : entry)) : [])

const isHexText = (value: string) => /^(?:[0-9a-fA-F]{2})+$/.test(value)
/** The bytes of base64 text (or of hex text, when `orHex` and it is hex); undefined when it is neither. */
const readBase64 = (value: unknown, { orHex = false } = {}): Uint8Array | undefined => {
  if (typeof value !== 'string') return undefined
  try {
    return orHex && isHexText(value) ? hex.decode(value.toLowerCase()) : base64.decode(value)
  } catch {
    return undefined
  }
}
const isPsbt = (bytes: Uint8Array | undefined): bytes is Uint8Array => bytes !== undefined && PSBT_MAGIC.every((byte, i) => bytes[i] === byte)

/** A PSBT in a wallet's answer: base64 as the reference says (hex is taken too), checked to be one. */
const decodePsbt = (value: unknown): string => {
  const bytes = readBase64(value, { orHex: true })
  if (isPsbt(bytes)) return base64.encode(bytes)
  throw createWidgetError('WALLET_BAD_RESPONSE', { details: `The wallet answered an invalid PSBT: ${String(value).slice(0, 100)}` })
}

/** A BIP-322 signature in a wallet's answer: hex as the reference says, or base64 as some wallets send it; base64 out. */
const decodeBitcoinSignature = (value: unknown): string => {
  const bytes = typeof value === 'string' && value.length <= 4_096 ? readBase64(value, { orHex: true }) : undefined
  if (bytes && bytes.length > 0) return base64.encode(bytes)
  throw createWidgetError('WALLET_BAD_RESPONSE', { details: `The wallet answered an invalid Bitcoin signature: ${String(value).slice(0, 100)}` })
}

/**
 * WalletConnect's bip122 namespace, as its Bitcoin RPC reference names the methods (docs.reown.com/advanced/multichain/rpc-reference/bitcoin-rpc):
 * getAccountAddresses `{ account, intentions? }`; signMessage `{ account, address, message, protocol }` →
 * `{ address, signature: hex }`; signPsbt `{ account, psbt: base64, signInputs: [{ address, index }], broadcast }` →
 * `{ psbt: base64, txid? }`; sendTransfer (proposed for what the wallet offers; the widget builds its own PSBTs).
 * The wallet tells address changes by the bip122_addressesChanged event. The accounts are the addresses on the network
 * acted on (never another network's: a Bitcoin address belongs to one), payment first; the first is the reference's `account`.
 * @example const signature = await session.bip122.signMessage({ message, address }) // BIP-322, base64
 */
export const bip122WalletConnect = {
  methods: ['getAccountAddresses', 'signMessage', 'signPsbt', 'sendTransfer'],
  events: ['bip122_addressesChanged'],
  keepsToConfiguredNetworks: true,
  readAccounts: (accounts, network) =>
    toBitcoinAddresses(
      accounts.filter((a) => a.network === network).map((a) => a.address),
      network,
    ),
  onEvent({ name, data }, network, side) {
    // Only the network acted on: side.network() throws without one, which ignores the event.
    if (name !== 'bip122_addressesChanged' || network !== side.network()) return
    const addresses = toBitcoinAddresses(announcedAddresses(data), network)
    if (addresses.length > 0) side.announce(addresses)
  },
  requests: (side) => ({
    /** signMessage with the BIP-322 protocol: the signature comes back hex and leaves as base64. */
    async signMessage({ message, address, caipNetworkId }: Bip122SignMessageParameters): Promise<string> {
      const [account] = side.accounts(caipNetworkId)
      const result = await side.request<{ signature?: unknown } | null>('signMessage', { account, address, message, protocol: 'bip322' }, caipNetworkId)
      return decodeBitcoinSignature(result?.signature)
    },
    /**
     * signPsbt: `address` signs the inputs at `signingIndexes`; the wallet is asked not to broadcast (the worker's
     * bitcoin client finalizes and broadcasts, then waits for the block).
     */
    async signPsbt({ psbtBase64, address, signingIndexes, caipNetworkId }: Bip122SignPsbtParameters): Promise<string> {
      if (!isPsbt(readBase64(psbtBase64))) throw createWidgetError('INVALID_PARAMS', { field: 'psbtBase64', details: 'Not a base64 PSBT' })
      if (!Array.isArray(signingIndexes) || signingIndexes.length === 0 || !signingIndexes.every((i) => Number.isInteger(i) && i >= 0)) {
        throw createWidgetError('INVALID_PARAMS', { field: 'signingIndexes', details: 'The inputs to sign must be a non-empty list of input indexes' })
      }
      const [account] = side.accounts(caipNetworkId)
      const signInputs = signingIndexes.map((index) => ({ address, index }))
      const result = await side.request<{ psbt?: unknown } | null>('signPsbt', { account, psbt: psbtBase64, signInputs, broadcast: false }, caipNetworkId)
      return decodePsbt(result?.psbt)
    },
  }),
} satisfies WalletConnectFamily
