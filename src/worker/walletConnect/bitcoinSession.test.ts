import { hex } from '@scure/base'
import { networks, payments, Psbt, Transaction } from 'bitcoinjs-lib'
import { expose, proxy, transferHandlers, wrap, type Remote } from 'comlink'
import * as ecc from 'tiny-secp256k1'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bitcoinSignIn } from '../../../services/api/routes/bitcoinSignIn'
import { createRelay, type Relay } from '../../../services/relay/createRelay'
import { createNodeBitcoinSigner } from '../../../services/relay/testing/createNodeBitcoinSigner'
import { createNodeWallet, memoryStorage, type NodeWallet } from '../../../services/relay/testing/createNodeWallet'
import { freePorts } from '../../../services/stack/ports'
import { verifyBip322 } from '../../shared/families/bip122/bip322'
import { bitcoinNetworks } from '../../shared/families/bip122/address'
import { installErrorTransferHandler } from '../../shared/protocol/errors'
import { createBitcoinSignInMessage } from '../../shared/families/bip122/signInMessage'
import type { SessionEvent, WalletConnectWorkerApi } from '../../shared/protocol/walletConnectApi'
import { createBitcoinClient } from '../families/bip122/bitcoin'
import { createWalletConnectWorkerApi } from './createWalletConnectWorkerApi'

const REGTEST = bitcoinNetworks.regtest.caipNetworkId
const TESTNET = bitcoinNetworks.testnet.caipNetworkId
const EIP155 = 31337
/** Another dev account's addresses: what a wallet announces when its visitor picks another account. */
const [otherPayment, otherOrdinals] = createNodeBitcoinSigner({ keyIndex: 9, caipNetworkIds: [REGTEST] }).keysOn(REGTEST)
/** A regtest P2WPKH address of nobody's key, one per `seed`. */
const fillerAddress = (seed: number) => payments.p2wpkh({ hash: new Uint8Array(20).fill(seed), network: networks.regtest }).address!

installErrorTransferHandler(transferHandlers)

/**
 * An unsigned transfer as the worker's Bitcoin client builds it for the send flow, from `from` to another address, over
 * an Esplora answering one confirmed coin of 1 BTC; its POST /tx answers the txid of what it was sent.
 */
function createEsplora() {
  const answer = (body: unknown) => new Response(JSON.stringify(body), { status: 200 })
  const coin = { txid: 'ab'.repeat(32), vout: 1, value: 100_000_000, status: { confirmed: true, block_height: 10 } }
  const client = createBitcoinClient({
    apiUrl: 'http://esplora.test',
    network: 'regtest',
    fetch: async (input, init) => {
      const path = new URL(input).pathname
      if (init.method === 'POST' && path === '/tx') return new Response(Transaction.fromHex(String(init.body)).getId())
      if (path.endsWith('/utxo')) return answer([coin])
      if (path === '/blocks/tip/height') return answer(1_000)
      return new Response('not found', { status: 404 })
    },
  })
  return client
}

/** Whether input `index` of a signed PSBT carries valid signatures: ECDSA by a 33-byte key, Schnorr by a taproot (x-only) output key. */
const hasValidSignature = (psbt: Psbt, index: number) =>
  psbt.validateSignaturesOfInput(index, (pubkey, digest, signature) => (pubkey.length === 32 ? ecc.verifySchnorr(digest, pubkey, signature) : ecc.verify(digest, pubkey, signature)))
/** The transaction a PSBT is about, its signatures aside. */
const unsignedTx = (psbtBase64: string) => hex.encode((Psbt.fromBase64(psbtBase64).data.globalMap.unsignedTx as unknown as { toBuffer(): Uint8Array }).toBuffer())

