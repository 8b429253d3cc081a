import { ed25519 } from '@noble/curves/ed25519.js'
import { base58, base64 } from '@scure/base'
import { getTransactionDecoder, getTransactionEncoder, type Address, type SignatureBytes } from '@solana/kit'
import { SignClient } from '@walletconnect/sign-client'
import { createWalletClient, defineChain, hexToString, http, isHex, type Hex } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { createGate } from '../../../demo/devWallet/createGate'
import { deriveSolanaDevKey } from '../../chain/solana/devKeys'
import type { NodeBitcoinSigner } from './createNodeBitcoinSigner'

/** Anvil's dev mnemonic: its accounts are funded on every local chain. */
export const ANVIL_MNEMONIC = 'test test test test test test test test test test test junk'

/** WalletConnect clients keep their keys here instead of files. */
export function memoryStorage() {
  const map = new Map<string, unknown>()
  return {
    getKeys: async () => [...map.keys()],
    getEntries: async () => [...map.entries()] as [string, unknown][],
    getItem: async <T>(key: string) => map.get(key) as T | undefined,
    setItem: async (key: string, value: unknown) => void map.set(key, value),
    removeItem: async (key: string) => void map.delete(key),
  }
}

export type NodeWalletParameters = {
  relayUrl: string
  chains: { chainId: number; rpcUrl: string }[]
  /** Which anvil dev account the wallet holds. */
  addressIndex?: number
  name?: string
  /** Solana clusters (CAIP-2) the wallet offers: with any, it approves a proposal's solana namespace too. */
  solanaCaipNetworkIds?: string[]
  /** Which Solana dev key it holds there (services/chain/solana/devKeys: 'tessera-dev-solana-N'); `addressIndex` by default. */
  solanaKeyIndex?: number
  /** Bitcoin networks (CAIP-2) the wallet offers: with any, it approves a proposal's bip122 namespace too. */
  bip122CaipNetworkIds?: string[]
  /** Which Bitcoin dev account it holds there (services/chain/bitcoin/devKeys); `addressIndex` by default. */
  bitcoinKeyIndex?: number
}

/**
 * A real WalletConnect wallet in Node (@walletconnect/sign-client): approves eip155 proposals with an anvil dev key,
 * signs messages and sends transactions to the chain's RPC; given Solana clusters, it also approves a solana account
 * (an ed25519 dev key) and answers solana_signMessage and solana_signTransaction as WalletConnect's Solana RPC
 * reference says; given Bitcoin networks, it approves a bip122 namespace with a Bitcoin dev account's payment and
 * ordinals addresses and answers signMessage (BIP-322) and signPsbt (createNodeBitcoinSigner). Tests drive it the way
 * a phone wallet would be used.
 */
