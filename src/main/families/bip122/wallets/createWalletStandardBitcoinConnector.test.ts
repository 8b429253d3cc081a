import { schnorr, secp256k1 } from '@noble/curves/secp256k1'
import { hex } from '@scure/base'
import type { Wallet } from '@wallet-standard/base'
import { networks, Psbt } from 'bitcoinjs-lib'
import { describe, expect, it } from 'vitest'
import { createDevBitcoinWallet } from '../../../../../demo/devWallet/bitcoin/createDevBitcoinWallet'
import { deriveBitcoinAccounts } from '../../../../../services/chain/bitcoin/devKeys'
import { verifyBip322 } from '../../../../shared/families/bip122/bip322'
import type { WidgetError } from '../../../../shared/protocol/errors'
import { createWalletStandardBitcoinConnector, isBitcoinWallet } from './createWalletStandardBitcoinConnector'

const devAccounts = deriveBitcoinAccounts({ count: 2 })
const [first, second] = devAccounts as [(typeof devAccounts)[0], (typeof devAccounts)[0]]
const rejection = (promise: Promise<unknown>) => promise.then(() => undefined, (error: WidgetError) => error)

const setup = () => {
  const devWallet = createDevBitcoinWallet({ accounts: devAccounts })
  return { devWallet, connector: createWalletStandardBitcoinConnector({ wallet: devWallet.wallet }) }
}

/** An unsigned PSBT spending a made-up coin of `address` (with the key path data a P2TR input needs). */
function psbtFrom(address: string, tapInternalKey?: string) {
  const scriptOf = new Psbt({ network: networks.regtest }).addOutput({ address, value: 1n }).txOutputs[0]!.script
  return new Psbt({ network: networks.regtest })
    .addInput({ hash: 'ab'.repeat(32), index: 0, witnessUtxo: { script: scriptOf, value: 100_000n }, ...(tapInternalKey ? { tapInternalKey: hex.decode(tapInternalKey) } : {}) })
    .addOutput({ address: second.payment.address, value: 90_000n })
    .toBase64()
}

/** A hand-made wallet, for shapes the dev wallet never takes. */
function fakeWallet(features: Record<string, unknown>, accounts: Wallet['accounts'] = []): Wallet {
  return { version: '1.0.0', name: 'Fake', icon: 'data:image/png;base64,AAAA', chains: ['bitcoin:mainnet'], accounts, features: { 'bitcoin:connect': { version: '1.0.0', connect: async () => ({ accounts }) }, ...features } }
}

