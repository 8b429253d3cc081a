import { base58, base64 } from '@scure/base'
import { isSolanaAddress } from '../../../shared/families/solana/address'
import { createWidgetError } from '../../../shared/protocol/errors'
import type { SolanaSignMessageParameters, SolanaSignTransactionParameters } from '../../../shared/protocol/walletConnectApi'
import { addressesOnNetworkOrAny, type WalletConnectFamily } from '../../walletConnect/walletConnectFamily'
import { readWireTransaction, withSignature } from './solanaWireTransaction'

/** A 64-byte signature from its base58 text in a wallet's answer. */
const decodeSignature = (value: unknown): Uint8Array => {
  if (typeof value === 'string') {
    try {
      const signature = base58.decode(value)
      if (signature.length === 64) return signature
    } catch {
      // reported below
    }
  }
  throw createWidgetError('WALLET_BAD_RESPONSE', { details: `The wallet answered an invalid Solana signature: ${String(value).slice(0, 100)}` })
}

/**
 * WalletConnect's solana namespace, as its Solana RPC reference lists the methods (docs.reown.com/advanced/multichain/rpc-reference/solana-rpc):
 * solana_signMessage `{ message: base58, pubkey }` → `{ signature: base58 }`; solana_signTransaction
 * `{ transaction: base64 wire }` → `{ signature: base58, transaction?: base64 wire }`; solana_signAndSendTransaction
 * `{ transaction, sendOptions? }` → `{ signature }` (proposed for what the wallet offers; the widget signs and sends
 * itself). No events: the namespace changes by session updates.
 * @example const signature = await session.solana.signMessage({ message, address }) // 64 bytes
 */
export const solanaWalletConnect = {
  methods: ['solana_signMessage', 'solana_signTransaction', 'solana_signAndSendTransaction'],
  events: [],
  readAccounts(accounts, cluster) {
    const addresses = addressesOnNetworkOrAny(accounts, cluster)
    const invalid = addresses.find((address) => !isSolanaAddress(address))
    if (invalid !== undefined) throw createWidgetError('WALLET_BAD_RESPONSE', { details: `The wallet reported an invalid Solana address: ${invalid}` })
    return addresses
  },
  requests: (side) => ({
    /** solana_signMessage: the message in base58, the signature back in base58. */
    async signMessage({ message, address, caipNetworkId }: SolanaSignMessageParameters): Promise<Uint8Array> {
      const result = await side.request<{ signature?: unknown } | null>('solana_signMessage', { message: base58.encode(message), pubkey: address }, caipNetworkId)
      return decodeSignature(result?.signature)
    },
    /**
     * solana_signTransaction: the wire transaction in base64. The wallet answers `transaction` (the signed wire in
     * base64; a wallet may have changed it, so it is taken as is) or only `signature`, which goes into the signer's
     * slot here (`address`'s, else the fee payer's).
     */
    async signTransaction({ transaction, caipNetworkId, address }: SolanaSignTransactionParameters): Promise<Uint8Array> {
      try {
        readWireTransaction(transaction)
      } catch (error) {
        throw createWidgetError('INVALID_PARAMS', { details: `Not a Solana wire transaction: ${(error as Error).message}`, cause: error })
      }
      const params = { transaction: base64.encode(transaction), ...(address !== undefined && { pubkey: address }) }
      const result = await side.request<{ signature?: unknown; transaction?: unknown } | null>('solana_signTransaction', params, caipNetworkId)
      if (typeof result?.transaction === 'string') {
        try {
          const signed = base64.decode(result.transaction)
          readWireTransaction(signed)
          return signed
        } catch (error) {
          throw createWidgetError('WALLET_BAD_RESPONSE', { details: `The wallet answered an invalid signed transaction: ${(error as Error).message}`, cause: error })
        }
      }
      const signature = decodeSignature(result?.signature)
      try {
        return withSignature(transaction, signature, address)
      } catch (error) {
        throw createWidgetError('WALLET_BAD_RESPONSE', { details: `The wallet's signature fits no slot: ${(error as Error).message}`, cause: error })
      }
    },
  }),
} satisfies WalletConnectFamily
