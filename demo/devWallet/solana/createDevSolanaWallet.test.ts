import { ed25519 } from '@noble/curves/ed25519.js'
import { base58 } from '@scure/base'
import { getTransferSolInstruction } from '@solana-program/system'
import {
  address,
  appendTransactionMessageInstruction,
  compileTransaction,
  createNoopSigner,
  createSolanaRpc,
  createTransactionMessage,
  getTransactionDecoder,
  getTransactionEncoder,
  lamports,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  type Blockhash,
} from '@solana/kit'
import { getWallets } from '@wallet-standard/app'
import type { SolanaSignAndSendTransactionFeature, SolanaSignMessageFeature, SolanaSignTransactionFeature } from '@solana/wallet-standard-features'
import type { StandardConnectFeature, StandardEventsChangeProperties, StandardEventsFeature } from '@wallet-standard/features'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { solanaDevKeys } from '../../../services/chain/solana/devKeys'
import { seedSolana, type SeededSolana } from '../../../services/chain/solana/seedSolana'
import { startSolanaChain, type SolanaChain } from '../../../services/chain/solana/startSolanaChain'
import { freePorts } from '../../../services/stack/ports'
import { createDevSolanaWallet, devSolanaPrivateKeys, registerDevSolanaWallet } from './createDevSolanaWallet'

type Features = StandardConnectFeature & StandardEventsFeature & SolanaSignMessageFeature & SolanaSignTransactionFeature & SolanaSignAndSendTransactionFeature
const featuresOf = (devWallet: ReturnType<typeof createDevSolanaWallet>) => devWallet.wallet.features as Features

const dummyBlockhash = { blockhash: '4vJ9JU1bJJE96FWSJKvHsmmFADCg4gpZQff4P3bkLKi' as Blockhash, lastValidBlockHeight: 1_000_000n }

/** A SOL transfer, compiled with @solana/kit and encoded with empty signature slots, as a dApp hands it to a wallet. */
function wireTransfer(from: string, to: string, amount: bigint, lifetime = dummyBlockhash) {
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (draft) => setTransactionMessageFeePayer(address(from), draft),
    (draft) => setTransactionMessageLifetimeUsingBlockhash(lifetime, draft),
    (draft) => appendTransactionMessageInstruction(getTransferSolInstruction({ source: createNoopSigner(address(from)), destination: address(to), amount: lamports(amount) }), draft),
  )
  return Uint8Array.from(getTransactionEncoder().encode(compileTransaction(message)))
}

const connected = async (devWallet = createDevSolanaWallet()) => {
  const { accounts } = await featuresOf(devWallet)['standard:connect'].connect()
  return { devWallet, features: featuresOf(devWallet), account: accounts[0]! }
}