describe('Wallet Standard Bitcoin connector over the dev wallet', () => {
  it('describes itself', () => {
    const { devWallet, connector } = setup()
    expect(connector).toMatchObject({ id: 'walletStandard:Tessera Dev Bitcoin Wallet', name: 'Tessera Dev Bitcoin Wallet', type: 'ANNOUNCED', namespace: 'bip122', kind: 'walletStandard', imageUrl: devWallet.wallet.icon })
  })

  it('connects with the payment account first and the ordinals one second, with their keys; then is authorized', async () => {
    const { connector } = setup()
    expect(await connector.isAuthorized()).toBe(false)
    expect(await connector.connect('regtest')).toEqual([
      { address: first.payment.address, purpose: 'payment', publicKey: first.payment.publicKey },
      { address: first.ordinals.address, purpose: 'ordinals', publicKey: first.ordinals.publicKey },
    ])
    expect(await connector.isAuthorized()).toBe(true)
    expect((await connector.getAccounts()).map((a) => a.address)).toEqual([first.payment.address, first.ordinals.address])
  })

  it('has the wallet sign a PSBT for the payment address (ECDSA) and the ordinals address (Schnorr): the signatures verify', async () => {
    const { connector } = setup()
    await connector.connect('regtest')
    const payment = Psbt.fromBase64(await connector.signPsbt({ psbtBase64: psbtFrom(first.payment.address), address: first.payment.address, signingIndexes: [0], network: 'regtest' }))
    expect(payment.validateSignaturesOfInput(0, (key, hash, signature) => secp256k1.verify(signature, hash, key))).toBe(true)
    const ordinals = Psbt.fromBase64(await connector.signPsbt({ psbtBase64: psbtFrom(first.ordinals.address, first.ordinals.publicKey), address: first.ordinals.address, signingIndexes: [0], network: 'regtest' }))
    expect(ordinals.validateSignaturesOfInput(0, (key, hash, signature) => schnorr.verify(signature, hash, key))).toBe(true)
  })

  it('signs a message with BIP-322: the signature verifies for the address', async () => {
    const { connector } = setup()
    await connector.connect('regtest')
    const signature = await connector.signMessage('Sign in to Tessera', first.payment.address)
    expect(verifyBip322({ message: 'Sign in to Tessera', address: first.payment.address, signature })).toBe(true)
    expect(verifyBip322({ message: 'Sign in to Tessera', address: second.payment.address, signature })).toBe(false)
  })

  it.each([
    ['bitcoin:connect', (c: ReturnType<typeof setup>['connector']) => c.connect('regtest')],
    ['bitcoin:signMessage', (c: ReturnType<typeof setup>['connector']) => c.signMessage('hi', first.payment.address)],
    ['bitcoin:signTransaction', (c: ReturnType<typeof setup>['connector']) => c.signPsbt({ psbtBase64: psbtFrom(first.payment.address), address: first.payment.address, signingIndexes: [0], network: 'regtest' })],
  ] as const)('a refusal of %s is USER_REJECTED', async (feature, run) => {
    const { devWallet, connector } = setup()
    if (feature !== 'bitcoin:connect') await connector.connect('regtest')
    devWallet.rejectNext(feature)
    expect(await rejection(run(connector))).toMatchObject({ code: 'USER_REJECTED', shortMessage: 'User rejected the request.' })
  })

  it('refuses to sign for an address that is not connected, or on a network the wallet does not offer', async () => {
    const { connector } = setup()
    expect(await rejection(connector.signMessage('hi', first.payment.address))).toMatchObject({ code: 'UNAUTHORIZED' })
    await connector.connect('regtest')
    // The dev wallet answers EIP-1193's 4901 for a chain it does not offer.
    expect(await rejection(connector.signPsbt({ psbtBase64: psbtFrom(first.payment.address), address: first.payment.address, signingIndexes: [0], network: 'mainnet' }))).toMatchObject({ code: 'CHAIN_DISCONNECTED' })
  })

  it('reports account changes and a disconnect from standard:events, until unsubscribed; disconnect() asks the wallet', async () => {
    const { devWallet, connector } = setup()
    const seen: unknown[] = []
    const stop = connector.watch({ onAccountsChanged: (accounts) => seen.push(accounts.map((a) => a.address)), onDisconnect: () => seen.push('disconnect') })
    await connector.connect('regtest')
    devWallet.switchAccount(1)
    devWallet.switchAccount(1) // unchanged: no event
    devWallet.disconnect()
    stop()
    await connector.connect('regtest')
    expect(seen).toEqual([[first.payment.address, first.ordinals.address], [second.payment.address, second.ordinals.address], 'disconnect'])
    await connector.disconnect()
    expect(await connector.isAuthorized()).toBe(false)
  })
})

