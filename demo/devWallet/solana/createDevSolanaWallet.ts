import { ed25519 } from '@noble/curves/ed25519.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { utf8ToBytes } from '@noble/hashes/utils.js'
import { base58, base64 } from '@scure/base'
import { getTransactionDecoder, getTransactionEncoder, type Address, type SignatureBytes, type Transaction } from '@solana/kit'
import type {
  SolanaSignAndSendTransactionFeature,
  SolanaSignAndSendTransactionInput,
  SolanaSignMessageFeature,
  SolanaSignMessageInput,
  SolanaSignTransactionFeature,
  SolanaSignTransactionInput,
} from '@solana/wallet-standard-features'
import type { Wallet, WalletAccount, WalletIcon } from '@wallet-standard/base'
import type { StandardConnectFeature, StandardConnectInput, StandardDisconnectFeature, StandardEventsChangeProperties, StandardEventsFeature } from '@wallet-standard/features'
import { ReadonlyWalletAccount, registerWallet } from '@wallet-standard/wallet'
import { createGate } from '../createGate'

export const devSolanaChains = ['solana:localnet', 'solana:devnet'] as const
export type DevSolanaChain = (typeof devSolanaChains)[number]

type DevSolanaFeatures = StandardConnectFeature &
  StandardDisconnectFeature &
  StandardEventsFeature &
  SolanaSignMessageFeature &
  SolanaSignTransactionFeature &
  SolanaSignAndSendTransactionFeature
type DevSolanaFeatureName = keyof DevSolanaFeatures

export type DevSolanaWalletParameters = {
  /** 32-byte ed25519 private keys of the accounts it offers; by default the local chain's dev keys 0 and 1. */
  privateKeys?: readonly Uint8Array[]
  /** Where solana:signAndSendTransaction sends, per chain (the local chain's rpcUrl for 'solana:localnet'). */
  rpcUrls?: Partial<Record<DevSolanaChain, string>>
  name?: string
  fetch?: typeof fetch
  /** Where it remembers that the site is connected, as an extension would across reloads. */
  storage?: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>
}

/** A wallet's error as Solana wallets throw them: an Error with an EIP-1193 style code (4001 is the user saying no). */
export class DevSolanaWalletError extends Error {
  constructor(readonly code: number, message: string, readonly data?: unknown) {
    super(message)
    this.name = 'DevSolanaWalletError'
  }
}

const devSolanaWalletIcon: WalletIcon =
  'data:image/svg+xml;base64,PHN2ZyB4bWxucz0naHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmcnIHZpZXdCb3g9JzAgMCAzMiAzMic+PHJlY3Qgd2lkdGg9JzMyJyBoZWlnaHQ9JzMyJyByeD0nOCcgZmlsbD0nIzIzMTk0MScvPjxwYXRoIGQ9J004IDExaDE2bC0zIDNIOHptMCA0aDE2bC0zIDNIOHptMCA0aDE2bC0zIDNIOHonIGZpbGw9JyMxNGYxOTUnLz48L3N2Zz4='

/**
 * The local Solana chain's dev keys (services/chain/solana/devKeys.ts: private key = sha256('tessera-dev-solana-N')),
 * derived with @noble/hashes so the demo page can run it (devKeys.ts uses node:crypto).
 */
export const devSolanaPrivateKeys = (count = 2): Uint8Array[] => Array.from({ length: count }, (_, index) => sha256(utf8ToBytes(`tessera-dev-solana-${index}`)))

/** Features that need the user's say-so in a real wallet; the dev wallet waits on `hold()` and honours `rejectNext()` for them. */
const approvalFeatures = new Set<string>(['standard:connect', 'solana:signMessage', 'solana:signTransaction', 'solana:signAndSendTransaction'])
const accountFeatures = ['solana:signMessage', 'solana:signTransaction', 'solana:signAndSendTransaction'] as const
const transactionVersions = ['legacy', 0] as const
const storageKey = 'tessera-dev-solana-wallet'

