import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { encodeSs58, polkadotNetworks } from '../../../shared/families/polkadot/address'
import type { PolkadotConnector } from './wallets/createInjectedWeb3Connector'
import type { InjectedAccount } from './wallets/injectedWeb3'
import type { WidgetNetwork } from '../../widget/config'
import { isPolkadotConnector, polkadotAdapter, ss58PrefixOf, toNetworkAddresses, toPolkadotNamespaceConnector } from './adapter'

const key = (byte: number) => new Uint8Array(32).fill(byte)
const network = (parameters: (typeof polkadotNetworks)[keyof typeof polkadotNetworks], extra: Partial<WidgetNetwork> = {}): WidgetNetwork =>
  ({
    chainNamespace: 'polkadot',
    caipNetworkId: parameters.caipNetworkId,
    id: parameters.caipNetworkId.slice('polkadot:'.length),
    name: parameters.name,
    nativeCurrency: { name: parameters.name, symbol: parameters.symbol, decimals: parameters.decimals },
    rpcUrls: { default: { http: [], webSocket: ['wss://rpc.example'] } },
    ...extra,
  }) as WidgetNetwork
const POLKADOT = network(polkadotNetworks.polkadot)
const KUSAMA = network(polkadotNetworks.kusama)
const SIGNATURE = `0x01${'ab'.repeat(64)}` as const

/** A PolkadotConnector whose extension gives `accounts` (generic format by default). */
function fakeConnector(accounts: InjectedAccount[] = [{ address: encodeSs58(key(1), 42) }]) {
  let current = accounts
  const watchers = new Set<{ onAccountsChanged?: (accounts: InjectedAccount[]) => void; onDisconnect?: () => void }>()
  const connector = {
    id: 'injectedWeb3:polkadot-js',
    name: 'polkadot{.js}',
    type: 'INJECTED',
    namespace: 'polkadot',
    imageUrl: undefined,
    key: 'polkadot-js',
    connect: vi.fn(async () => current),
    isAuthorized: vi.fn(async () => true),
    getAccounts: vi.fn(async () => current),
    disconnect: vi.fn(async () => {}),
    signPayload: vi.fn(async () => SIGNATURE),
    signRaw: vi.fn(async () => SIGNATURE),
    canSignPayload: vi.fn(() => true),
    watch: vi.fn((events: { onAccountsChanged?: (accounts: InjectedAccount[]) => void; onDisconnect?: () => void }) => {
      watchers.add(events)
      return () => void watchers.delete(events)
    }),
  } satisfies PolkadotConnector
  return {
    connector,
    setAccounts(next: InjectedAccount[]) {
      current = next
      for (const w of watchers) {
        if (next.length > 0) w.onAccountsChanged?.(next)
        else w.onDisconnect?.()
      }
    },
  }
}

describe('toNetworkAddresses', () => {
  it('writes each account in the network’s SS58 format, leaves out accounts tied to another chain, and lists a key once', () => {
    const polkadotGenesis = `0x91b171bb158e2d3848fa23a9f1c25182${'0'.repeat(32)}`
    const kusamaGenesis = `0xb0a8d493285c2df73290dfb7e61f870f${'0'.repeat(32)}`
    const accounts = [
      { address: encodeSs58(key(1), 42) },
      { address: encodeSs58(key(2), 2), genesisHash: kusamaGenesis },
      { address: encodeSs58(key(3), 42), genesisHash: polkadotGenesis },
      { address: encodeSs58(key(1), 0) },
    ]
    expect(toNetworkAddresses(accounts, POLKADOT)).toEqual([encodeSs58(key(1), 0), encodeSs58(key(3), 0)])
    expect(toNetworkAddresses(accounts, KUSAMA)).toEqual([encodeSs58(key(1), 2), encodeSs58(key(2), 2)])
  })

  it('takes the config’s format first, then the known network’s, else the generic one', () => {
    expect(ss58PrefixOf({ caipNetworkId: polkadotNetworks.polkadot.caipNetworkId, ss58Prefix: 7 })).toBe(7)
    expect(ss58PrefixOf({ caipNetworkId: polkadotNetworks.westend.caipNetworkId })).toBe(42)
    expect(ss58PrefixOf({ caipNetworkId: polkadotNetworks.kusama.caipNetworkId })).toBe(2)
    expect(ss58PrefixOf({ caipNetworkId: `polkadot:${'12'.repeat(16)}` })).toBe(42)
  })
})

