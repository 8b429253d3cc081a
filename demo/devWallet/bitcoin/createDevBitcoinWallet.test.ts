import { schnorr, secp256k1 } from '@noble/curves/secp256k1'
import { base64, hex } from '@scure/base'
import type { WalletAccount } from '@wallet-standard/base'
import { networks, Psbt } from 'bitcoinjs-lib'
import { describe, expect, it } from 'vitest'
import { deriveBitcoinAccounts } from '../../../services/chain/bitcoin/devKeys'
import { verifyBip322 } from '../../../src/shared/families/bip122/bip322'
import { createDevBitcoinWallet } from './createDevBitcoinWallet'

const devAccounts = deriveBitcoinAccounts({ count: 2 })

/** A memory Storage, as an extension keeps its state across page loads. */
const memoryStorage = () => {
  const map = new Map<string, string>()
  return { getItem: (k: string) => map.get(k) ?? null, setItem: (k: string, v: string) => void map.set(k, v), removeItem: (k: string) => void map.delete(k) }
}

type Features = {
  'bitcoin:connect': { connect: (input: { purposes: ('payment' | 'ordinals')[] }) => Promise<{ accounts: WalletAccount[] }> }
  'bitcoin:signTransaction': { signTransaction: (...inputs: unknown[]) => Promise<{ signedPsbt: Uint8Array }[]> }
  'bitcoin:signMessage': { signMessage: (...inputs: { account: WalletAccount; message: Uint8Array }[]) => Promise<{ signature: Uint8Array }[]> }
}
const featuresOf = (devWallet: ReturnType<typeof createDevBitcoinWallet>) => devWallet.wallet.features as unknown as Features

/** A PSBT spending one coin of the payment address and one of the ordinals address (made-up previous outputs). */
function twoInputPsbt(account = devAccounts[0]!) {
  const script = (address: string) => {
    const psbt = new Psbt({ network: networks.regtest })
    psbt.addOutput({ address, value: 1n })
    return psbt.txOutputs[0]!.script
  }
  const psbt = new Psbt({ network: networks.regtest })
  psbt.addInput({ hash: '11'.repeat(32), index: 0, witnessUtxo: { script: script(account.payment.address), value: 50_000n } })
  psbt.addInput({ hash: '22'.repeat(32), index: 1, witnessUtxo: { script: script(account.ordinals.address), value: 30_000n }, tapInternalKey: hex.decode(account.ordinals.publicKey) })
  psbt.addOutput({ address: devAccounts[1]!.payment.address, value: 70_000n })
  return psbt
}

const ecdsaValid = (publicKey: Uint8Array, hash: Uint8Array, signature: Uint8Array) => secp256k1.verify(signature, hash, publicKey)
const schnorrValid = (publicKey: Uint8Array, hash: Uint8Array, signature: Uint8Array) => schnorr.verify(signature, hash, publicKey)