describe('Wallet Standard Bitcoin connector over other wallets', () => {
  const account = { address: first.payment.address, publicKey: hex.decode(first.payment.publicKey), chains: ['bitcoin:regtest'] as const, features: [] }

  it('knows a Bitcoin wallet by bitcoin:connect and a signing feature, whatever a page script registered', () => {
    expect(isBitcoinWallet(fakeWallet({ 'bitcoin:signMessage': { version: '1.0.0', signMessage: async () => [] } }))).toBe(true)
    expect(isBitcoinWallet(fakeWallet({}))).toBe(false)
    expect(isBitcoinWallet({ name: 'x', features: { 'solana:signMessage': {} } })).toBe(false)
    expect(isBitcoinWallet(Object.defineProperty({ name: 'Throwing' }, 'features', { get: () => { throw new Error('boom') } }))).toBe(false)
    expect(isBitcoinWallet(null)).toBe(false)
  })

  it('names a missing feature; without standard:disconnect there is nothing to ask', async () => {
    const connector = createWalletStandardBitcoinConnector({ wallet: fakeWallet({}, [account]) })
    expect(await rejection(connector.signMessage('hi', first.payment.address))).toMatchObject({ code: 'UNSUPPORTED_METHOD', details: 'Fake does not support bitcoin:signMessage' })
    expect(await rejection(connector.signPsbt({ psbtBase64: 'cHNidP8B', address: first.payment.address, signingIndexes: [0], network: 'regtest' }))).toMatchObject({ code: 'UNSUPPORTED_METHOD' })
    await expect(connector.disconnect()).resolves.toBeUndefined()
    expect(connector.watch({})).toBeTypeOf('function') // no standard:events: nothing to follow
  })

  it('takes the output list of signTransaction as published (one output per input), and refuses one that is not bytes', async () => {
    const signed = Uint8Array.of(1, 2, 3)
    const inputs: unknown[] = []
    const listing = createWalletStandardBitcoinConnector({
      wallet: fakeWallet({ 'bitcoin:signTransaction': { version: '1.0.0', signTransaction: async (input: unknown) => (inputs.push(input), [{ signedPsbt: signed }]) } }, [account]),
    })
    expect(await listing.signPsbt({ psbtBase64: 'cHNidP8B', address: first.payment.address, signingIndexes: [0, 2], network: 'regtest' })).toBe('AQID')
    expect(inputs).toMatchObject([{ chain: 'bitcoin:regtest', inputsToSign: [{ account: { address: first.payment.address }, signingIndexes: [0, 2] }], broadcast: false }])
    const bad = createWalletStandardBitcoinConnector({ wallet: fakeWallet({ 'bitcoin:signTransaction': { version: '1.0.0', signTransaction: async () => ({ signedPsbt: 'AQID' }) } }, [account]) })
    expect(await rejection(bad.signPsbt({ psbtBase64: 'cHNidP8B', address: first.payment.address, signingIndexes: [0], network: 'regtest' }))).toMatchObject({ code: 'WALLET_BAD_RESPONSE' })
  })

  it('takes one output object too, as some wallets answer signTransaction and signMessage', async () => {
    const connector = createWalletStandardBitcoinConnector({
      wallet: fakeWallet(
        {
          'bitcoin:signTransaction': { version: '1.0.0', signTransaction: async () => ({ signedPsbt: Uint8Array.of(4, 5, 6) }) },
          'bitcoin:signMessage': { version: '1.0.0', signMessage: async () => ({ signedMessage: Uint8Array.of(1), signature: Uint8Array.of(7, 8, 9) }) },
        },
        [account],
      ),
    })
    expect(await connector.signPsbt({ psbtBase64: 'cHNidP8B', address: first.payment.address, signingIndexes: [0], network: 'regtest' })).toBe('BAUG')
    expect(await connector.signMessage('hi', first.payment.address)).toBe('BwgJ')
  })

  it('signs a message as the feature publishes it: one input { account, message bytes }, a list of { signedMessage, signature }', async () => {
    const inputs: unknown[][] = []
    const connector = createWalletStandardBitcoinConnector({
      wallet: fakeWallet({ 'bitcoin:signMessage': { version: '1.0.0', signMessage: async (...given: { message: Uint8Array }[]) => (inputs.push(given), given.map(({ message }) => ({ signedMessage: message, signature: Uint8Array.of(9) }))) } }, [account]),
    })
    expect(await connector.signMessage('hi', first.payment.address)).toBe('CQ==')
    expect(inputs).toEqual([[{ account, message: new TextEncoder().encode('hi') }]])
  })

  it('answers WALLET_BAD_RESPONSE when the wallet connects without a Bitcoin address', async () => {
    const connector = createWalletStandardBitcoinConnector({ wallet: fakeWallet({}, [{ ...account, address: 'not-bitcoin', chains: ['bitcoin:mainnet'] }]) })
    expect(await rejection(connector.connect('mainnet'))).toMatchObject({ code: 'WALLET_BAD_RESPONSE' })
  })

  it('lists only the Bitcoin accounts of a wallet of several families', async () => {
    const solana = { address: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM', publicKey: new Uint8Array(32), chains: ['solana:mainnet'] as const, features: [] }
    const connector = createWalletStandardBitcoinConnector({ wallet: fakeWallet({}, [solana, account]) })
    expect((await connector.getAccounts()).map((a) => a.address)).toEqual([first.payment.address])
  })
})