describe('toPolkadotNamespaceConnector', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('connects on the network the widget chose, with the accounts in its format', async () => {
    const { connector } = fakeConnector()
    const wrapped = toPolkadotNamespaceConnector(connector, [POLKADOT, KUSAMA])
    expect(isPolkadotConnector(wrapped)).toBe(true)
    expect(await wrapped.connect(KUSAMA)).toEqual({ accounts: [encodeSs58(key(1), 2)], caipNetworkId: KUSAMA.caipNetworkId })
  })

  it('refuses a connection with no account for the network', async () => {
    const kusamaOnly = `0xb0a8d493285c2df73290dfb7e61f870f${'0'.repeat(32)}`
    const { connector } = fakeConnector([{ address: encodeSs58(key(1), 42), genesisHash: kusamaOnly }])
    await expect(toPolkadotNamespaceConnector(connector, [POLKADOT]).connect(POLKADOT)).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
  })

  it('rewrites the accounts on a network switch and tells the watchers once the switch is done', async () => {
    const { connector } = fakeConnector()
    const wrapped = toPolkadotNamespaceConnector(connector, [POLKADOT, KUSAMA])
    await wrapped.connect(POLKADOT)
    const onAccountsChanged = vi.fn()
    wrapped.watch({ onAccountsChanged })
    await wrapped.switchNetwork(KUSAMA)
    expect(onAccountsChanged).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(0)
    expect(onAccountsChanged).toHaveBeenCalledWith([encodeSs58(key(1), 2)])
  })

  it('reconnects on the stored network: its accounts in that network’s format', async () => {
    const { connector } = fakeConnector()
    const wrapped = toPolkadotNamespaceConnector(connector, [POLKADOT, KUSAMA])
    const [accounts, caipNetworkId] = await Promise.all([wrapped.getAccounts(), wrapped.getCaipNetworkId(KUSAMA.caipNetworkId as never)])
    expect(caipNetworkId).toBe(KUSAMA.caipNetworkId)
    expect(accounts).toEqual([encodeSs58(key(1), 2)])
  })

  it('follows the extension’s account changes and its disconnect', async () => {
    const extension = fakeConnector()
    const wrapped = toPolkadotNamespaceConnector(extension.connector, [POLKADOT])
    await wrapped.connect(POLKADOT)
    const onAccountsChanged = vi.fn()
    const onDisconnect = vi.fn()
    const stop = wrapped.watch({ onAccountsChanged, onDisconnect })
    extension.setAccounts([{ address: encodeSs58(key(9), 42) }])
    expect(onAccountsChanged).toHaveBeenCalledWith([encodeSs58(key(9), 0)])
    extension.setAccounts([])
    expect(onDisconnect).toHaveBeenCalledTimes(1)
    stop()
  })

  it('signs a sign-in message with signRaw as bytes, only for one of its accounts', async () => {
    const { connector } = fakeConnector()
    const wrapped = toPolkadotNamespaceConnector(connector, [POLKADOT])
    await wrapped.connect(POLKADOT)
    expect(await wrapped.signMessage('hi', encodeSs58(key(1), 0))).toBe(SIGNATURE)
    expect(connector.signRaw).toHaveBeenCalledWith({ address: encodeSs58(key(1), 0), data: '0x6869', type: 'bytes' })
    await expect(wrapped.signMessage('hi', encodeSs58(key(5), 0))).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
  })

  it('signs a transfer with signPayload, or with signRaw of its bytes for an extension without it', async () => {
    const { connector } = fakeConnector()
    const wrapped = toPolkadotNamespaceConnector(connector, [POLKADOT])
    await wrapped.connect(POLKADOT)
    const transfer = { payload: { address: encodeSs58(key(1), 0) }, raw: { address: encodeSs58(key(1), 0), data: '0x0a03', type: 'payload' } } as never
    expect(await wrapped.signTransfer(transfer)).toBe(SIGNATURE)
    expect(connector.signPayload).toHaveBeenCalledTimes(1)
    connector.canSignPayload.mockReturnValue(false)
    await wrapped.signTransfer(transfer)
    expect(connector.signRaw).toHaveBeenCalledWith({ address: encodeSs58(key(1), 0), data: '0x0a03', type: 'payload' })
    await expect(wrapped.signTransfer({ payload: { address: encodeSs58(key(4), 0) }, raw: {} } as never)).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
  })
})

describe('polkadotAdapter', () => {
  it('lists the page’s extensions as Polkadot connectors', () => {
    const target = new EventTarget() as unknown as Window & { injectedWeb3: unknown }
    target.injectedWeb3 = { talisman: { enable: async () => ({}) } }
    const discovery = polkadotAdapter.discover(target, [POLKADOT], { appName: 'dApp' })
    expect(discovery.getConnectors().map((c) => [c.id, c.name, c.namespace])).toEqual([['injectedWeb3:talisman', 'Talisman', 'polkadot']])
    discovery.stop()
  })
})
