import { secp256k1 } from '@noble/curves/secp256k1'
import { networks, Psbt } from 'bitcoinjs-lib'
import { describe, expect, it, vi } from 'vitest'
import { createDevBitcoinWallet } from '../../../../demo/devWallet/bitcoin/createDevBitcoinWallet'
import { deriveBitcoinAccounts } from '../../../../services/chain/bitcoin/devKeys'
import { verifyBip322 } from '../../../shared/bitcoin/bip322'
import type { WidgetError } from '../../../shared/protocol/errors'
import { createSatsConnectConnector, type SatsConnectProvider } from './createSatsConnectConnector'

const devAccounts = deriveBitcoinAccounts({ count: 2 })
const [first, second] = devAccounts as [(typeof devAccounts)[0], (typeof devAccounts)[0]]
const info = { id: 'TesseraDevBitcoin.BitcoinProvider', name: 'Tessera Dev Bitcoin Wallet', icon: 'data:image/png;base64,AAAA' }
const rejection = (promise: Promise<unknown>) => promise.then(() => undefined, (error: WidgetError) => error)
const flush = () => new Promise((resolve) => setTimeout(resolve, 0))

const setup = () => {
  const devWallet = createDevBitcoinWallet({ accounts: devAccounts })
  return { devWallet, connector: createSatsConnectConnector({ info, provider: devWallet.satsConnect }) }
}

function unsignedPsbt(address: string) {
  const script = new Psbt({ network: networks.regtest }).addOutput({ address, value: 1n }).txOutputs[0]!.script
  return new Psbt({ network: networks.regtest }).addInput({ hash: 'cd'.repeat(32), index: 1, witnessUtxo: { script, value: 60_000n } }).addOutput({ address: second.payment.address, value: 50_000n }).toBase64()
}

/** A sats-connect provider answering `answers[method]`, recording what it was asked. */
function fakeProvider(answers: Record<string, unknown>) {
  const asked: [string, unknown][] = []
  const provider: SatsConnectProvider = {
    request: async (method, params) => {
      asked.push([method, params])
      const answer = answers[method]
      if (answer instanceof Error) throw answer
      return answer ?? { status: 'error', error: { code: -32601, message: `no ${method}` } }
    },
  }
  return { provider, asked }
}

describe('sats-connect connector over the dev wallet’s provider', () => {
  it('describes itself by its btc_providers entry', () => {
    const { connector } = setup()
    expect(connector).toMatchObject({ id: `satsConnect:${info.id}`, name: info.name, type: 'ANNOUNCED', namespace: 'bip122', kind: 'satsConnect', imageUrl: info.icon })
  })

  it('connects by getAddresses (payment, then ordinals), and is then authorized without a prompt (wallet_getAccount)', async () => {
    const { connector } = setup()
    expect(await connector.isAuthorized()).toBe(false)
    expect((await connector.connect('regtest')).map((a) => [a.purpose, a.address, a.publicKey])).toEqual([
      ['payment', first.payment.address, first.payment.publicKey],
      ['ordinals', first.ordinals.address, first.ordinals.publicKey],
    ])
    expect(await connector.isAuthorized()).toBe(true)
  })

  it('signs a PSBT (base64 in and out, never broadcast) and a BIP-322 message', async () => {
    const { connector } = setup()
    await connector.connect('regtest')
    const signed = Psbt.fromBase64(await connector.signPsbt({ psbtBase64: unsignedPsbt(first.payment.address), address: first.payment.address, signingIndexes: [0], network: 'regtest' }))
    expect(signed.validateSignaturesOfInput(0, (key, hash, signature) => secp256k1.verify(signature, hash, key))).toBe(true)
    const signature = await connector.signMessage('hello', first.ordinals.address)
    expect(verifyBip322({ message: 'hello', address: first.ordinals.address, signature })).toBe(true)
  })

  it('maps a refusal (-32000) to USER_REJECTED', async () => {
    const { devWallet, connector } = setup()
    devWallet.rejectNext('bitcoin:connect')
    expect(await rejection(connector.connect('regtest'))).toMatchObject({ code: 'USER_REJECTED' })
    await connector.connect('regtest')
    devWallet.rejectNext('bitcoin:signTransaction')
    expect(await rejection(connector.signPsbt({ psbtBase64: unsignedPsbt(first.payment.address), address: first.payment.address, signingIndexes: [0], network: 'regtest' }))).toMatchObject({ code: 'USER_REJECTED' })
  })

  it('follows accountChange (with the new addresses) and disconnect events; disconnect() ends the permission', async () => {
    const { devWallet, connector } = setup()
    await connector.connect('regtest')
    const seen: unknown[] = []
    const stop = connector.watch({ onAccountsChanged: (accounts) => seen.push(accounts[0]!.address), onDisconnect: () => seen.push('disconnect') })
    await flush()
    devWallet.switchAccount(1)
    devWallet.disconnect()
    stop()
    await connector.connect('regtest')
    expect(seen).toEqual([second.payment.address, 'disconnect'])
    await connector.disconnect()
    expect(await connector.isAuthorized()).toBe(false)
  })
})