/**
 * A development Wallet Standard wallet for Solana: ed25519 keys in memory (by default the local chain's funded dev
 * keys), signing messages and wire transactions, and sending them to the RPC given per chain. Not part of the
 * published bundle: the demo and the tests use it in place of a browser extension.
 * @example const devWallet = createDevSolanaWallet({ rpcUrls: { 'solana:localnet': solana.rpcUrl } }); registerDevSolanaWallet(devWallet)
 */
export function createDevSolanaWallet({
  privateKeys = devSolanaPrivateKeys(),
  rpcUrls = {},
  name = 'Tessera Dev Solana Wallet',
  fetch = globalThis.fetch,
  storage,
}: DevSolanaWalletParameters = {}) {
  const keys = new Map(
    privateKeys.map((privateKey) => {
      const publicKey = ed25519.getPublicKey(privateKey)
      const address = base58.encode(publicKey)
      const account = new ReadonlyWalletAccount({ address, publicKey, chains: devSolanaChains, features: accountFeatures, label: `Dev ${address.slice(0, 4)}` })
      return [address, { privateKey, account }] as const
    }),
  )
  const addresses = [...keys.keys()]
  if (addresses.length === 0) throw new Error('createDevSolanaWallet needs at least one key')
  const remembered = (() => {
    try {
      return JSON.parse(storage?.getItem(storageKey) ?? 'null') as { connected?: string[] } | null
    } catch {
      return null
    }
  })()
  let connected: string[] = (remembered?.connected ?? []).filter((a) => keys.has(a))
  const listeners = new Set<(properties: StandardEventsChangeProperties) => void>()
  const rejections: string[] = []
  const gate = createGate()
  let nextId = 0

  const currentAccounts = (): WalletAccount[] => connected.map((address) => keys.get(address)!.account)
  const setConnected = (next: string[]) => {
    connected = next
    storage?.setItem(storageKey, JSON.stringify({ connected }))
    const accounts = currentAccounts()
    for (const listener of listeners) listener({ accounts })
  }

  /** Waits as a user reading the prompt, then says no if a test asked it to. */
  const approve = async (feature: DevSolanaFeatureName) => {
    if (!approvalFeatures.has(feature)) return
    await gate.wait()
    const index = rejections.indexOf(feature)
    const anyIndex = rejections.indexOf('*')
    if (index >= 0 || anyIndex >= 0) {
      rejections.splice(index >= 0 ? index : anyIndex, 1)
      throw new DevSolanaWalletError(4001, 'User rejected the request.')
    }
  }
  const privateKeyOf = (account: WalletAccount | undefined) => {
    const address = account?.address
    if (typeof address !== 'string' || !connected.includes(address)) {
      throw new DevSolanaWalletError(4100, `The requested account ${String(address)} has not been authorized by the user.`)
    }
    return keys.get(address)!.privateKey
  }
  const checkChain = (chain: string | undefined) => {
    if (chain !== undefined && !(devSolanaChains as readonly string[]).includes(chain)) throw new DevSolanaWalletError(4901, `The wallet does not offer ${chain}`)
  }
  /** Signs the wire transaction's message bytes as its signer `account`; the other signatures stay as they were. */
  const signWire = (input: SolanaSignTransactionInput): Uint8Array => {
    const privateKey = privateKeyOf(input.account)
    checkChain(input.chain)
    let transaction: Transaction
    try {
      transaction = getTransactionDecoder().decode(input.transaction)
    } catch (error) {
      throw new DevSolanaWalletError(-32602, `Not a wire transaction: ${(error as Error).message}`)
    }
    const address = input.account.address as Address
    if (!(address in transaction.signatures)) throw new DevSolanaWalletError(-32602, `${address} is not a signer of this transaction`)
    const signature = ed25519.sign(Uint8Array.from(transaction.messageBytes), privateKey) as SignatureBytes
    return Uint8Array.from(getTransactionEncoder().encode({ ...transaction, signatures: { ...transaction.signatures, [address]: signature } }))
  }
  async function sendWire(chain: string, wire: Uint8Array, options: SolanaSignAndSendTransactionInput['options']): Promise<Uint8Array> {
    const rpcUrl = rpcUrls[chain as DevSolanaChain]
    if (!rpcUrl) throw new DevSolanaWalletError(4901, `The wallet has no RPC for ${chain}`)
    const config = { encoding: 'base64', skipPreflight: options?.skipPreflight, preflightCommitment: options?.preflightCommitment, maxRetries: options?.maxRetries, minContextSlot: options?.minContextSlot }
    const response = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++nextId, method: 'sendTransaction', params: [base64.encode(wire), config] }),
    })
    const body = (await response.json()) as { result?: unknown; error?: { code: number; message: string; data?: unknown } }
    if (body.error) throw new DevSolanaWalletError(body.error.code, body.error.message, body.error.data)
    if (typeof body.result !== 'string') throw new DevSolanaWalletError(-32603, 'The RPC answered sendTransaction without a signature')
    return base58.decode(body.result)
  }

  const features: DevSolanaFeatures = {
    'standard:connect': {
      version: '1.0.0',
      async connect(input?: StandardConnectInput) {
        if (input?.silent) return { accounts: currentAccounts() }
        await approve('standard:connect')
        if (connected.length === 0) setConnected([...addresses])
        return { accounts: currentAccounts() }
      },
    },
    'standard:disconnect': {
      version: '1.0.0',
      async disconnect() {
        if (connected.length > 0) setConnected([])
      },
    },
    'standard:events': {
      version: '1.0.0',
      on(event, listener) {
        if (event !== 'change') return () => {}
        listeners.add(listener)
        return () => void listeners.delete(listener)
      },
    },
    'solana:signMessage': {
      version: '1.1.0',
      async signMessage(...inputs: readonly SolanaSignMessageInput[]) {
        await approve('solana:signMessage')
        return inputs.map(({ account, message }) => ({
          signedMessage: message,
          signature: ed25519.sign(message, privateKeyOf(account)),
          signatureType: 'ed25519' as const,
        }))
      },
    },
    'solana:signTransaction': {
      version: '1.0.0',
      supportedTransactionVersions: transactionVersions,
      async signTransaction(...inputs: readonly SolanaSignTransactionInput[]) {
        await approve('solana:signTransaction')
        return inputs.map((input) => ({ signedTransaction: signWire(input) }))
      },
    },
    'solana:signAndSendTransaction': {
      version: '1.0.0',
      supportedTransactionVersions: transactionVersions,
      async signAndSendTransaction(...inputs: readonly SolanaSignAndSendTransactionInput[]) {
        await approve('solana:signAndSendTransaction')
        const signed = inputs.map((input) => ({ input, wire: signWire(input) }))
        const outputs = []
        for (const { input, wire } of signed) outputs.push({ signature: await sendWire(input.chain, wire, input.options) })
        return outputs
      },
    },
  }

  const wallet: Wallet = Object.freeze({
    version: '1.0.0' as const,
    name,
    icon: devSolanaWalletIcon,
    chains: devSolanaChains,
    features,
    get accounts() {
      return currentAccounts()
    },
  })

  return {
    wallet,
    /** The base58 addresses it holds keys for, in order. */
    addresses,
    /** Test control: the next call of `feature` ('*' for any needing approval) is rejected with code 4001. */
    rejectNext(feature: DevSolanaFeatureName | '*' = '*') {
      rejections.push(feature)
    },
    /** Test control: calls needing approval wait until the returned function is called, as a user reading the prompt. */
    hold: gate.hold,
    /** Test control: the wallet switches account, as a user would in the extension. */
    switchAccount(address: string) {
      if (!keys.has(address)) throw new Error(`The dev wallet has no key for ${address}`)
      setConnected([address, ...addresses.filter((a) => a !== address)])
    },
    /** Test control: the wallet disconnects the site, as a user would in the extension. */
    disconnect() {
      setConnected([])
    },
  }
}

export type DevSolanaWallet = ReturnType<typeof createDevSolanaWallet>

/** Registers the dev wallet by the Wallet Standard (`registerWallet`): now if the app is ready, else when it is. */
export function registerDevSolanaWallet({ wallet }: Pick<DevSolanaWallet, 'wallet'>) {
  registerWallet(wallet)
}
