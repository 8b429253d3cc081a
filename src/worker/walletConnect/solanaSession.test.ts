import { ed25519 } from '@noble/curves/ed25519.js'
import { base58 } from '@scure/base'
import { getTransferSolInstruction } from '@solana-program/system'
import {
  address,
  appendTransactionMessageInstructions,
  blockhash,
  compileTransaction,
  createNoopSigner,
  createTransactionMessage,
  getTransactionDecoder,
  getTransactionEncoder,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
} from '@solana/kit'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { deriveSolanaDevKey } from '../../../services/chain/solana/devKeys'
import { createRelay, type Relay } from '../../../services/relay/createRelay'
import { createNodeWallet, memoryStorage, type NodeWallet } from '../../../services/relay/testing/createNodeWallet'
import { freePorts } from '../../../services/stack/ports'
import { createWalletConnectSession } from './createWalletConnectSession'

const MAINNET = 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'
const DEVNET = 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1'
const TESTNET = 'solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z'
const receiver = deriveSolanaDevKey('tessera-wc-test-receiver').address
const otherPayer = deriveSolanaDevKey('tessera-wc-test-payer').address

/** A real legacy SOL transfer from `source`, fee paid by `feePayer`, unsigned (its slots zeroed), as the worker builds them. */
function transfer({ source, feePayer = source }: { source: string; feePayer?: string }): Uint8Array {
  const message = pipe(
    createTransactionMessage({ version: 'legacy' }),
    (draft) => setTransactionMessageFeePayer(address(feePayer), draft),
    (draft) => setTransactionMessageLifetimeUsingBlockhash({ blockhash: blockhash('EkSnNWid2cvwEVnVx9aBqawnmiCNiDgp3gUdkDPTKN1N'), lastValidBlockHeight: 1_000n }, draft),
    (draft) => appendTransactionMessageInstructions([getTransferSolInstruction({ source: createNoopSigner(address(source)), destination: address(receiver), amount: 1_000n })], draft),
  )
  return new Uint8Array(getTransactionEncoder().encode(compileTransaction(message)))
}

/** Slot `index` of a wire transaction with fewer than 128 signatures, and its message, read by hand. */
const slotAndMessage = (wire: Uint8Array, index: number) => ({ signature: wire.subarray(1 + 64 * index, 1 + 64 * (index + 1)), message: wire.subarray(1 + 64 * wire[0]!) })

