import { base64, hex } from '@scure/base'
import { crypto as bitcoinCrypto, networks, payments, Psbt, type Network } from 'bitcoinjs-lib'
import { ECPairFactory, type ECPairInterface } from 'ecpair'
import * as ecc from 'tiny-secp256k1'
import { signBip322 } from '../../../src/shared/families/bip122/bip322'
import { getBitcoinNetwork, type BitcoinNetwork } from '../../../src/shared/families/bip122/address'
import { deriveBitcoinAccounts } from '../../chain/bitcoin/devKeys'

const ecpair = ECPairFactory(ecc)
const libraryNetworks: Record<BitcoinNetwork, Network> = { mainnet: networks.bitcoin, testnet: networks.testnet, signet: networks.testnet, regtest: networks.regtest }

export type NodeBitcoinSignerParameters = {
  /** Which Bitcoin dev account (services/chain/bitcoin/devKeys: payment m/84'/1'/0'/0/i, ordinals m/86'/1'/0'/0/i). */
  keyIndex: number
  /** The networks (CAIP-2) it offers; the same keys, each network's addresses. */
  caipNetworkIds: readonly string[]
}

/** A refusal as the wallet answers it: a JSON-RPC code (4100 not authorized, 4200 unsupported, -32602 bad params). */
class NodeBitcoinSignerError extends Error {
  constructor(readonly code: number, message: string) {
    super(message)
  }
}

type Key = { address: string; purpose: 'payment' | 'ordinals'; privateKey: Uint8Array; publicKey: string; outputScript: Uint8Array }

/**
 * The bip122 side of the Node wallet: one regtest dev account's payment (P2WPKH) and ordinals (P2TR key path) keys,
 * written as addresses of every network it offers, answering WalletConnect's Bitcoin RPC
 * (docs.reown.com/advanced/multichain/rpc-reference/bitcoin-rpc): signMessage with BIP-322 (simple, hex out) and
 * signPsbt (its own inputs only, never broadcast).
 * @example const signer = createNodeBitcoinSigner({ keyIndex: 0, caipNetworkIds: ['bip122:0f9188f13cb7b2c71f2a335e3a4fc328'] })
 */
