import { SignClient } from '@walletconnect/sign-client'
import { createWalletClient, defineChain, hexToString, http, isHex, type Hex } from 'viem'
import { mnemonicToAccount } from 'viem/accounts'
import { createGate } from '../../../demo/devWallet/createGate'

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
}

/**
 * A real WalletConnect wallet in Node (@walletconnect/sign-client): approves eip155 proposals with an anvil dev key,
 * signs messages and sends transactions to the chain's RPC. Tests drive it the way a phone wallet would be used.
 */
export async function createNodeWallet({ relayUrl, chains, addressIndex = 0, name = 'Node Wallet' }: NodeWalletParameters) {
  const account = mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex })
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
    await client.approve({
      id,
      namespaces: { eip155: { chains: ids, accounts: ids.map((c) => `${c}:${account.address}`), methods: asked.methods ?? [], events: asked.events ?? [] } },
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
    try {
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
    requests,
    /** What a wallet does with a scanned QR code or an opened deep link. */
    pair: (uri: string) => client.pair({ uri }),
    declineNextProposal: () => void (declineNextProposal = true),
    declineNextRequest: () => void (declineNextRequest = true),
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
