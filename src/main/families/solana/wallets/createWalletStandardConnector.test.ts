import { ed25519 } from '@noble/curves/ed25519.js'
import { base58 } from '@scure/base'
import { getTransferSolInstruction } from '@solana-program/system'
import {
  address,
  appendTransactionMessageInstruction,
  blockhash,
  compileTransaction,
  createNoopSigner,
  createTransactionMessage,
  getTransactionDecoder,
  getTransactionEncoder,
  lamports,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
} from '@solana/kit'
import type { Wallet, WalletAccount } from '@wallet-standard/base'
import { describe, expect, it } from 'vitest'
import { createDevSolanaWallet } from '../../../../../demo/devWallet/solana/createDevSolanaWallet'
import type { WidgetError } from '../../../../shared/protocol/errors'
import { toSafeImageUrl } from '../../../connectors/walletStandard/toSafeImageUrl'
import { createWalletStandardConnector, solanaCaipNetworkIds } from './createWalletStandardConnector'

const localnet = 'solana:LocaLnet1111111111111111111111' as const
const devnet = solanaCaipNetworkIds['solana:devnet']

const setup = () => {
  const devWallet = createDevSolanaWallet()
  return { devWallet, connector: createWalletStandardConnector({ wallet: devWallet.wallet, localnetCaipNetworkId: localnet }) }
}

/** A SOL transfer from `from` to `to`, compiled and encoded with its signature slots empty. */
function wireTransfer(from: string, to: string) {
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (draft) => setTransactionMessageFeePayer(address(from), draft),
    (draft) => setTransactionMessageLifetimeUsingBlockhash({ blockhash: blockhash('4vJ9JU1bJJE96FWSJKvHsmmFADCg4gpZQff4P3bkLKi'), lastValidBlockHeight: 100n }, draft),
    (draft) => appendTransactionMessageInstruction(getTransferSolInstruction({ source: createNoopSigner(address(from)), destination: address(to), amount: lamports(1_000n) }), draft),
  )
  return Uint8Array.from(getTransactionEncoder().encode(compileTransaction(message)))
}

const rejection = (promise: Promise<unknown>) => promise.then(() => undefined, (error: WidgetError) => error)

/** A hand-made wallet, for shapes the dev wallet never takes. */
function fakeWallet({ accounts = [] as WalletAccount[], features = {} as Record<string, unknown>, chains = ['solana:mainnet'] as `${string}:${string}`[], icon = 'data:image/png;base64,AAAA' } = {}): Wallet {
  return {
    version: '1.0.0',
    name: 'Fake',
    icon: icon as Wallet['icon'],
    chains,
    accounts,
    features: { 'standard:connect': { version: '1.0.0', connect: async () => ({ accounts }) }, 'standard:events': { version: '1.0.0', on: () => () => {} }, ...features },
  }
}
const account = (address: string, chains: `${string}:${string}`[] = ['solana:mainnet']): WalletAccount => ({ address, publicKey: new Uint8Array(32), chains, features: [] })