export async function createNodeWallet({ relayUrl, chains, addressIndex = 0, name = 'Node Wallet', solanaCaipNetworkIds = [], solanaKeyIndex = addressIndex, bip122CaipNetworkIds = [], bitcoinKeyIndex = addressIndex }: NodeWalletParameters) {
  const account = mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex })
  const solanaKey = deriveSolanaDevKey(`tessera-dev-solana-${solanaKeyIndex}`)
  // Loaded only for a wallet that offers Bitcoin: its keys come from bcoin's HD derivation.
  const bitcoin: NodeBitcoinSigner | undefined =
    bip122CaipNetworkIds.length > 0 ? (await import('./createNodeBitcoinSigner')).createNodeBitcoinSigner({ keyIndex: bitcoinKeyIndex, caipNetworkIds: bip122CaipNetworkIds }) : undefined
  const client = await SignClient.init({
    projectId: 'tessera-node-wallet',
    relayUrl,
    metadata: { name, description: name, url: 'http://127.0.0.1', icons: [] },
    storage: memoryStorage() as never,
    telemetryEnabled: false,
    logger: 'silent',
    customStoragePrefix: `${name}-${Math.random()}`,
  })
  let declineNextProposal = false
  let declineNextRequest = false
  let signatureOnlyNext = false
  /** What the next request is answered with instead, as a faulty wallet would answer. */
  let nextResult: { result: unknown } | undefined
  const gate = createGate()
  const requests: { method: string; params: unknown }[] = []

  client.on('session_proposal', async ({ id, params }) => {
    if (declineNextProposal) {
      declineNextProposal = false
      await client.reject({ id, reason: { code: 5000, message: 'User rejected.' } })
      return
    }
    const asked = { ...params.optionalNamespaces?.eip155, ...params.requiredNamespaces?.eip155 }
    const ids = chains.map((c) => `eip155:${c.chainId}`).filter((c) => !asked.chains || asked.chains.includes(c))
    const askedSolana = { ...params.optionalNamespaces?.solana, ...params.requiredNamespaces?.solana }
    const clusters = solanaCaipNetworkIds.filter((c) => askedSolana.chains?.includes(c))
    const bip122 = bitcoin?.namespace({ ...params.optionalNamespaces?.bip122, ...params.requiredNamespaces?.bip122 })
    await client.approve({
      id,
      namespaces: {
        // A wallet without eip155 chains (`chains: []`) that offers Solana or Bitcoin approves those alone.
        ...((ids.length > 0 || (clusters.length === 0 && !bip122)) && { eip155: { chains: ids, accounts: ids.map((c) => `${c}:${account.address}`), methods: asked.methods ?? [], events: asked.events ?? [] } }),
        ...(clusters.length > 0 && { solana: { chains: clusters, accounts: clusters.map((c) => `${c}:${solanaKey.address}`), methods: askedSolana.methods ?? [], events: askedSolana.events ?? [] } }),
        ...(bip122 && { bip122 }),
      },
    })
  })

  client.on('session_request', async ({ id, topic, params }) => {
    const { method, params: args } = params.request
    requests.push({ method, params: args })
    await gate.wait()
    const respond = (body: { result: unknown } | { error: { code: number; message: string } }) => client.respond({ topic, response: { id, jsonrpc: '2.0', ...body } as never })
    if (declineNextRequest) {
      declineNextRequest = false
      return respond({ error: { code: 4001, message: 'User rejected the request.' } })
    }
    if (nextResult) {
      const { result } = nextResult
      nextResult = undefined
      return respond({ result })
    }
    try {
      if (bitcoin && params.chainId.startsWith('bip122:')) {
        const answer = bitcoin.answer(method, args, params.chainId)
        if (answer) return respond(answer)
      }
      if (method === 'personal_sign') {
        const [message] = args as [Hex]
        return respond({ result: await account.signMessage({ message: isHex(message) ? { raw: message } : hexToString(message) }) })
      }
      if (method === 'eth_sendTransaction') {
        const chainId = Number(params.chainId.split(':')[1])
        const chain = chains.find((c) => c.chainId === chainId)
        if (!chain) return respond({ error: { code: 4901, message: `Not connected to ${params.chainId}` } })
        const [tx] = args as [{ to: Hex; value?: Hex; data?: Hex; gas?: Hex }]
        const wallet = createWalletClient({ account, transport: http(chain.rpcUrl), chain: defineChain({ id: chainId, name: `Chain ${chainId}`, nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [chain.rpcUrl] } } }) })
        const hash = await wallet.sendTransaction({ to: tx.to, value: tx.value ? BigInt(tx.value) : undefined, data: tx.data, gas: tx.gas ? BigInt(tx.gas) : undefined })
        return respond({ result: hash })
      }
      if (method === 'solana_signMessage') {
        // { message: base58, pubkey } → { signature: base58 }
        const { message, pubkey } = args as { message: string; pubkey?: string }
        if (pubkey !== undefined && pubkey !== solanaKey.address) return respond({ error: { code: 4100, message: `${pubkey} is not this wallet's account` } })
        return respond({ result: { signature: base58.encode(ed25519.sign(base58.decode(message), solanaKey.privateKey)) } })
      }
      if (method === 'solana_signTransaction') {
        // { transaction: base64 wire } → { signature: base58, transaction?: base64 wire }: the message signed, the
        // signature in this wallet's slot (the fee payer's when it pays).
        const { transaction } = args as { transaction: string }
        const { messageBytes, signatures } = getTransactionDecoder().decode(base64.decode(transaction))
        if (!(solanaKey.address in signatures)) return respond({ error: { code: -32602, message: `${solanaKey.address} does not sign this transaction` } })
        const signature = ed25519.sign(new Uint8Array(messageBytes), solanaKey.privateKey)
        const signed = getTransactionEncoder().encode({ messageBytes, signatures: { ...signatures, [solanaKey.address as Address]: signature as SignatureBytes } })
        if (signatureOnlyNext) {
          signatureOnlyNext = false
          return respond({ result: { signature: base58.encode(signature) } })
        }
        return respond({ result: { signature: base58.encode(signature), transaction: base64.encode(new Uint8Array(signed)) } })
      }
      if (method === 'wallet_switchEthereumChain') {
        const [{ chainId }] = args as [{ chainId: Hex }]
        if (chains.some((c) => c.chainId === Number(chainId))) return respond({ result: null })
        return respond({ error: { code: 4902, message: `Unrecognized chain ID ${chainId}` } })
      }
      return respond({ error: { code: 4200, message: `${method} is not supported by this wallet` } })
    } catch (error) {
      return respond({ error: { code: -32603, message: (error as Error).message } })
    }
  })

  return {
    client,
    address: account.address,
    account,
    /** Its Solana account (base58) and ed25519 key. */
    solanaAddress: solanaKey.address,
    solanaKey,
    /** Its Bitcoin side (keys and addresses per network), when it offers Bitcoin networks. */
    bitcoin,
    requests,
    /** What a wallet does with a scanned QR code or an opened deep link. */
    pair: (uri: string) => client.pair({ uri }),
    declineNextProposal: () => void (declineNextProposal = true),
    declineNextRequest: () => void (declineNextRequest = true),
    /** Answers the next solana_signTransaction with its signature only, as older wallets do. */
    answerSignatureOnlyNext: () => void (signatureOnlyNext = true),
    /** Answers the next request with `result` as is, whatever it asked: a faulty or hostile wallet's answer. */
    answerNextWith: (result: unknown) => void (nextResult = { result }),
    /** Keeps the next requests waiting, as a visitor reading the prompt on the phone; call the result to answer. */
    hold: gate.hold,
    sessions: () => client.session.getAll(),
    /** Ends every session from the wallet's side, as a visitor would in the wallet app. */
    async disconnectAll() {
      for (const session of client.session.getAll()) await client.disconnect({ topic: session.topic, reason: { code: 6000, message: 'User disconnected.' } })
    },
    close: () => client.core.relayer.transportClose(),
  }
}

export type NodeWallet = Awaited<ReturnType<typeof createNodeWallet>>
