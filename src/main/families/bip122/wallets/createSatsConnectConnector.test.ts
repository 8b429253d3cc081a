import { secp256k1 } from '@noble/curves/secp256k1'
import { networks, Psbt } from 'bitcoinjs-lib'
import { describe, expect, it, vi } from 'vitest'
import { createDevBitcoinWallet } from '../../../../../demo/devWallet/bitcoin/createDevBitcoinWallet'
import { deriveBitcoinAccounts } from '../../../../../services/chain/bitcoin/devKeys'
import { verifyBip322 } from '../../../../shared/families/bip122/bip322'
import type { WidgetError } from '../../../../shared/protocol/errors'
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

/** A provider answering as the sats-connect library does (`{ status, result | error }`), recording what it was asked. */
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

type Reply = { result: unknown } | { error: { code: number; message: string; data?: unknown } } | { throws: unknown } | { raw: unknown }
/**
 * A provider answering as sats-connect wallets do (Xverse, Magic Eden): a JSON-RPC 2.0 response object,
 * `{ jsonrpc: '2.0', id, result }` or `{ jsonrpc: '2.0', id, error: { code, message } }`; `throws` rejects instead
 * (Leather rejects with the error response), `raw` answers anything. A method without a reply is -32601.
 */
function jsonRpcProvider(replies: Record<string, Reply>) {
  const asked: [string, unknown][] = []
  let id = 0
  const provider: SatsConnectProvider = {
    request: async (method, params) => {
      asked.push([method, params])
      const reply = replies[method] ?? { error: { code: -32601, message: `Method not found: ${method}` } }
      id += 1
      if ('throws' in reply) throw reply.throws
      if ('raw' in reply) return reply.raw
      return { jsonrpc: '2.0', id: `req-${id}`, ...reply }
    },
  }
  return { provider, asked }
}

// The shapes sats-connect publishes (sats-connect-core: addressSchema, getAddresses, wallet_getAccount, signPsbt, signMessage).
const published = {
  address: (address: string, publicKey: string, purpose: 'payment' | 'ordinals') => ({ address, publicKey, purpose, addressType: purpose === 'payment' ? 'p2wpkh' : 'p2tr', walletType: 'software' }),
  network: { bitcoin: { name: 'Regtest' }, stacks: { name: 'testnet' }, spark: { name: 'regtest' } },
}
const publishedAddresses = [published.address(first.payment.address, first.payment.publicKey, 'payment'), published.address(first.ordinals.address, first.ordinals.publicKey, 'ordinals')]

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
    ['a thrown error without a code', new Error('x'), 'UNKNOWN'],
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