describe('WalletConnect’s bip122 namespace through our relay, from the page’s side of the worker, with a real wallet client', () => {
  let relay: Relay
  let wallet: NodeWallet
  beforeAll(async () => {
    const ports = await freePorts()
    relay = createRelay({ port: ports.relay })
    await relay.ready
    // No anvil: nothing here sends an eip155 transaction.
    wallet = await createNodeWallet({ relayUrl: relay.url, chains: [{ chainId: EIP155, rpcUrl: 'http://127.0.0.1:1' }], addressIndex: 2, name: 'Bitcoin Wallet', bip122CaipNetworkIds: [REGTEST, TESTNET] })
  })
  afterAll(async () => {
    await wallet.close()
    relay.close()
  })

  const closers: (() => void)[] = []
  afterAll(() => closers.forEach((close) => close()))

  /** The WalletConnect worker's API as the page holds it: over a MessageChannel by comlink, its events in `events`. */
  const setup = async (bip122: string[] = [REGTEST, TESTNET]) => {
    const { port1, port2 } = new MessageChannel()
    expose(createWalletConnectWorkerApi({ storage: memoryStorage() as never }), port2)
    const page: Remote<WalletConnectWorkerApi> = wrap<WalletConnectWorkerApi>(port1)
    const events: SessionEvent[] = []
    const metadata = { name: 'dApp', description: 'dApp', url: 'http://127.0.0.1', icons: [] }
    await page.configure({ projectId: 'test', relayUrl: relay.url, storagePrefix: `dapp-${Math.random()}`, metadata, networks: { eip155: [`eip155:${EIP155}`], bip122 } }, proxy((event: SessionEvent) => void events.push(event)))
    closers.push(() => (port1.close(), port2.close()))
    return { page, events }
  }
  const connect = async (page: Remote<WalletConnectWorkerApi>, preferredBip122?: string) => {
    const uri = await page.pair({ bip122: preferredBip122 })
    await wallet.pair(uri)
    return page.approval(uri)
  }
  /** The wallet's payment and ordinals keys, with their addresses on `network`. */
  const keysOf = (network: string) => {
    const [paymentKey, ordinalsKey] = wallet.bitcoin!.keysOn(network)
    return { payment: paymentKey!, ordinals: ordinalsKey! }
  }
  const regtest = () => keysOf(REGTEST)
  const latestTopic = () => wallet.sessions().at(-1)!.topic
  const announce = async (data: unknown, chainId: string = REGTEST) => wallet.client.emit({ topic: latestTopic(), chainId, event: { name: 'bip122_addressesChanged', data } })

  it('gives the page the approved Bitcoin addresses on the network it asked for, payment first, never another network’s', async () => {
    const { page } = await setup()
    const approval = await connect(page, REGTEST)
    const { payment, ordinals } = regtest()
    expect(approval).toEqual({ eip155: { accounts: [wallet.address], caipNetworkId: `eip155:${EIP155}` }, bip122: { accounts: [payment.address, ordinals.address], caipNetworkId: REGTEST } })
    // The session lists ordinals first, and testnet's addresses (the same keys) beside regtest's.
    const approved = wallet.sessions().at(-1)!.namespaces.bip122!
    expect(approved.accounts).toEqual([`${REGTEST}:${ordinals.address}`, `${REGTEST}:${payment.address}`, `${TESTNET}:${keysOf(TESTNET).ordinals.address}`, `${TESTNET}:${keysOf(TESTNET).payment.address}`])
    expect(approved.methods).toEqual(['getAccountAddresses', 'signMessage', 'signPsbt', 'sendTransfer'])
    expect(approved.events).toEqual(['bip122_addressesChanged'])
    expect(await page.getAccounts('bip122')).toEqual([payment.address, ordinals.address])
    expect(await page.getAccounts('eip155')).toEqual([wallet.address])

    // On testnet, testnet's addresses alone.
    await page.switchNetwork('bip122', TESTNET)
    expect(await page.getCaipNetworkId('bip122')).toBe(TESTNET)
    expect(await page.getAccounts('bip122')).toEqual([keysOf(TESTNET).payment.address, keysOf(TESTNET).ordinals.address])
    await page.disconnect()
  }, 30_000)

  it('keeps a network the host did not configure out of the page, even when the wallet approved it', async () => {
    const { page } = await setup([REGTEST])
    expect((await connect(page, TESTNET)).bip122).toEqual({ accounts: [regtest().payment.address, regtest().ordinals.address], caipNetworkId: REGTEST })
    expect(wallet.sessions().at(-1)!.namespaces.bip122!.chains).toEqual([REGTEST, TESTNET])
    expect(await page.getCaipNetworkId('bip122', TESTNET)).toBe(REGTEST)
    await expect(page.switchNetwork('bip122', TESTNET)).rejects.toMatchObject({ code: 'CHAIN_NOT_SUPPORTED' })
    await expect(page.bip122SignMessage({ message: 'hi', address: keysOf(TESTNET).payment.address, caipNetworkId: TESTNET })).rejects.toMatchObject({ code: 'CHAIN_NOT_SUPPORTED' })
    await page.disconnect()
  }, 30_000)

  it('signs a message with BIP-322: the sign-in service accepts it from the payment address, and an ordinals signature verifies too', async () => {
    const { page } = await setup()
    await connect(page, REGTEST)
    const { payment, ordinals } = regtest()
    const message = createBitcoinSignInMessage({ domain: 'dapp.test', address: payment.address, uri: 'https://dapp.test', version: '1', chainId: REGTEST.slice('bip122:'.length), nonce: 'n0nce1234', issuedAt: new Date() })
    const signature = await page.bip122SignMessage({ message, address: payment.address })
    expect(wallet.requests.at(-1)).toEqual({ method: 'signMessage', params: { account: payment.address, address: payment.address, message, protocol: 'bip322' } })
    expect(bitcoinSignIn.read(message)).toMatchObject({ ok: true, fields: { caipAddress: `${REGTEST}:${payment.address}` } })
    expect(await bitcoinSignIn.verify({ address: payment.address, message, signature })).toBe(true)
    expect(await bitcoinSignIn.verify({ address: payment.address, message: `${message} `, signature })).toBe(false)

    const taproot = await page.bip122SignMessage({ message: 'hello Tessera from Bitcoin', address: ordinals.address })
    expect(verifyBip322({ address: ordinals.address, message: 'hello Tessera from Bitcoin', signature: taproot })).toBe(true)
    expect(verifyBip322({ address: payment.address, message: 'hello Tessera from Bitcoin', signature: taproot })).toBe(false)
    await page.disconnect()
  }, 30_000)

  it('signs the PSBT the worker built: a valid signature on the same transaction, which the worker then finalizes', async () => {
    const { page } = await setup()
    await connect(page, REGTEST)
    const { payment, ordinals } = regtest()
    const esplora = createEsplora()
    const transfer = await esplora.buildTransfer({ from: { address: payment.address, publicKey: payment.publicKey }, to: otherPayment!.address, amount: 10_000n, feeRate: 2 })
    const signedBase64 = await page.bip122SignPsbt({ psbtBase64: transfer.psbtBase64, address: payment.address, signingIndexes: [0] })
    expect(wallet.requests.at(-1)).toEqual({ method: 'signPsbt', params: { account: payment.address, psbt: transfer.psbtBase64, signInputs: [{ address: payment.address, index: 0 }], broadcast: false } })
    const signed = Psbt.fromBase64(signedBase64)
    expect(unsignedTx(signedBase64)).toBe(unsignedTx(transfer.psbtBase64))
    expect(signed.data.inputs[0]!.partialSig?.map((s) => hex.encode(s.pubkey))).toEqual([payment.publicKey])
    expect(hasValidSignature(signed, 0)).toBe(true)
    const txid = await esplora.finalizeAndBroadcast(signedBase64)
    expect(txid).toBe(Psbt.fromBase64(signedBase64).finalizeAllInputs().extractTransaction().getId())

    // From the ordinals (taproot) address: a key-path Schnorr signature.
    const fromOrdinals = await esplora.buildTransfer({ from: { address: ordinals.address, publicKey: ordinals.publicKey }, to: otherPayment!.address, amount: 10_000n, feeRate: 2 })
    const signedTaproot = Psbt.fromBase64(await page.bip122SignPsbt({ psbtBase64: fromOrdinals.psbtBase64, address: ordinals.address, signingIndexes: [0] }))
    expect(signedTaproot.data.inputs[0]!.tapKeySig).toHaveLength(64)
    expect(hasValidSignature(signedTaproot, 0)).toBe(true)
    await page.disconnect()
  }, 30_000)

  it('brings the wallet’s bip122_addressesChanged to the page’s watcher, and only the network acted on', async () => {
    const { page, events } = await setup()
    await connect(page, REGTEST)
    // Another network's announcement first: it must not reach the page (events arrive in order).
    await announce([keysOf(TESTNET).ordinals.address], TESTNET)
    await announce([{ address: otherOrdinals!.address }, { address: otherPayment!.address }])
    await expect.poll(() => events).toEqual([{ type: 'accountsChanged', namespace: 'bip122', accounts: [otherPayment!.address, otherOrdinals!.address] }])
    expect(await page.getAccounts('bip122')).toEqual([otherPayment!.address, otherOrdinals!.address])
    // Addresses as plain strings, as some wallets send them.
    await announce([regtest().payment.address])
    await expect.poll(() => events.at(-1)).toEqual({ type: 'accountsChanged', namespace: 'bip122', accounts: [regtest().payment.address] })
    await page.disconnect()
  }, 30_000)

  it('tells the page that Bitcoin left the session (an empty list) while its eip155 account stays', async () => {
    const { page, events } = await setup()
    await connect(page, REGTEST)
    const { eip155 } = wallet.sessions().at(-1)!.namespaces
    const updated = await wallet.client.update({ topic: latestTopic(), namespaces: { eip155: eip155! } })
    await updated.acknowledged()
    await expect.poll(() => events).toContainEqual({ type: 'accountsChanged', namespace: 'bip122', accounts: [] })
    expect(events.filter((e) => e.type !== 'accountsChanged' || e.namespace !== 'eip155')).toEqual([{ type: 'accountsChanged', namespace: 'bip122', accounts: [] }])
    await expect(page.getAccounts('bip122')).rejects.toMatchObject({ code: 'DISCONNECTED' })
    await expect(page.bip122SignMessage({ message: 'hi', address: regtest().payment.address })).rejects.toMatchObject({ code: 'DISCONNECTED' })
    expect(await page.getAccounts('eip155')).toEqual([wallet.address])
    expect(await page.request({ method: 'eth_accounts' })).toEqual([wallet.address])
    await page.disconnect()
  }, 30_000)

  it('answers a wallet’s malformed signatures and PSBTs with WALLET_BAD_RESPONSE, and goes on working', async () => {
    const { page } = await setup()
    await connect(page, REGTEST)
    const { payment } = regtest()
    const { psbtBase64 } = await createEsplora().buildTransfer({ from: { address: payment.address }, to: otherPayment!.address, amount: 10_000n, feeRate: 2 })
    const signPsbt = () => page.bip122SignPsbt({ psbtBase64, address: payment.address, signingIndexes: [0] })
    for (const answer of [{ psbt: 'not base64!' }, { psbt: 'aGVsbG8gd29ybGQ=' /* base64, not a PSBT */ }, null]) {
      wallet.answerNextWith(answer)
      await expect(signPsbt()).rejects.toMatchObject({ code: 'WALLET_BAD_RESPONSE', details: expect.stringContaining('The wallet answered an invalid PSBT') })
    }
    for (const answer of [{ signature: 42 }, { signature: 'not base64!' }]) {
      wallet.answerNextWith(answer)
      await expect(page.bip122SignMessage({ message: 'hi', address: payment.address })).rejects.toMatchObject({ code: 'WALLET_BAD_RESPONSE', details: expect.stringContaining('invalid Bitcoin signature') })
    }
    // The wallet's refusal stays the visitor's.
    wallet.declineNextRequest()
    await expect(signPsbt()).rejects.toMatchObject({ code: 'USER_REJECTED', rpcCode: 4001 })
    expect(hasValidSignature(Psbt.fromBase64(await signPsbt()), 0)).toBe(true)
    await page.disconnect()
  }, 30_000)

  it('ignores malformed announcements (a non-string address, another network’s) and reads no more than 20 of 100 addresses', async () => {
    const { page, events } = await setup()
    await connect(page, REGTEST)
    const { payment, ordinals } = regtest()
    // Each would change the addresses if it were read leniently.
    await announce([42])
    await announce([{ address: 42 }, otherOrdinals!.address])
    await announce([fillerAddress(200), keysOf(TESTNET).payment.address])
    await announce('not a list')
    // 100 addresses: the first 20 are read (a payment address, no taproot one among them); what follows is not,
    // neither a taproot address nor a number.
    const hundred: unknown[] = Array.from({ length: 100 }, (_, i) => fillerAddress(i + 1))
    hundred[0] = otherPayment!.address
    hundred[50] = otherOrdinals!.address
    hundred[60] = 42
    await announce(hundred)
    await expect.poll(() => events).toEqual([{ type: 'accountsChanged', namespace: 'bip122', accounts: [otherPayment!.address] }])
    expect(await page.getAccounts('bip122')).toEqual([otherPayment!.address])
    // The session goes on: its own addresses are back with the next announcement, and they still sign.
    await announce([ordinals.address, payment.address])
    await expect.poll(() => events.at(-1)).toEqual({ type: 'accountsChanged', namespace: 'bip122', accounts: [payment.address, ordinals.address] })
    const signature = await page.bip122SignMessage({ message: 'still here', address: payment.address })
    expect(verifyBip322({ address: payment.address, message: 'still here', signature })).toBe(true)
    await page.disconnect()
  }, 30_000)

  it('refuses a session whose Bitcoin address is not one, by name, and reads no more than 20 of 100', async () => {
    const { page } = await setup()
    await connect(page, REGTEST)
    const { eip155, bip122 } = wallet.sessions().at(-1)!.namespaces
    const update = async (accounts: string[]) => (await wallet.client.update({ topic: latestTopic(), namespaces: { eip155: eip155!, bip122: { ...bip122!, accounts } } })).acknowledged()
    await update([`${REGTEST}:42`])
    await expect(page.getAccounts('bip122')).rejects.toMatchObject({ code: 'WALLET_BAD_RESPONSE', details: `The wallet reported an invalid address for ${REGTEST}: 42` })
    const hundred = Array.from({ length: 100 }, (_, i) => `${REGTEST}:${fillerAddress(i + 1)}`)
    hundred[0] = `${REGTEST}:${otherPayment!.address}`
    hundred[50] = `${REGTEST}:${otherOrdinals!.address}`
    hundred[60] = `${REGTEST}:42`
    await update(hundred)
    await expect.poll(() => page.getAccounts('bip122')).toEqual([otherPayment!.address])
    await page.disconnect()
  }, 30_000)
})