describe('WalletConnect’s solana namespace through our relay, with a real wallet client', () => {
  let relay: Relay
  let wallet: NodeWallet
  let evmOnlyWallet: NodeWallet
  let solanaOnlyWallet: NodeWallet
  beforeAll(async () => {
    const ports = await freePorts()
    relay = createRelay({ port: ports.relay })
    await relay.ready
    // No anvil: nothing here sends an eip155 transaction.
    const chains = [{ chainId: 31337, rpcUrl: 'http://127.0.0.1:1' }]
    wallet = await createNodeWallet({ relayUrl: relay.url, chains, addressIndex: 4, name: 'Solana Wallet', solanaCaipNetworkIds: [MAINNET, DEVNET] })
    evmOnlyWallet = await createNodeWallet({ relayUrl: relay.url, chains, addressIndex: 5, name: 'EVM Wallet' })
    solanaOnlyWallet = await createNodeWallet({ relayUrl: relay.url, chains: [], name: 'Solana-only Wallet', solanaCaipNetworkIds: [DEVNET], solanaKeyIndex: 7 })
  })
  afterAll(async () => {
    await wallet.close()
    await evmOnlyWallet.close()
    await solanaOnlyWallet.close()
    relay.close()
  })

  const setup = (solana: string[] = [MAINNET, DEVNET, TESTNET]) => {
    const storage = memoryStorage()
    const storagePrefix = `dapp-${Math.random()}`
    const make = () =>
      createWalletConnectSession({ projectId: 'test', relayUrl: relay.url, storagePrefix, metadata: { name: 'dApp', description: 'dApp', url: 'http://127.0.0.1', icons: [] }, networks: { eip155: ['eip155:31337'], solana }, storage: storage as never })
    return { session: make(), make }
  }
  const connect = async (session: ReturnType<typeof setup>['session'], by: NodeWallet = wallet, preferredSolana?: string) => {
    const pairing = await session.pair({ solana: preferredSolana })
    await by.pair(pairing.uri)
    return pairing.approval
  }

  it('proposes solana beside eip155, and the approval carries both namespaces', async () => {
    const { session } = setup()
    expect(await connect(session, wallet, DEVNET)).toEqual({ eip155: { accounts: [wallet.address], caipNetworkId: 'eip155:31337' }, solana: { accounts: [wallet.solanaAddress], caipNetworkId: DEVNET } })
    const [approved] = wallet.sessions().slice(-1)
    expect(approved!.requiredNamespaces).toEqual({})
    expect(approved!.namespaces.solana).toEqual({ chains: [MAINNET, DEVNET], accounts: [`${MAINNET}:${wallet.solanaAddress}`, `${DEVNET}:${wallet.solanaAddress}`], methods: ['solana_signMessage', 'solana_signTransaction', 'solana_signAndSendTransaction'], events: [] })
    expect(await session.getAccounts('solana')).toEqual([wallet.solanaAddress])
    expect(await session.getAccounts('eip155')).toEqual([wallet.address])
    await session.disconnect()
  }, 30_000)

  it('signs a message: the signature verifies with ed25519 against the approved address', async () => {
    const { session } = setup()
    const { solana } = await connect(session)
    const message = new TextEncoder().encode('hello Tessera from Solana')
    const signature = await session.solana.signMessage({ message, address: solana!.accounts[0]!, caipNetworkId: solana!.caipNetworkId })
    expect(signature).toHaveLength(64)
    expect(ed25519.verify(signature, message, base58.decode(solana!.accounts[0]!))).toBe(true)
    expect(wallet.requests.at(-1)).toEqual({ method: 'solana_signMessage', params: { message: base58.encode(message), pubkey: wallet.solanaAddress } })
    await session.disconnect()
  }, 30_000)

  it('signs a wire transaction: its first signature verifies over its message, and the message is the one sent', async () => {
    const { session } = setup()
    await connect(session)
    const unsigned = transfer({ source: wallet.solanaAddress })
    const signed = await session.solana.signTransaction({ transaction: unsigned, caipNetworkId: MAINNET })
    const { signature, message } = slotAndMessage(signed, 0)
    expect(signed[0]).toBe(1)
    expect(message).toEqual(slotAndMessage(unsigned, 0).message)
    expect(ed25519.verify(signature, message, base58.decode(wallet.solanaAddress))).toBe(true)
    await session.disconnect()
  }, 30_000)

  it('puts a bare signature (a wallet answering only `signature`) in the signer’s slot', async () => {
    const { session } = setup()
    await connect(session)
    // The fee payer is someone else: the wallet's slot is the second.
    const unsigned = transfer({ source: wallet.solanaAddress, feePayer: otherPayer })
    wallet.answerSignatureOnlyNext()
    const signed = await session.solana.signTransaction({ transaction: unsigned, address: wallet.solanaAddress })
    expect(Object.keys(getTransactionDecoder().decode(signed).signatures)).toEqual([otherPayer, wallet.solanaAddress])
    expect(slotAndMessage(signed, 0).signature).toEqual(new Uint8Array(64))
    const { signature, message } = slotAndMessage(signed, 1)
    expect(ed25519.verify(signature, message, base58.decode(wallet.solanaAddress))).toBe(true)
    // Without an address, a bare signature is the fee payer's.
    wallet.answerSignatureOnlyNext()
    const alone = await session.solana.signTransaction({ transaction: transfer({ source: wallet.solanaAddress }) })
    expect(ed25519.verify(slotAndMessage(alone, 0).signature, slotAndMessage(alone, 0).message, base58.decode(wallet.solanaAddress))).toBe(true)
    await session.disconnect()
  }, 30_000)

  it('keeps the wallet’s refusals as USER_REJECTED: the proposal (5000), a message and a transaction (4001)', async () => {
    const { session } = setup()
    wallet.declineNextProposal()
    await expect(connect(session)).rejects.toMatchObject({ code: 'USER_REJECTED' })
    await connect(session)
    wallet.declineNextRequest()
    await expect(session.solana.signMessage({ message: new Uint8Array([1, 2, 3]), address: wallet.solanaAddress })).rejects.toMatchObject({ code: 'USER_REJECTED', rpcCode: 4001 })
    wallet.declineNextRequest()
    await expect(session.solana.signTransaction({ transaction: transfer({ source: wallet.solanaAddress }) })).rejects.toMatchObject({ code: 'USER_REJECTED', rpcCode: 4001 })
    await session.disconnect()
  }, 30_000)

  it('leaves solana undefined when the wallet approves eip155 only, and answers Solana calls with DISCONNECTED', async () => {
    const { session } = setup()
    const approval = await connect(session, evmOnlyWallet)
    expect(approval).toEqual({ eip155: { accounts: [evmOnlyWallet.address], caipNetworkId: 'eip155:31337' } })
    expect(approval.solana).toBeUndefined()
    expect(evmOnlyWallet.sessions().at(-1)!.namespaces.solana).toBeUndefined()
    await expect(session.getAccounts('solana')).rejects.toMatchObject({ code: 'DISCONNECTED' })
    await expect(session.solana.signMessage({ message: new Uint8Array([1]), address: wallet.solanaAddress })).rejects.toMatchObject({ code: 'DISCONNECTED' })
    expect(await session.eip155.request({ method: 'eth_accounts' })).toEqual([evmOnlyWallet.address])
    await session.disconnect()
  }, 30_000)

  it('takes a wallet approving Solana only: no eip155 side in the approval, and eip155 calls DISCONNECTED', async () => {
    const { session, make } = setup()
    expect(await connect(session, solanaOnlyWallet)).toEqual({ solana: { accounts: [solanaOnlyWallet.solanaAddress], caipNetworkId: DEVNET } })
    await expect(session.eip155.request({ method: 'eth_accounts' })).rejects.toMatchObject({ code: 'DISCONNECTED' })
    const signature = await session.solana.signMessage({ message: new Uint8Array([7]), address: solanaOnlyWallet.solanaAddress })
    expect(ed25519.verify(signature, new Uint8Array([7]), base58.decode(solanaOnlyWallet.solanaAddress))).toBe(true)
    const reloaded = make()
    expect(await reloaded.isAuthorized('eip155')).toBe(false)
    expect(await reloaded.isAuthorized('solana')).toBe(true)
    expect(await reloaded.getAccounts('solana')).toEqual([solanaOnlyWallet.solanaAddress])
    await reloaded.disconnect()
  }, 30_000)

  it('proposes eip155 alone when the host configured no Solana cluster', async () => {
    const { session } = setup([])
    expect(await connect(session)).toEqual({ eip155: { accounts: [wallet.address], caipNetworkId: 'eip155:31337' } })
    expect(wallet.sessions().at(-1)!.namespaces.solana).toBeUndefined()
    await session.disconnect()
  }, 30_000)

  it('switches among approved clusters without a round trip, and refuses others with CHAIN_NOT_SUPPORTED', async () => {
    const { session } = setup()
    expect((await connect(session)).solana?.caipNetworkId).toBe(MAINNET)
    expect(await session.getCaipNetworkId('solana', DEVNET)).toBe(DEVNET)
    expect(await session.getCaipNetworkId('solana', TESTNET)).toBe(MAINNET)
    const asked = wallet.requests.length
    await session.switchNetwork('solana', DEVNET)
    expect(await session.getCaipNetworkId('solana')).toBe(DEVNET)
    await expect(session.switchNetwork('solana', TESTNET)).rejects.toMatchObject({ code: 'CHAIN_NOT_SUPPORTED' })
    await expect(session.solana.signMessage({ message: new Uint8Array([1]), address: wallet.solanaAddress, caipNetworkId: TESTNET })).rejects.toMatchObject({ code: 'CHAIN_NOT_SUPPORTED' })
    expect(wallet.requests.length).toBe(asked)
    await session.disconnect()
  }, 30_000)

  it('refuses bytes that are no wire transaction before asking the wallet', async () => {
    const { session } = setup()
    await connect(session)
    const asked = wallet.requests.length
    await expect(session.solana.signTransaction({ transaction: new Uint8Array([1, 2, 3]) })).rejects.toMatchObject({ code: 'INVALID_PARAMS' })
    expect(wallet.requests.length).toBe(asked)
    await session.disconnect()
  }, 30_000)

  it('finds the Solana account again after a reload, hears its changes from session updates, and the wallet disconnect', async () => {
    const { session, make } = setup()
    await connect(session, wallet, DEVNET)
    const reloaded = make()
    expect(await reloaded.isAuthorized('solana', DEVNET)).toBe(true)
    expect(await reloaded.isAuthorized('eip155')).toBe(true)
    expect(await reloaded.getAccounts('solana')).toEqual([wallet.solanaAddress])
    expect(await reloaded.getCaipNetworkId('solana')).toBe(DEVNET)

    const changes: string[][] = []
    const ended = new Promise<void>((resolve) => reloaded.watch({ onAccountsChanged: (namespace, accounts) => namespace === 'solana' && changes.push(accounts), onDisconnect: resolve }))
    const topic = wallet.sessions().at(-1)!.topic
    const { eip155, solana } = wallet.sessions().at(-1)!.namespaces
    const next = deriveSolanaDevKey('tessera-wc-test-next').address
    const updated = await wallet.client.update({ topic, namespaces: { eip155: eip155!, solana: { ...solana!, accounts: [`${DEVNET}:${next}`] } } })
    await updated.acknowledged()
    await expect.poll(() => changes).toEqual([[next]])
    expect(await reloaded.getAccounts('solana')).toEqual([next])
    const dropped = await wallet.client.update({ topic, namespaces: { eip155: eip155! } })
    await dropped.acknowledged()
    await expect.poll(() => changes).toEqual([[next], []])
    await expect(reloaded.getAccounts('solana')).rejects.toMatchObject({ code: 'DISCONNECTED' })
    expect(await reloaded.getAccounts('eip155')).toEqual([wallet.address])

    await wallet.disconnectAll()
    await ended
    await expect(reloaded.getAccounts('solana')).rejects.toMatchObject({ code: 'DISCONNECTED' })
  }, 30_000)
})