describe('sats-connect connector over a provider answering JSON-RPC 2.0, as wallets do', () => {
  const payment = { address: first.payment.address, purpose: 'payment', publicKey: first.payment.publicKey }
  const ordinals = { address: first.ordinals.address, purpose: 'ordinals', publicKey: first.ordinals.publicKey }

  it('connects by getAddresses, and reconnects without a prompt by wallet_getAccount', async () => {
    const { provider, asked } = jsonRpcProvider({
      getAddresses: { result: { addresses: publishedAddresses, network: published.network } },
      wallet_getAccount: { result: { id: 'account-0', addresses: publishedAddresses, walletType: 'software', network: published.network } },
    })
    const connector = createSatsConnectConnector({ info, provider })
    expect(await connector.connect('regtest')).toEqual([payment, ordinals])
    expect(await connector.isAuthorized()).toBe(true)
    expect(await connector.getAccounts()).toEqual([payment, ordinals])
    expect(asked.map(([method]) => method)).toEqual(['getAddresses', 'wallet_getAccount', 'wallet_getAccount'])
  })

  it('signs a PSBT (signPsbt: { psbt }) and a message (signMessage: { signature, messageHash, address, protocol })', async () => {
    const { provider, asked } = jsonRpcProvider({
      signPsbt: { result: { psbt: 'cHNidP8BAA==' } },
      signMessage: { result: { signature: 'AkcwRAIg', messageHash: 'ab'.repeat(32), address: first.payment.address, protocol: 'BIP322' } },
    })
    const connector = createSatsConnectConnector({ info, provider })
    expect(await connector.signPsbt({ psbtBase64: 'cHNidA==', address: first.payment.address, signingIndexes: [1], network: 'regtest' })).toBe('cHNidP8BAA==')
    expect(await connector.signMessage('hello', first.payment.address)).toBe('AkcwRAIg')
    expect(asked).toEqual([
      ['signPsbt', { psbt: 'cHNidA==', signInputs: { [first.payment.address]: [1] }, broadcast: false }],
      ['signMessage', { address: first.payment.address, message: 'hello', protocol: 'BIP322' }],
    ])
  })

  it('takes a success whose result is null (wallet_disconnect, wallet_changeNetwork answer null)', async () => {
    const { provider } = jsonRpcProvider({ wallet_disconnect: { result: null }, wallet_changeNetwork: { result: null } })
    const connector = createSatsConnectConnector({ info, provider })
    await expect(connector.disconnect()).resolves.toBeUndefined()
    await expect(connector.switchNetwork!('testnet')).resolves.toBeUndefined()
  })

  it.each([
    ['sats-connect’s USER_REJECTION (-32000)', -32000, 'USER_REJECTED'],
    ['an EIP-1193 style refusal (4001)', 4001, 'USER_REJECTED'],
    ['ACCESS_DENIED (-32002)', -32002, 'UNAUTHORIZED'],
    ['METHOD_NOT_SUPPORTED (-32001)', -32001, 'UNSUPPORTED_METHOD'],
    ['METHOD_NOT_FOUND (-32601)', -32601, 'METHOD_NOT_FOUND'],
    ['INVALID_PARAMS (-32602)', -32602, 'INVALID_PARAMS'],
    ['INTERNAL_ERROR (-32603)', -32603, 'INTERNAL_ERROR'],
    ['a code of no table', -31999, 'UNKNOWN_RPC_ERROR'],
  ])('an error response with %s is %s', async (_name, code, expected) => {
    const connector = createSatsConnectConnector({ info, provider: jsonRpcProvider({ getAddresses: { error: { code, message: 'the wallet’s own words' } } }).provider })
    const error = await rejection(connector.connect('regtest'))
    expect(error).toMatchObject({ code: expected })
    // The person reads the widget's sentence, never the wallet's text.
    expect(error!.shortMessage).not.toContain('the wallet’s own words')
  })

  it('a refusal of a signature is USER_REJECTED, and a wallet failing to sign is a wallet error, not a bad answer', async () => {
    const { provider } = jsonRpcProvider({ signPsbt: { error: { code: -32000, message: 'User rejected the request' } }, signMessage: { error: { code: -32603, message: 'Internal error' } } })
    const connector = createSatsConnectConnector({ info, provider })
    expect(await rejection(connector.signPsbt({ psbtBase64: 'cHNidA==', address: first.payment.address, signingIndexes: [0], network: 'regtest' }))).toMatchObject({ code: 'USER_REJECTED', shortMessage: 'User rejected the request.' })
    expect(await rejection(connector.signMessage('hello', first.payment.address))).toMatchObject({ code: 'INTERNAL_ERROR' })
  })

  it('disconnects quietly from a wallet without wallet_disconnect (-32601, -32001, Leather’s 4002); another error is DISCONNECT_FAILED', async () => {
    for (const code of [-32601, -32001, 4002]) {
      const connector = createSatsConnectConnector({ info, provider: jsonRpcProvider({ wallet_disconnect: { error: { code, message: 'no' } } }).provider })
      await expect(connector.disconnect()).resolves.toBeUndefined()
    }
    const failing = createSatsConnectConnector({ info, provider: jsonRpcProvider({ wallet_disconnect: { error: { code: -32603, message: 'oops' } } }).provider })
    expect(await rejection(failing.disconnect())).toMatchObject({ code: 'DISCONNECT_FAILED' })
  })

  it('is not authorized when wallet_getAccount answers ACCESS_DENIED or is not offered', async () => {
    for (const code of [-32002, -32601]) {
      const connector = createSatsConnectConnector({ info, provider: jsonRpcProvider({ wallet_getAccount: { error: { code, message: 'no' } } }).provider })
      expect(await connector.isAuthorized()).toBe(false)
    }
  })

  it.each([
    ['the JSON-RPC error response (as Leather rejects)', { jsonrpc: '2.0', id: '1', error: { code: 4001, message: 'User rejected request' } }, 'USER_REJECTED'],
    ['an Error with USER_REJECTION (-32000)', Object.assign(new Error('cancelled'), { code: -32000 }), 'USER_REJECTED'],
    ['an Error with 4001', Object.assign(new Error('cancelled'), { code: 4001 }), 'USER_REJECTED'],
    ['an Error with Leather’s METHOD_NOT_SUPPORTED (4002)', Object.assign(new Error('nope'), { code: 4002 }), 'UNSUPPORTED_METHOD'],
    ['an Error with INTERNAL_ERROR (-32603)', Object.assign(new Error('boom'), { code: -32603 }), 'INTERNAL_ERROR'],
    ['a string', 'something broke', 'UNKNOWN'],
  ])('a provider that throws %s: %s', async (_name, thrown, expected) => {
    const connector = createSatsConnectConnector({ info, provider: jsonRpcProvider({ getAddresses: { throws: thrown } }).provider })
    expect(await rejection(connector.connect('regtest'))).toMatchObject({ code: expected, cause: thrown })
  })

  const hostile = Object.defineProperty({}, 'result', { enumerable: true, get: () => { throw new Error('page script') } })
  it.each([
    ['undefined', undefined],
    ['null', null],
    ['a string', 'ok'],
    ['a number', 1],
    ['an object with neither result nor error', { jsonrpc: '2.0', id: '1' }],
    ['a status of neither success nor error', { status: 'pending', result: { addresses: publishedAddresses } }],
    ['an object whose fields throw', hostile],
  ])('an answer that is %s is WALLET_BAD_RESPONSE naming the wallet and the method', async (_name, raw) => {
    const connector = createSatsConnectConnector({ info, provider: jsonRpcProvider({ getAddresses: { raw } }).provider })
    const error = await rejection(connector.connect('regtest'))
    expect(error).toMatchObject({ code: 'WALLET_BAD_RESPONSE', shortMessage: 'The wallet answered with something unexpected' })
    expect(error!.details).toContain(info.name)
    expect(error!.details).toContain('getAddresses')
  })

  it('refuses a result without what the method promises: no address, a PSBT that is not base64, no signature', async () => {
    const { provider } = jsonRpcProvider({
      getAddresses: { result: { addresses: [{ address: 'SP2J6ZY48GV1EZ5V2V5RB9MP66SW86PYKKNRV9EJ7', publicKey: '02ab', purpose: 'stacks', addressType: 'stacks', walletType: 'software' }], network: published.network } },
      signPsbt: { result: { psbt: '70736274ff' + '!' } },
      signMessage: { result: { messageHash: '', address: first.payment.address, protocol: 'BIP322' } },
    })
    const connector = createSatsConnectConnector({ info, provider })
    expect(await rejection(connector.connect('regtest'))).toMatchObject({ code: 'WALLET_BAD_RESPONSE' })
    expect(await rejection(connector.signPsbt({ psbtBase64: 'cHNidA==', address: first.payment.address, signingIndexes: [0], network: 'regtest' }))).toMatchObject({ code: 'WALLET_BAD_RESPONSE' })
    expect(await rejection(connector.signMessage('hello', first.payment.address))).toMatchObject({ code: 'WALLET_BAD_RESPONSE' })
  })

  it('follows a networkChange event that carries the new addresses', async () => {
    const listeners = new Map<string, (event: unknown) => void>()
    const { provider: base } = jsonRpcProvider({ wallet_getAccount: { result: { id: 'a', addresses: publishedAddresses, walletType: 'software', network: published.network } } })
    const provider: SatsConnectProvider = { ...base, addListener: ({ eventName, cb }) => (listeners.set(eventName, cb), () => listeners.delete(eventName)) }
    const onAccountsChanged = vi.fn()
    const stop = createSatsConnectConnector({ info, provider }).watch({ onAccountsChanged })
    await flush()
    listeners.get('networkChange')!({ type: 'networkChange', bitcoin: { name: 'Testnet' }, stacks: { name: 'testnet' }, addresses: [published.address(second.payment.address, second.payment.publicKey, 'payment')] })
    await flush()
    expect(onAccountsChanged).toHaveBeenCalledWith([{ address: second.payment.address, purpose: 'payment', publicKey: second.payment.publicKey }])
    stop()
  })
})