describe('dev Solana wallet', () => {
  it('holds the local chain’s funded dev keys (sha256 of tessera-dev-solana-N), without node:crypto', () => {
    const chainKeys = solanaDevKeys()
    expect(devSolanaPrivateKeys(chainKeys.length)).toEqual(chainKeys.map((key) => key.privateKey))
    expect(createDevSolanaWallet().addresses).toEqual(chainKeys.slice(0, 2).map((key) => key.address))
  })

  it('signs a message with dev key 0: the signature verifies against devAccounts[0]', async () => {
    const { features, account } = await connected()
    expect(account.address).toBe(solanaDevKeys()[0]!.address)
    const message = new TextEncoder().encode('hello')
    const [output] = await features['solana:signMessage'].signMessage({ account, message })
    expect(output!.signatureType).toBe('ed25519')
    expect(ed25519.verify(output!.signature, message, base58.decode(solanaDevKeys()[0]!.address))).toBe(true)
  })

  it('signs the message bytes of a wire transaction and keeps the message as it was', async () => {
    const { features, account } = await connected()
    const wire = wireTransfer(account.address, solanaDevKeys()[1]!.address, 5n)
    const [output] = await features['solana:signTransaction'].signTransaction({ account, transaction: wire, chain: 'solana:devnet' })
    const signed = getTransactionDecoder().decode(output!.signedTransaction)
    expect(Uint8Array.from(signed.messageBytes)).toEqual(Uint8Array.from(getTransactionDecoder().decode(wire).messageBytes))
    expect(ed25519.verify(Uint8Array.from(signed.signatures[address(account.address)]!), Uint8Array.from(signed.messageBytes), Uint8Array.from(account.publicKey))).toBe(true)
  })

  it('refuses: to sign before connecting (4100), a transaction it is not a signer of, a chain it does not offer', async () => {
    const devWallet = createDevSolanaWallet()
    const account = { ...(await featuresOf(createDevSolanaWallet())['standard:connect'].connect()).accounts[0]! }
    await expect(featuresOf(devWallet)['solana:signMessage'].signMessage({ account, message: new Uint8Array([1]) })).rejects.toMatchObject({ code: 4100 })
    const { features, account: own } = await connected()
    const other = solanaDevKeys()[5]!.address
    await expect(features['solana:signTransaction'].signTransaction({ account: own, transaction: wireTransfer(other, own.address, 1n) })).rejects.toMatchObject({ code: -32602 })
    await expect(features['solana:signTransaction'].signTransaction({ account: own, transaction: new Uint8Array([1, 2, 3]) })).rejects.toMatchObject({ code: -32602 })
    await expect(features['solana:signTransaction'].signTransaction({ account: own, transaction: wireTransfer(own.address, other, 1n), chain: 'solana:mainnet' })).rejects.toMatchObject({ code: 4901 })
  })

  it('rejectNext(feature) refuses that feature once with 4001; "*" refuses the next approval of any kind', async () => {
    const { devWallet, features, account } = await connected()
    devWallet.rejectNext('solana:signMessage')
    const message = new Uint8Array([1])
    await expect(features['solana:signMessage'].signMessage({ account, message })).rejects.toMatchObject({ code: 4001 })
    await expect(features['solana:signMessage'].signMessage({ account, message })).resolves.toHaveLength(1)
    devWallet.rejectNext()
    await expect(features['standard:connect'].connect()).rejects.toMatchObject({ code: 4001 })
  })

  it('hold() keeps approvals waiting until released, as a user reading the prompt', async () => {
    const devWallet = createDevSolanaWallet()
    const release = devWallet.hold()
    let isDone = false
    const pending = featuresOf(devWallet)['standard:connect'].connect().then((output) => ((isDone = true), output))
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(isDone).toBe(false)
    expect((await featuresOf(devWallet)['standard:connect'].connect({ silent: true })).accounts).toEqual([]) // silent never waits
    release()
    expect((await pending).accounts.map((a) => a.address)).toEqual(devWallet.addresses)
  })

  it('emits change events on connect, account switch and disconnect; remembers the site in storage', async () => {
    const items = new Map<string, string>()
    const storage = { getItem: (k: string) => items.get(k) ?? null, setItem: (k: string, v: string) => void items.set(k, v), removeItem: (k: string) => void items.delete(k) }
    const devWallet = createDevSolanaWallet({ storage })
    const seen: string[][] = []
    featuresOf(devWallet)['standard:events'].on('change', (properties: StandardEventsChangeProperties) => seen.push((properties.accounts ?? []).map((a) => a.address)))
    const [a, b] = devWallet.addresses as [string, string]
    await featuresOf(devWallet)['standard:connect'].connect()
    expect((await featuresOf(createDevSolanaWallet({ storage }))['standard:connect'].connect({ silent: true })).accounts.map((x) => x.address)).toEqual([a, b])
    devWallet.switchAccount(b)
    devWallet.disconnect()
    expect(seen).toEqual([[a, b], [b, a], []])
    expect((await featuresOf(createDevSolanaWallet({ storage }))['standard:connect'].connect({ silent: true })).accounts).toEqual([])
  })

  it('registers by the Wallet Standard: an app sees it', () => {
    const originalWindow = Object.getOwnPropertyDescriptor(globalThis, 'window')
    Object.defineProperty(globalThis, 'window', { value: new EventTarget(), configurable: true, writable: true })
    try {
      const devWallet = createDevSolanaWallet()
      registerDevSolanaWallet(devWallet) // before the app is ready
      expect(getWallets().get()).toContain(devWallet.wallet)
    } finally {
      if (originalWindow) Object.defineProperty(globalThis, 'window', originalWindow)
      else delete (globalThis as { window?: unknown }).window
    }
  })

  describe('on the local chain', () => {
    let solana: SolanaChain
    let seeded: SeededSolana
    beforeAll(async () => {
      const ports = await freePorts()
      solana = await startSolanaChain({ port: ports.anvil, wsPort: ports.anvil2 })
      seeded = await seedSolana({ rpcUrl: solana.rpcUrl })
    }, 60_000)
    afterAll(() => solana?.stop())

    it('signAndSendTransaction lands a SOL transfer built with @solana/kit', async () => {
      const rpc = createSolanaRpc(solana.rpcUrl)
      const { features, account } = await connected(createDevSolanaWallet({ rpcUrls: { 'solana:localnet': solana.rpcUrl } }))
      expect(account.address).toBe(seeded.devAccounts[0])
      const recipient = seeded.devAccounts[7]!
      const before = (await rpc.getBalance(address(recipient)).send()).value
      const { value: latest } = await rpc.getLatestBlockhash().send()
      const wire = wireTransfer(account.address, recipient, 1_234_567n, latest)
      const [output] = await features['solana:signAndSendTransaction'].signAndSendTransaction({ account, transaction: wire, chain: 'solana:localnet' })
      expect(output!.signature).toHaveLength(64)
      const signature = base58.encode(output!.signature)
      const { value: statuses } = await rpc.getSignatureStatuses([signature as Parameters<typeof rpc.getSignatureStatuses>[0][number]]).send()
      expect(statuses[0]).toMatchObject({ err: null })
      expect((await rpc.getBalance(address(recipient)).send()).value - before).toBe(1_234_567n)
    })

    it('passes the RPC’s refusal on with its code, and refuses a chain it has no RPC for', async () => {
      const { features, account } = await connected(createDevSolanaWallet({ rpcUrls: { 'solana:localnet': solana.rpcUrl } }))
      // An unknown blockhash: the node refuses the transaction.
      const stale = wireTransfer(account.address, seeded.devAccounts[7]!, 1n)
      await expect(features['solana:signAndSendTransaction'].signAndSendTransaction({ account, transaction: stale, chain: 'solana:localnet' })).rejects.toMatchObject({
        name: 'DevSolanaWalletError',
        code: expect.any(Number),
      })
      await expect(features['solana:signAndSendTransaction'].signAndSendTransaction({ account, transaction: stale, chain: 'solana:devnet' })).rejects.toMatchObject({ code: 4901 })
    })
  })
})