describe('Wallet Standard connector over the dev Solana wallet', () => {
  it('describes itself: ANNOUNCED on solana, CAIP-2 chains (localnet as the caller names it), families, the wallet icon', () => {
    const { devWallet, connector } = setup()
    expect(connector).toMatchObject({ id: 'walletStandard:Tessera Dev Solana Wallet', name: 'Tessera Dev Solana Wallet', type: 'ANNOUNCED', namespace: 'solana' })
    expect(connector.chains).toEqual([localnet, devnet])
    expect(connector.namespaces).toEqual(['solana'])
    expect(connector.imageUrl).toBe(devWallet.wallet.icon)
    expect(createWalletStandardConnector({ wallet: devWallet.wallet }).chains).toEqual([devnet])
  })

  it('maps every Wallet Standard Solana chain to its CAIP-2 id', () => {
    const connector = createWalletStandardConnector({
      wallet: fakeWallet({ chains: ['solana:mainnet', 'solana:devnet', 'solana:testnet', 'solana:localnet', 'solana:unknown'] }),
      localnetCaipNetworkId: localnet,
    })
    expect(connector.chains).toEqual(['solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp', 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1', 'solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z', localnet])
  })

  it('connects with base58 accounts; is authorized afterwards (silent connect), not before', async () => {
    const { devWallet, connector } = setup()
    expect(await connector.isAuthorized()).toBe(false)
    expect(await connector.getAccounts()).toEqual([])
    expect(await connector.connect()).toEqual({ accounts: devWallet.addresses })
    expect(await connector.isAuthorized()).toBe(true)
    expect(await connector.getAccounts()).toEqual(devWallet.addresses)
  })

  it('signs a message: the signature verifies with ed25519 against the account’s public key', async () => {
    const { connector } = setup()
    const { accounts } = await connector.connect()
    const message = new TextEncoder().encode('Sign in to Tessera')
    const signature = await connector.signMessage(message, accounts[0]!)
    expect(signature).toHaveLength(64)
    expect(ed25519.verify(signature, message, base58.decode(accounts[0]!))).toBe(true)
    expect(ed25519.verify(signature, message, base58.decode(accounts[1]!))).toBe(false)
  })

  it('signs a transaction: the signature over its message bytes verifies, the message is unchanged', async () => {
    const { connector } = setup()
    const [from, to] = (await connector.connect()).accounts as [string, string]
    const wire = wireTransfer(from, to)
    const signed = getTransactionDecoder().decode(await connector.signTransaction(wire, from, devnet))
    const unsigned = getTransactionDecoder().decode(wire)
    expect(Uint8Array.from(signed.messageBytes)).toEqual(Uint8Array.from(unsigned.messageBytes))
    const signature = signed.signatures[address(from)]
    expect(signature).toBeTruthy()
    expect(ed25519.verify(Uint8Array.from(signature!), Uint8Array.from(signed.messageBytes), base58.decode(from))).toBe(true)
  })

  it.each([
    ['standard:connect', (c: ReturnType<typeof setup>['connector']) => c.connect()],
    ['solana:signMessage', (c: ReturnType<typeof setup>['connector'], a: string) => c.signMessage(new Uint8Array([1]), a)],
    ['solana:signTransaction', (c: ReturnType<typeof setup>['connector'], a: string, b: string) => c.signTransaction(wireTransfer(a, b), a, devnet)],
  ] as const)('a refusal of %s is USER_REJECTED', async (feature, run) => {
    const { devWallet, connector } = setup()
    if (feature !== 'standard:connect') await connector.connect()
    devWallet.rejectNext(feature)
    const [a, b] = devWallet.addresses as [string, string]
    const error = await rejection(run(connector, a, b))
    expect(error).toMatchObject({ code: 'USER_REJECTED', shortMessage: 'User rejected the request.' })
    expect((error!.cause as { code?: number }).code).toBe(4001)
  })

  it('reports account changes and a disconnect from standard:events, until unsubscribed', async () => {
    const { devWallet, connector } = setup()
    const seen: unknown[] = []
    const stop = connector.watch({ onAccountsChanged: (accounts) => seen.push(accounts), onDisconnect: () => seen.push('disconnect') })
    const [a, b] = devWallet.addresses as [string, string]
    await connector.connect()
    devWallet.switchAccount(b)
    devWallet.switchAccount(b) // unchanged: no event
    devWallet.disconnect()
    stop()
    await connector.connect()
    expect(seen).toEqual([[a, b], [b, a], 'disconnect'])
  })

  it('disconnect() asks the wallet by standard:disconnect', async () => {
    const { connector } = setup()
    await connector.connect()
    await connector.disconnect()
    expect(await connector.isAuthorized()).toBe(false)
    expect(await connector.getAccounts()).toEqual([])
  })

  it('refuses to sign for an invalid address, an account not connected, or a network the wallet does not offer', async () => {
    const { devWallet, connector } = setup()
    expect(await rejection(connector.signMessage(new Uint8Array([1]), devWallet.addresses[0]!))).toMatchObject({ code: 'UNAUTHORIZED' })
    await connector.connect()
    expect(await rejection(connector.signMessage(new Uint8Array([1]), '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'))).toMatchObject({ code: 'INVALID_ADDRESS' })
    const [a, b] = devWallet.addresses as [string, string]
    expect(await rejection(connector.signTransaction(wireTransfer(a, b), a, solanaCaipNetworkIds['solana:mainnet']))).toMatchObject({ code: 'UNSUPPORTED_CHAIN' })
    expect(await rejection(connector.signTransaction(wireTransfer(a, b), a, 'solana:NotAKnownNetwork'))).toMatchObject({ code: 'UNSUPPORTED_CHAIN' })
  })
})

describe('Wallet Standard connector over other wallets', () => {
  const solanaAddress = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM'

  it('names the missing feature', async () => {
    const wallet = fakeWallet({ accounts: [account(solanaAddress)] })
    const connector = createWalletStandardConnector({ wallet })
    for (const [feature, run] of [
      ['solana:signMessage', () => connector.signMessage(new Uint8Array([1]), solanaAddress)],
      ['solana:signTransaction', () => connector.signTransaction(new Uint8Array([1]), solanaAddress, solanaCaipNetworkIds['solana:mainnet'])],
      ['solana:signAndSendTransaction', () => connector.signAndSendTransaction(new Uint8Array([1]), solanaAddress, solanaCaipNetworkIds['solana:mainnet'])],
    ] as const) {
      const error = await rejection(run())
      expect(error).toMatchObject({ code: 'UNSUPPORTED_METHOD', details: `Fake does not support ${feature}` })
    }
    await expect(connector.disconnect()).resolves.toBeUndefined() // no standard:disconnect: nothing to ask
  })

  it('returns a base58 signature from solana:signAndSendTransaction', async () => {
    const signature = new Uint8Array(64).fill(7)
    const inputs: unknown[] = []
    const wallet = fakeWallet({
      accounts: [account(solanaAddress)],
      features: { 'solana:signAndSendTransaction': { version: '1.0.0', supportedTransactionVersions: [0], signAndSendTransaction: async (...args: unknown[]) => (inputs.push(...args), [{ signature }]) } },
    })
    const connector = createWalletStandardConnector({ wallet })
    expect(await connector.signAndSendTransaction(new Uint8Array([1, 2]), solanaAddress, solanaCaipNetworkIds['solana:mainnet'], { commitment: 'confirmed' })).toBe(base58.encode(signature))
    expect(inputs).toMatchObject([{ chain: 'solana:mainnet', options: { commitment: 'confirmed' } }])
  })

  it('lists only Solana accounts of a multi-family wallet, and its families', async () => {
    const wallet = fakeWallet({
      chains: ['solana:mainnet', 'bitcoin:mainnet', 'sui:mainnet'],
      accounts: [account('bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', ['bitcoin:mainnet']), account(solanaAddress)],
    })
    const connector = createWalletStandardConnector({ wallet })
    expect(await connector.connect()).toEqual({ accounts: [solanaAddress] })
    expect(connector.namespaces).toEqual(['solana', 'bip122'])
  })

  it('answers WALLET_BAD_RESPONSE to an invalid address, no Solana account, or a signature that is not 64 bytes', async () => {
    const bad = createWalletStandardConnector({ wallet: fakeWallet({ accounts: [{ ...account(solanaAddress), address: 'not-base58-0OIl' }] }) })
    expect(await rejection(bad.connect())).toMatchObject({ code: 'WALLET_BAD_RESPONSE' })
    const none = createWalletStandardConnector({ wallet: fakeWallet() })
    expect(await rejection(none.connect())).toMatchObject({ code: 'WALLET_BAD_RESPONSE' })
    const short = createWalletStandardConnector({
      wallet: fakeWallet({ accounts: [account(solanaAddress)], features: { 'solana:signMessage': { version: '1.0.0', signMessage: async () => [{ signature: new Uint8Array(63), signedMessage: new Uint8Array([1]) }] } } }),
    })
    expect(await rejection(short.signMessage(new Uint8Array([1]), solanaAddress))).toMatchObject({ code: 'WALLET_BAD_RESPONSE' })
  })

  it('isAuthorized() is false when the silent connect throws', async () => {
    const wallet = fakeWallet({ features: { 'standard:connect': { version: '1.0.0', connect: async () => Promise.reject(new Error('locked')) } } })
    expect(await createWalletStandardConnector({ wallet }).isAuthorized()).toBe(false)
  })

  it('refuses an unsafe icon', () => {
    expect(createWalletStandardConnector({ wallet: fakeWallet({ icon: 'javascript:alert(1)' }) }).imageUrl).toBeUndefined()
    expect(createWalletStandardConnector({ wallet: fakeWallet({ icon: 'data:image/gif;base64,R0lGOD' }) }).imageUrl).toBe('data:image/gif;base64,R0lGOD')
  })

  it.each([
    ['svg, base64', 'data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=', true],
    ['svg, url-encoded', "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'/%3E", true],
    ['svg with a charset', 'data:image/svg+xml;charset=utf-8,%3Csvg/%3E', true],
    ['png', 'data:image/png;base64,iVBORw0KGgo=', true],
    ['jpeg', 'data:image/jpeg;base64,/9j/4AAQ', true],
    ['webp', 'data:image/webp;base64,UklGRg==', true],
    ['gif', 'data:image/gif;base64,R0lGODlh', true],
    ['javascript:', 'javascript:alert(1)', false],
    ['an https URL (a tracking pixel)', 'https://evil.example/icon.png', false],
    ['html', 'data:text/html;base64,PHNjcmlwdD4=', false],
    ['another image type', 'data:image/bmp;base64,Qk0=', false],
    ['image/svg without +xml', 'data:image/svg;base64,PHN2Zz4=', false],
    ['upper case scheme', 'DATA:IMAGE/PNG;base64,iVBORw0KGgo=', false],
    ['leading space', ' data:image/png;base64,iVBORw0KGgo=', false],
    ['a double quote (breaks out of an attribute)', 'data:image/svg+xml,%3Csvg/%3E"onload="alert(1)', false],
    ['a backslash', 'data:image/png;base64,AA\\AA', false],
    ['a newline', 'data:image/png;base64,AA\nAA', false],
    ['no comma', 'data:image/png;base64', false],
    ['too long', `data:image/png;base64,${'A'.repeat(300_000)}`, false],
    ['not a string', 42, false],
  ])('icon: %s', (_name, icon, isSafe) => expect(toSafeImageUrl(icon)).toBe(isSafe ? icon : undefined))
})
