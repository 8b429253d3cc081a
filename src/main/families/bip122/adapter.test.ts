import { describe, expect, it, vi } from 'vitest'
import { createDevBitcoinWallet } from '../../../../demo/devWallet/bitcoin/createDevBitcoinWallet'
import { deriveBitcoinAccounts } from '../../../../services/chain/bitcoin/devKeys'
import { bitcoinNetworks } from '../../../shared/families/bip122/address'
import type { CaipNetworkId } from '../../../shared/protocol/caip'
import type { WidgetError } from '../../../shared/protocol/errors'
import type { BitcoinAccount, BitcoinConnector } from './wallets/bitcoinConnector'
import { createWalletStandardBitcoinConnector } from './wallets/createWalletStandardBitcoinConnector'
import type { WidgetNetwork } from '../../widget/config'
import { bip122Adapter, caipNetworkOfAddress, isBip122Connector, toBip122NamespaceConnector } from './adapter'

const devAccounts = deriveBitcoinAccounts({ count: 2 })
const [first, second] = devAccounts as [(typeof devAccounts)[0], (typeof devAccounts)[0]]
const network = (name: keyof typeof bitcoinNetworks, label = bitcoinNetworks[name].name): WidgetNetwork => ({
  chainNamespace: 'bip122',
  caipNetworkId: bitcoinNetworks[name].caipNetworkId,
  id: bitcoinNetworks[name].caipNetworkId.slice('bip122:'.length),
  name: label,
  nativeCurrency: { name: 'Bitcoin', symbol: 'BTC', decimals: 8 },
  rpcUrls: { default: { http: ['http://127.0.0.1:3002'] } },
})
const local = network('regtest', 'Bitcoin Local')
const mainnet = network('mainnet')
const testnet = network('testnet')
const signet = network('signet')
const rejection = (promise: Promise<unknown>) => promise.then(() => undefined, (error: WidgetError) => error)
const flush = () => new Promise((resolve) => setTimeout(resolve, 0))

const MAINNET_P2WPKH = 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu'
const TESTNET_P2WPKH = 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx'

describe('caipNetworkOfAddress', () => {
  it.each([
    ['a regtest address on the local network', first.payment.address, [mainnet, local], undefined, local.caipNetworkId],
    ['a testnet-or-signet address, signet preferred', TESTNET_P2WPKH, [testnet, signet], signet.caipNetworkId, signet.caipNetworkId],
    ['a testnet-or-signet address, the first configured that fits', TESTNET_P2WPKH, [mainnet, signet, testnet], mainnet.caipNetworkId, signet.caipNetworkId],
    ['a mainnet address on a regtest-only site: its own network', MAINNET_P2WPKH, [local], local.caipNetworkId, mainnet.caipNetworkId],
    ['no address: the preferred network', undefined, [local], local.caipNetworkId, local.caipNetworkId],
  ])('%s', (_name, address, networks, preferred, expected) => {
    expect(caipNetworkOfAddress(address, networks, preferred)).toBe(expected)
  })
})

describe('bip122 namespace connector over the dev wallet', () => {
  const setup = (networks = [local]) => {
    const devWallet = createDevBitcoinWallet({ accounts: devAccounts })
    const connector = toBip122NamespaceConnector(createWalletStandardBitcoinConnector({ wallet: devWallet.wallet }), networks)
    return { devWallet, connector }
  }

  it('connects on the network of its addresses: payment first (the account), ordinals second', async () => {
    const { connector } = setup()
    expect(isBip122Connector(connector)).toBe(true)
    expect(connector).toMatchObject({ namespace: 'bip122', type: 'ANNOUNCED', name: 'Tessera Dev Bitcoin Wallet' })
    expect(await connector.connect(local)).toEqual({ accounts: [first.payment.address, first.ordinals.address], caipNetworkId: local.caipNetworkId })
    expect(connector.bitcoinAccounts().map((a) => [a.purpose, a.publicKey])).toEqual([
      ['payment', first.payment.publicKey],
      ['ordinals', first.ordinals.publicKey],
    ])
  })

  it('a wallet whose addresses are of a network the site did not request connects on that network (the widget then says so)', async () => {
    const { connector } = setup([mainnet])
    expect((await connector.connect(mainnet)).caipNetworkId).toBe(local.caipNetworkId)
  })

  it('reconnects without a prompt, on the network of its addresses', async () => {
    const { connector } = setup()
    expect(await connector.isAuthorized()).toBe(false)
    await connector.connect(local)
    expect(await connector.isAuthorized()).toBe(true)
    expect(await connector.getAccounts()).toEqual([first.payment.address, first.ordinals.address])
    expect(await connector.getCaipNetworkId(mainnet.caipNetworkId as CaipNetworkId)).toBe(local.caipNetworkId)
  })

  it('refuses a switch to a network its addresses cannot serve when the wallet takes no switch request', async () => {
    const { connector } = setup([local, mainnet])
    await connector.connect(local)
    await expect(connector.switchNetwork(local)).resolves.toBeUndefined()
    expect(await rejection(connector.switchNetwork(mainnet))).toMatchObject({ code: 'CHAIN_NOT_SUPPORTED', shortMessage: 'Chain is not supported' })
  })

  it('tells account changes (no network change) and a disconnect', async () => {
    const { devWallet, connector } = setup()
    await connector.connect(local)
    const seen: unknown[] = []
    const stop = connector.watch({ onAccountsChanged: (a) => seen.push(a), onNetworkChanged: (id) => seen.push(id), onDisconnect: () => seen.push('disconnect') })
    devWallet.switchAccount(1)
    devWallet.disconnect()
    stop()
    expect(seen).toEqual([[second.payment.address, second.ordinals.address], 'disconnect'])
  })

  it('signs a message through the wallet (BIP-322 base64)', async () => {
    const { connector } = setup()
    await connector.connect(local)
    expect(await connector.signMessage('hello', first.payment.address)).toMatch(/^[A-Za-z0-9+/]+=*$/)
  })
})