describe('sats-connect connector over other providers', () => {
  const addresses = { addresses: [{ address: first.ordinals.address, purpose: 'ordinals' }, { address: first.payment.address, purpose: 'payment' }] }

  it('asks getAddresses for both purposes, and signPsbt with signInputs by address and broadcast off', async () => {
    const { provider, asked } = fakeProvider({ getAddresses: { status: 'success', result: addresses }, signPsbt: { status: 'success', result: { psbt: 'cHNidP8B' } } })
    const connector = createSatsConnectConnector({ info, provider })
    expect((await connector.connect('mainnet')).map((a) => a.purpose)).toEqual(['payment', 'ordinals'])
    expect(await connector.signPsbt({ psbtBase64: 'cHNidA==', address: first.payment.address, signingIndexes: [0, 1], network: 'mainnet' })).toBe('cHNidP8B')
    expect(asked).toEqual([
      ['getAddresses', { purposes: ['payment', 'ordinals'] }],
      ['signPsbt', { psbt: 'cHNidA==', signInputs: { [first.payment.address]: [0, 1] }, broadcast: false }],
    ])
  })

  it.each([
    ['a thrown error with a refusal code', new Error('x'), 'UNKNOWN'],
    ['an answer that is neither success nor error', { status: 'maybe' }, 'WALLET_BAD_RESPONSE'],
    ['no address at all', { status: 'success', result: { addresses: [] } }, 'WALLET_BAD_RESPONSE'],
    ['access denied', { status: 'error', error: { code: -32002, message: 'denied' } }, 'UNAUTHORIZED'],
  ])('connect with %s is %s', async (_name, answer, code) => {
    const connector = createSatsConnectConnector({ info, provider: fakeProvider({ getAddresses: answer }).provider })
    expect(await rejection(connector.connect('mainnet'))).toMatchObject({ code })
  })

  it('refuses a signed PSBT that is not base64 and a missing signature', async () => {
    const connector = createSatsConnectConnector({ info, provider: fakeProvider({ signPsbt: { status: 'success', result: { psbt: '<script>' } }, signMessage: { status: 'success', result: {} } }).provider })
    expect(await rejection(connector.signPsbt({ psbtBase64: 'cHNidA==', address: first.payment.address, signingIndexes: [0], network: 'mainnet' }))).toMatchObject({ code: 'WALLET_BAD_RESPONSE' })
    expect(await rejection(connector.signMessage('hi', first.payment.address))).toMatchObject({ code: 'WALLET_BAD_RESPONSE' })
  })

  it('switches the wallet’s network by wallet_changeNetwork, in sats-connect’s words', async () => {
    const { provider, asked } = fakeProvider({ wallet_changeNetwork: { status: 'success', result: true } })
    await createSatsConnectConnector({ info, provider }).switchNetwork!('testnet')
    expect(asked).toEqual([['wallet_changeNetwork', { name: 'Testnet' }]])
  })

  it('a wallet without wallet_disconnect disconnects quietly; one that fails to is DISCONNECT_FAILED', async () => {
    await expect(createSatsConnectConnector({ info, provider: fakeProvider({}).provider }).disconnect()).resolves.toBeUndefined()
    const failing = createSatsConnectConnector({ info, provider: fakeProvider({ wallet_disconnect: { status: 'error', error: { code: -32603, message: 'oops' } } }).provider })
    expect(await rejection(failing.disconnect())).toMatchObject({ code: 'DISCONNECT_FAILED' })
  })

  it('asks for the addresses when a change event carries none; the newest answer wins', async () => {
    let current = addresses
    const listeners = new Map<string, (event: unknown) => void>()
    const provider: SatsConnectProvider = {
      request: async (method) => (method === 'wallet_getAccount' ? { status: 'success', result: current } : { status: 'error', error: { code: -32601, message: '' } }),
      addListener: ({ eventName, cb }) => (listeners.set(eventName, cb), () => listeners.delete(eventName)),
    }
    const onAccountsChanged = vi.fn()
    const stop = createSatsConnectConnector({ info, provider }).watch({ onAccountsChanged })
    await flush()
    current = { addresses: [{ address: second.payment.address, purpose: 'payment' }] }
    listeners.get('networkChange')!({ type: 'networkChange' })
    await flush()
    expect(onAccountsChanged).toHaveBeenCalledWith([{ address: second.payment.address, purpose: 'payment' }])
    stop()
    expect(listeners.size).toBe(0)
  })
})