describe('the dev Bitcoin wallet', () => {
  it('holds the local chain’s dev accounts: the manifest’s payment and ordinals addresses', () => {
    const devWallet = createDevBitcoinWallet({ accounts: devAccounts })
    expect(devWallet.addresses).toEqual(devAccounts.map((a) => ({ payment: a.payment.address, ordinals: a.ordinals.address })))
    expect(devWallet.wallet.chains).toEqual(['bitcoin:regtest'])
  })

  it('connects by purpose (in the order asked), and remembers the site across loads', async () => {
    const storage = memoryStorage()
    const devWallet = createDevBitcoinWallet({ accounts: devAccounts, storage })
    expect(devWallet.wallet.accounts).toEqual([])
    const { accounts } = await featuresOf(devWallet)['bitcoin:connect'].connect({ purposes: ['ordinals', 'payment'] })
    expect(accounts.map((a) => a.address)).toEqual([devAccounts[0]!.ordinals.address, devAccounts[0]!.payment.address])
    expect(hex.encode(Uint8Array.from(accounts[1]!.publicKey))).toBe(devAccounts[0]!.payment.publicKey)
    expect(hex.encode(Uint8Array.from(accounts[0]!.publicKey))).toBe(devAccounts[0]!.ordinals.publicKey)
    devWallet.switchAccount(1)
    const reloaded = createDevBitcoinWallet({ accounts: devAccounts, storage })
    expect(reloaded.wallet.accounts.map((a) => a.address)).toEqual([devAccounts[1]!.payment.address, devAccounts[1]!.ordinals.address])
  })

  it('signs a PSBT’s P2WPKH input with ECDSA and its P2TR input with a BIP-86 Schnorr signature that verify, and the PSBT finalizes', async () => {
    const devWallet = createDevBitcoinWallet({ accounts: devAccounts })
    const { accounts } = await featuresOf(devWallet)['bitcoin:connect'].connect({ purposes: ['payment', 'ordinals'] })
    const outputs = await featuresOf(devWallet)['bitcoin:signTransaction'].signTransaction({
      psbt: twoInputPsbt().toBuffer(),
      chain: 'bitcoin:regtest',
      inputsToSign: [
        { account: accounts[0], signingIndexes: [0] },
        { account: accounts[1], signingIndexes: [1] },
      ],
    })
    // As the Bitcoin Wallet Standard publishes it: a list, one output per input.
    expect(outputs).toHaveLength(1)
    const { signedPsbt } = outputs[0]!
    const signed = Psbt.fromBuffer(signedPsbt, { network: networks.regtest })
    expect(signed.data.inputs[0]!.partialSig).toHaveLength(1)
    expect(signed.validateSignaturesOfInput(0, ecdsaValid)).toBe(true)
    expect(signed.data.inputs[1]!.tapKeySig).toHaveLength(64)
    expect(signed.validateSignaturesOfInput(1, schnorrValid)).toBe(true)
    // A signature by another key does not verify: the check above can fail.
    expect(signed.validateSignaturesOfInput(1, (_key, hash, signature) => schnorr.verify(signature, hash, schnorr.getPublicKey(secp256k1.utils.randomPrivateKey())))).toBe(false)
    signed.finalizeAllInputs()
    expect(signed.extractTransaction().ins).toHaveLength(2)
  })

  it('refuses to sign an input that is not its address’s, or for an account it did not connect', async () => {
    const devWallet = createDevBitcoinWallet({ accounts: devAccounts })
    const sign = (account: unknown, signingIndexes: number[]) =>
      featuresOf(devWallet)['bitcoin:signTransaction'].signTransaction({ psbt: twoInputPsbt().toBuffer(), chain: 'bitcoin:regtest', inputsToSign: [{ account, signingIndexes }] })
    const [payment] = (await featuresOf(devWallet)['bitcoin:connect'].connect({ purposes: ['payment'] })).accounts
    await expect(sign(payment, [1])).rejects.toMatchObject({ code: -32602 })
    await expect(sign({ address: devAccounts[1]!.payment.address }, [0])).rejects.toMatchObject({ code: 4100 })
  })

  it('signs messages with BIP-322 (simple) for both addresses', async () => {
    const devWallet = createDevBitcoinWallet({ accounts: devAccounts })
    const { accounts } = await featuresOf(devWallet)['bitcoin:connect'].connect({ purposes: ['payment', 'ordinals'] })
    const message = 'Sign in to Tessera'
    const outputs = await featuresOf(devWallet)['bitcoin:signMessage'].signMessage(...accounts.map((account) => ({ account, message: new TextEncoder().encode(message) })))
    for (const [i, { signature }] of outputs.entries()) {
      expect(verifyBip322({ message, address: accounts[i]!.address, signature: base64.encode(signature) })).toBe(true)
      expect(verifyBip322({ message: `${message}!`, address: accounts[i]!.address, signature: base64.encode(signature) })).toBe(false)
    }
  })

  it('says no when a test asks it to: 4001 by the Wallet Standard, a JSON-RPC error with USER_REJECTION (-32000) through sats-connect', async () => {
    const devWallet = createDevBitcoinWallet({ accounts: devAccounts })
    devWallet.rejectNext('bitcoin:connect')
    await expect(featuresOf(devWallet)['bitcoin:connect'].connect({ purposes: ['payment'] })).rejects.toMatchObject({ code: 4001 })
    devWallet.rejectNext()
    const refused = await devWallet.satsConnect.request('getAddresses', { purposes: ['payment'] })
    expect(refused).toEqual({ jsonrpc: '2.0', id: expect.any(String), error: { code: -32000, message: 'User rejected the request.' } })
    expect(await devWallet.satsConnect.request('getAddresses', { purposes: ['payment'] })).toMatchObject({ jsonrpc: '2.0', result: { addresses: [{ purpose: 'payment' }] } })
    devWallet.rejectNext('bitcoin:signMessage')
    expect(await devWallet.satsConnect.request('signMessage', { address: devAccounts[0]!.payment.address, message: 'hi', protocol: 'BIP322' })).toMatchObject({ jsonrpc: '2.0', error: { code: -32000 } })
  })

  it('waits while a test holds it, as a user reading the prompt', async () => {
    const devWallet = createDevBitcoinWallet({ accounts: devAccounts })
    const release = devWallet.hold()
    let isDone = false
    const connecting = featuresOf(devWallet)['bitcoin:connect'].connect({ purposes: ['payment'] }).then(() => (isDone = true))
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(isDone).toBe(false)
    release()
    await connecting
    expect(isDone).toBe(true)
  })

  it('answers sats-connect requests: no account before getAddresses, then its addresses, PSBTs and BIP-322 signatures; events on change', async () => {
    const devWallet = createDevBitcoinWallet({ accounts: devAccounts })
    const { satsConnect } = devWallet
    expect(await satsConnect.request('wallet_getAccount', null)).toMatchObject({ jsonrpc: '2.0', error: { code: -32002 } })
    const events: unknown[] = []
    const off = satsConnect.addListener({ eventName: 'accountChange', cb: (event) => events.push(event) })
    const got = (await satsConnect.request('getAddresses', { purposes: ['payment', 'ordinals'] })) as { result: { addresses: { address: string; purpose: string }[] } }
    expect(got.result.addresses.map((a) => [a.purpose, a.address])).toEqual([
      ['payment', devAccounts[0]!.payment.address],
      ['ordinals', devAccounts[0]!.ordinals.address],
    ])
    const signed = (await satsConnect.request('signPsbt', { psbt: twoInputPsbt().toBase64(), signInputs: { [devAccounts[0]!.payment.address]: [0] }, broadcast: false })) as { result: { psbt: string } }
    expect(Psbt.fromBase64(signed.result.psbt).validateSignaturesOfInput(0, ecdsaValid)).toBe(true)
    const message = (await satsConnect.request('signMessage', { address: devAccounts[0]!.payment.address, message: 'hello', protocol: 'BIP322' })) as { result: { signature: string } }
    expect(verifyBip322({ message: 'hello', address: devAccounts[0]!.payment.address, signature: message.result.signature })).toBe(true)
    expect(await satsConnect.request('sendTransfer', { recipients: [] })).toMatchObject({ jsonrpc: '2.0', error: { code: -32601 } })
    devWallet.switchAccount(1)
    off()
    devWallet.switchAccount(0)
    // Connecting and the switch were told; nothing after the listener was removed.
    const payments = (events as { addresses: { address: string; purpose: string }[] }[]).map((event) => event.addresses.find((a) => a.purpose === 'payment')?.address)
    expect(payments).toEqual([devAccounts[0]!.payment.address, devAccounts[1]!.payment.address])
  })

  it('answers sats-connect requests with JSON-RPC 2.0 responses of the published shapes', async () => {
    const devWallet = createDevBitcoinWallet({ accounts: devAccounts })
    const { satsConnect } = devWallet
    const account = devAccounts[0]!
    const network = { bitcoin: { name: 'Regtest' }, stacks: { name: 'testnet' }, spark: { name: 'regtest' } }
    const address = (key: { address: string; publicKey: string }, purpose: string, addressType: string) => ({ address: key.address, publicKey: key.publicKey, purpose, addressType, walletType: 'software' })
    const addresses = [address(account.payment, 'payment', 'p2wpkh'), address(account.ordinals, 'ordinals', 'p2tr')]
    const answers = [
      await satsConnect.request('getInfo', null),
      await satsConnect.request('getAddresses', { purposes: ['payment', 'ordinals'] }),
      await satsConnect.request('wallet_getAccount', null),
      await satsConnect.request('wallet_getNetwork', null),
      await satsConnect.request('wallet_changeNetwork', { name: 'Regtest' }),
      await satsConnect.request('signMessage', { address: account.payment.address, message: 'Hello World', protocol: 'BIP322' }),
      await satsConnect.request('wallet_disconnect', null),
    ] as { jsonrpc: string; id: string; result: Record<string, unknown> }[]
    expect(answers.every((answer) => answer.jsonrpc === '2.0' && !('status' in answer) && 'result' in answer)).toBe(true)
    expect(new Set(answers.map((answer) => answer.id)).size).toBe(answers.length)
    expect(answers[0]!.result).toMatchObject({ version: expect.any(String), methods: expect.arrayContaining(['getAddresses', 'signPsbt', 'signMessage']), supports: [] })
    expect(answers[1]!.result).toEqual({ addresses, network })
    expect(answers[2]!.result).toEqual({ id: 'dev-0', addresses, walletType: 'software', network })
    expect(answers[3]!.result).toEqual(network)
    expect(answers[4]!.result).toBeNull()
    // BIP-322's test vector: the message hash of "Hello World".
    expect(answers[5]!.result).toMatchObject({ messageHash: 'f0eb03b1a75ac6d9847f55c624a99169b5dccba2a31f5b23bea77ba270de0a7a', address: account.payment.address, protocol: 'BIP322' })
    expect(answers[6]!.result).toBeNull()
    expect(await satsConnect.request('wallet_changeNetwork', { name: 'Mainnet' })).toMatchObject({ jsonrpc: '2.0', error: { code: -32602 } })
  })

  it('signs every input of a Wallet Standard signTransaction, one output each', async () => {
    const devWallet = createDevBitcoinWallet({ accounts: devAccounts })
    const { accounts } = await featuresOf(devWallet)['bitcoin:connect'].connect({ purposes: ['payment', 'ordinals'] })
    const outputs = await featuresOf(devWallet)['bitcoin:signTransaction'].signTransaction(
      { psbt: twoInputPsbt().toBuffer(), chain: 'bitcoin:regtest', inputsToSign: [{ account: accounts[0], signingIndexes: [0] }] },
      { psbt: twoInputPsbt().toBuffer(), chain: 'bitcoin:regtest', inputsToSign: [{ account: accounts[1], signingIndexes: [1] }] },
    )
    expect(outputs).toHaveLength(2)
    expect(Psbt.fromBuffer(outputs[0]!.signedPsbt).validateSignaturesOfInput(0, ecdsaValid)).toBe(true)
    expect(Psbt.fromBuffer(outputs[1]!.signedPsbt).validateSignaturesOfInput(1, schnorrValid)).toBe(true)
  })
})