export function createNodeBitcoinSigner({ keyIndex, caipNetworkIds }: NodeBitcoinSignerParameters) {
  const account = deriveBitcoinAccounts({ count: keyIndex + 1 })[keyIndex]!
  const keysOn = (caipNetworkId: string): Key[] => {
    const name = getBitcoinNetwork(caipNetworkId)
    if (!name) throw new Error(`${caipNetworkId} is not a Bitcoin network the Node wallet knows`)
    const network = libraryNetworks[name]
    const payment = payments.p2wpkh({ pubkey: hex.decode(account.payment.publicKey), network })
    const ordinals = payments.p2tr({ internalPubkey: hex.decode(account.ordinals.publicKey), network })
    return [
      { address: payment.address!, purpose: 'payment', privateKey: hex.decode(account.payment.privateKey), publicKey: account.payment.publicKey, outputScript: payment.output! },
      { address: ordinals.address!, purpose: 'ordinals', privateKey: hex.decode(account.ordinals.privateKey), publicKey: account.ordinals.publicKey, outputScript: ordinals.output! },
    ]
  }
  const keys = new Map(caipNetworkIds.map((network) => [network, keysOn(network)]))
  const keyOf = (network: string, address: unknown) => {
    const key = keys.get(network)?.find((k) => k.address === address)
    if (!key) throw new NodeBitcoinSignerError(4100, `${String(address)} is not this wallet's address on ${network}`)
    return key
  }
  /** The key that signs for it: the payment key as is, the ordinals key tweaked as BIP-86 tweaks a key path without scripts. */
  const signerOf = (key: Key): ECPairInterface => {
    const pair = ecpair.fromPrivateKey(key.privateKey)
    return key.purpose === 'payment' ? pair : pair.tweak(bitcoinCrypto.taggedHash('TapTweak', hex.decode(key.publicKey)))
  }

  /** The result of one request, or a NodeBitcoinSignerError; undefined for a method it does not know. */
  const answerRequest = (method: string, args: unknown, network: string): unknown => {
    if (method === 'signMessage') {
      // { account, address, message, protocol } → { address, signature: hex }
      const { address, message, protocol } = (args ?? {}) as { address?: unknown; message?: unknown; protocol?: unknown }
      if (protocol !== undefined && protocol !== 'bip322') throw new NodeBitcoinSignerError(-32602, `The Node wallet signs with BIP-322 only, not ${String(protocol)}`)
      if (typeof message !== 'string') throw new NodeBitcoinSignerError(-32602, 'The message must be text')
      const key = keyOf(network, address)
      return { address: key.address, signature: hex.encode(base64.decode(signBip322({ message, address: key.address, privateKey: key.privateKey }))) }
    }
    if (method === 'signPsbt') {
      // { account, psbt: base64, signInputs: [{ address, index }], broadcast } → { psbt: base64 }
      const { psbt: psbtBase64, signInputs, broadcast } = (args ?? {}) as { psbt?: unknown; signInputs?: unknown; broadcast?: unknown }
      if (broadcast === true) throw new NodeBitcoinSignerError(4200, 'The Node wallet does not broadcast')
      let psbt: Psbt
      try {
        psbt = Psbt.fromBase64(String(psbtBase64))
      } catch (error) {
        throw new NodeBitcoinSignerError(-32602, `Not a PSBT: ${(error as Error).message}`)
      }
      if (!Array.isArray(signInputs)) throw new NodeBitcoinSignerError(-32602, 'signInputs must be a list')
      for (const { address, index } of signInputs as { address?: unknown; index?: unknown }[]) {
        const key = keyOf(network, address)
        const script = typeof index === 'number' ? psbt.data.inputs[index]?.witnessUtxo?.script : undefined
        if (!script || hex.encode(script) !== hex.encode(key.outputScript)) throw new NodeBitcoinSignerError(-32602, `Input ${String(index)} is not ${key.address}'s`)
        if (key.purpose === 'payment') psbt.signInput(index as number, signerOf(key))
        else psbt.signTaprootInput(index as number, signerOf(key))
      }
      return { psbt: psbt.toBase64() }
    }
    return undefined
  }

  return {
    /** Its payment and ordinals keys on `caipNetworkId`, with their addresses there. */
    keysOn: (caipNetworkId: string) => keys.get(caipNetworkId) ?? keysOn(caipNetworkId),
    /**
     * The bip122 namespace it approves when a proposal asks for one: every network it holds, asked or not, as wallets
     * may (the page keeps to its own); per network its ordinals address before its payment one, as some wallets list
     * them (the order the page shows is its own too).
     */
    namespace(asked: { chains?: string[]; methods?: string[]; events?: string[] }) {
      if (!caipNetworkIds.some((network) => asked.chains?.includes(network))) return undefined
      const accounts = caipNetworkIds.flatMap((network) => [...keys.get(network)!].reverse().map((key) => `${network}:${key.address}`))
      return { chains: [...caipNetworkIds], accounts, methods: asked.methods ?? [], events: asked.events ?? [] }
    },
    /** Answers one Bitcoin request on `network` (a result or the wallet's refusal); undefined for a method it does not know. */
    answer(method: string, args: unknown, network: string): { result: unknown } | { error: { code: number; message: string } } | undefined {
      try {
        const result = answerRequest(method, args, network)
        return result === undefined ? undefined : { result }
      } catch (error) {
        return { error: { code: error instanceof NodeBitcoinSignerError ? error.code : -32603, message: (error as Error).message } }
      }
    },
  }
}

export type NodeBitcoinSigner = ReturnType<typeof createNodeBitcoinSigner>