describe('bip122 namespace connector over a wallet that switches networks', () => {
  /** A wallet holding a mainnet and a testnet address, on one network at a time, moving on request. */
  function switchingWallet() {
    let current: BitcoinAccount[] = [{ address: MAINNET_P2WPKH, purpose: 'payment' }]
    let onChange: ((accounts: BitcoinAccount[]) => void) | undefined
    const connector: BitcoinConnector = {
      id: 'fake',
      name: 'Switcher',
      type: 'ANNOUNCED',
      namespace: 'bip122',
      kind: 'satsConnect',
      imageUrl: undefined,
      connect: async () => current,
      isAuthorized: async () => true,
      getAccounts: async () => current,
      disconnect: async () => {},
      // It has no regtest address: asked to move there, it stays where it is.
      switchNetwork: vi.fn(async (to) => {
        if (to === 'testnet' || to === 'mainnet') current = [{ address: to === 'testnet' ? TESTNET_P2WPKH : MAINNET_P2WPKH, purpose: 'payment' }]
      }),
      signMessage: async () => '',
      signPsbt: vi.fn(async () => 'signed'),
      watch: (events) => ((onChange = events.onAccountsChanged), () => (onChange = undefined)),
    }
    return { connector, emit: (accounts: BitcoinAccount[]) => onChange?.((current = accounts)) }
  }

  it('asks the wallet to move on connect when its addresses are of another network', async () => {
    const { connector } = switchingWallet()
    const namespaced = toBip122NamespaceConnector(connector, [testnet])
    expect(await namespaced.connect(testnet)).toEqual({ accounts: [TESTNET_P2WPKH], caipNetworkId: testnet.caipNetworkId })
    expect(connector.switchNetwork).toHaveBeenCalledWith('testnet')
  })

  it('a switch asks the wallet, then tells watchers the new address once the switch has returned', async () => {
    const { connector } = switchingWallet()
    const namespaced = toBip122NamespaceConnector(connector, [mainnet, testnet])
    await namespaced.connect(mainnet)
    const seen: unknown[] = []
    namespaced.watch({ onAccountsChanged: (a) => seen.push(a), onNetworkChanged: (id) => seen.push(id) })
    await namespaced.switchNetwork(testnet)
    expect(seen).toEqual([])
    await flush()
    // The widget moved to the network with the switch: the watchers hear of the new address only.
    expect(seen).toEqual([[TESTNET_P2WPKH]])
    // A wallet that agreed to move but still has no address there cannot serve the network.
    expect(await rejection(namespaced.switchNetwork(local))).toMatchObject({ code: 'CHAIN_NOT_SUPPORTED' })
  })

  it('a wallet that moves by itself is followed: its new network, then its new address', async () => {
    const { connector, emit } = switchingWallet()
    const namespaced = toBip122NamespaceConnector(connector, [mainnet, testnet])
    await namespaced.connect(mainnet)
    const seen: unknown[] = []
    namespaced.watch({ onAccountsChanged: (a) => seen.push(a), onNetworkChanged: (id) => seen.push(id) })
    emit([{ address: TESTNET_P2WPKH, purpose: 'payment' }])
    expect(seen).toEqual([testnet.caipNetworkId, [TESTNET_P2WPKH]])
  })

  it('passes a PSBT to the wallet with its Bitcoin network', async () => {
    const { connector } = switchingWallet()
    const namespaced = toBip122NamespaceConnector(connector, [mainnet])
    await namespaced.signPsbt({ psbtBase64: 'cHNidP8B', address: MAINNET_P2WPKH, signingIndexes: [0], caipNetworkId: mainnet.caipNetworkId })
    expect(connector.signPsbt).toHaveBeenCalledWith({ psbtBase64: 'cHNidP8B', address: MAINNET_P2WPKH, signingIndexes: [0], network: 'mainnet' })
  })
})

describe('bip122 adapter', () => {
  it('writes the sign-in message of its family', async () => {
    const create = await bip122Adapter.loadSignInMessage()
    const message = create({ address: first.payment.address, caipNetworkId: local.caipNetworkId, domain: 'example.org', uri: 'https://example.org', nonce: 'abcdefgh12', statement: 'Hi', issuedAt: new Date(0), expirationTime: new Date(1) })
    expect(message).toContain(first.payment.address)
    expect(message).toContain(local.caipNetworkId.slice('bip122:'.length))
  })
})
