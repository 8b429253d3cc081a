import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import type { Address } from 'viem'
import { announceProvider, createDevWallet, type DevWallet } from '../../../demo/devWallet/createDevWallet'
import { startAnvil, type Anvil } from '../../../services/chain/anvil'
import { freePorts } from '../../../services/stack/ports'
import { createMemoryStorage, createWidgetStorage } from '../storage/createWidgetStorage'
import { createWidget, SDK_VERSION, type CreateWidgetParameters, type Widget } from './createWidget'

const accounts: Address[] = ['0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', '0x70997970C51812dc3A010C7d01b50e0d17dc79C8']


describe('createWidget with a real EIP-1193 wallet on anvil', () => {
  let a: Anvil
  let b: Anvil
  const widgets: Widget[] = []
  afterEach(() => widgets.splice(0).forEach((w) => w.destroy()))
  beforeAll(async () => {
    const ports = await freePorts()
    ;[a, b] = await Promise.all([startAnvil({ port: ports.anvil, chainId: 31337 }), startAnvil({ port: ports.anvil2, chainId: 31338 })])
  })
  afterAll(() => Promise.all([a.stop(), b.stop()]))

  const network = (id: number, rpcUrl: string) => ({
    chainNamespace: 'eip155' as const,
    caipNetworkId: `eip155:${id}`,
    id,
    name: `Local ${id}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  })

  function page({ storage = createMemoryStorage(), announce = true, networks = [network(31337, a.rpcUrl), network(31338, b.rpcUrl)] } = {}) {
    const target = new EventTarget() as Window
    const wallet: DevWallet = createDevWallet({
      chains: [
        { chainId: 31337, name: 'A', rpcUrl: a.rpcUrl },
        { chainId: 31338, name: 'B', rpcUrl: b.rpcUrl },
      ],
      accounts,
    })
    if (announce) announceProvider(target, wallet)
    const widget = createWidget({ projectId: 'test', networks, window: target, storage: createWidgetStorage({ storage }) })
    widgets.push(widget)
    return { target, wallet, widget, storage }
  }

  it('lists the announced wallet and connects to it', async () => {
    const { widget } = page()
    await widget.ready()
    expect(widget.getState().connectors.map((c) => c.id)).toEqual(['dev.tessera.wallet'])
    await widget.connect('dev.tessera.wallet')
    expect(widget.getState()).toMatchObject({
      status: 'connected',
      address: accounts[0],
      caipAddress: `eip155:31337:${accounts[0]}`,
      activeCaipNetworkId: 'eip155:31337',
      recentWallets: [{ id: 'dev.tessera.wallet', name: 'Tessera Dev Wallet' }],
    })
    expect(widget.router.store.getState().view).toBe('Account')
  })

  it('keeps the wallet’s rejection and stays disconnected', async () => {
    const { widget, wallet } = page()
    wallet.rejectNext('eth_requestAccounts')
    await expect(widget.connect('dev.tessera.wallet')).rejects.toMatchObject({ code: 'USER_REJECTED' })
    expect(widget.getState()).toMatchObject({ status: 'disconnected', error: { code: 'USER_REJECTED', message: 'User rejected the request.' } })
  })

  it('reconnects after a reload without asking the wallet again', async () => {
    const first = page()
    await first.widget.connect('dev.tessera.wallet')
    first.widget.destroy()
    const target = new EventTarget() as Window
    announceProvider(target, first.wallet)
    const widget = createWidget({ projectId: 'test', networks: [network(31337, a.rpcUrl)], window: target, storage: createWidgetStorage({ storage: first.storage }) })
    widgets.push(widget)
    await widget.reconnect()
    expect(widget.getState()).toMatchObject({ status: 'connected', address: accounts[0] })
  })

  it('reconnects to a wallet that announces itself late', async () => {
    const first = page()
    await first.widget.connect('dev.tessera.wallet')
    const target = new EventTarget() as Window
    const widget = createWidget({ projectId: 'test', networks: [network(31337, a.rpcUrl)], window: target, storage: createWidgetStorage({ storage: first.storage }) })
    widgets.push(widget)
    await widget.reconnect()
    expect(widget.getState().status).toBe('disconnected')
    announceProvider(target, first.wallet)
    await expect.poll(() => widget.getState().status).toBe('connected')
  })

  it('forgets the connection when the wallet disconnects', async () => {
    const { widget, wallet } = page()
    await widget.connect('dev.tessera.wallet')
    wallet.disconnect()
    expect(widget.getState()).toMatchObject({ status: 'disconnected', address: undefined })
    expect(widget.storage.get('connectedConnectorIds')).toBeUndefined()
  })

  it('follows an account switch in the wallet', async () => {
    const { widget, wallet } = page()
    await widget.connect('dev.tessera.wallet')
    wallet.switchAccount(accounts[1]!)
    expect(widget.getState()).toMatchObject({ address: accounts[1], caipAddress: `eip155:31337:${accounts[1]}` })
  })

  it('switches network through the wallet and back', async () => {
    const { widget } = page()
    await widget.connect('dev.tessera.wallet')
    await widget.switchNetwork('eip155:31338')
    expect(widget.getState()).toMatchObject({ activeCaipNetworkId: 'eip155:31338', caipAddress: `eip155:31338:${accounts[0]}` })
    expect(widget.storage.get('activeCaipNetworkId')).toBe('eip155:31338')
    await widget.switchNetwork('eip155:31337')
    expect(widget.getState().activeCaipNetworkId).toBe('eip155:31337')
  })

  it('opens UnsupportedChain when the wallet moves to a network the site did not request', async () => {
    const { widget, wallet } = page({ networks: [network(31337, a.rpcUrl)] })
    await widget.connect('dev.tessera.wallet')
    await wallet.provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: '0x7a6a' }] })
    expect(widget.router.store.getState().view).toBe('UnsupportedChain')
    expect(widget.getActiveNetwork()).toMatchObject({ name: 'Unknown Network', rpcUrls: { default: { http: [] } } })
    await widget.switchNetwork('eip155:31337')
    expect(widget.router.store.getState().view).toBe('Account')
  })

  it('refuses a network it does not have', async () => {
    const { widget } = page()
    await expect(widget.switchNetwork('eip155:1')).rejects.toMatchObject({ shortMessage: 'Network not found', details: "eip155:1 is not one of the widget's networks" })
  })

  it('disconnects and clears what it stored', async () => {
    const { widget } = page()
    await widget.connect('dev.tessera.wallet')
    await expect(widget.disconnect('solana')).rejects.toMatchObject({ shortMessage: 'Chain adapter not found', details: 'solana' })
    await widget.disconnect()
    expect(widget.getState().status).toBe('disconnected')
    expect(widget.storage.get('connectedConnectorIds')).toBeUndefined()
    expect(widget.router.store.getState().view).toBe('Connect')
  })

  it('opens once started when asked before, unless closed meanwhile', async () => {
    const { widget } = page()
    widget.open({ view: 'Networks' })
    expect(widget.modal.store.getState().open).toBe(false)
    await widget.whenStarted()
    expect(widget.modal.store.getState().open).toBe(true)
    expect(widget.router.store.getState().view).toBe('Networks')

    const closedMeanwhile = page().widget
    closedMeanwhile.open()
    closedMeanwhile.close()
    await closedMeanwhile.whenStarted()
    expect(closedMeanwhile.modal.store.getState().open).toBe(false)
  })

  it('opens on Connect when disconnected and on Account when connected', async () => {
    const { widget } = page()
    await widget.whenStarted()
    widget.open()
    expect(widget.router.store.getState().view).toBe('Connect')
    expect(widget.modal.store.getState().open).toBe(true)
    await widget.connect('dev.tessera.wallet')
    widget.close()
    widget.open()
    expect(widget.router.store.getState().view).toBe('Account')
    widget.open({ view: 'Networks' })
    expect(widget.router.store.getState().view).toBe('Networks')
  })

  describe('sign in with the wallet (SIWX)', () => {
    const siwxWidget = (required: boolean) => {
      const sessions: { caipAddress: string; message: string; signature: string }[] = []
      const { widget, wallet } = page()
      const withSiwx = createWidget({
        projectId: 'test',
        networks: [network(31337, a.rpcUrl)],
        window: (() => {
          const target = new EventTarget() as Window
          announceProvider(target, wallet)
          return target
        })(),
        storage: createWidgetStorage({ storage: createMemoryStorage() }),
        siwx: {
          createMessage: async ({ accountAddress, chainId }) => `Sign in as ${accountAddress} on ${chainId}`,
          addSession: async (session) => void sessions.push(session),
          getSessions: async ({ accountAddress }) => sessions.filter((s) => s.caipAddress.endsWith(accountAddress)),
          revokeSession: async () => {},
          getRequired: () => required,
        },
      })
      widget.destroy()
      widgets.push(withSiwx)
      return { widget: withSiwx, wallet, sessions }
    }

    it('opens the sign-message view after connect; signing stores a session and closes', async () => {
      const { widget, sessions } = siwxWidget(false)
      await widget.connect('dev.tessera.wallet')
      expect(widget.router.store.getState().view).toBe('SIWXSignMessage')
      expect(widget.modal.store.getState().open).toBe(true)
      expect(await widget.signIn()).toBe(true)
      expect(sessions).toHaveLength(1)
      expect(sessions[0]!.message).toBe(`Sign in as ${accounts[0]} on 31337`)
      expect(widget.modal.store.getState().open).toBe(false)
      await widget.disconnect()
      await widget.connect('dev.tessera.wallet')
      expect(widget.router.store.getState().view).toBe('Account')
    })

    it('closing the sign-in view declines it: a required sign-in disconnects, an optional one only closes', async () => {
      const required = siwxWidget(true).widget
      await required.connect('dev.tessera.wallet')
      expect(required.router.store.getState().view).toBe('SIWXSignMessage')
      required.close()
      await expect.poll(() => required.getState().status).toBe('disconnected')
      expect(required.modal.store.getState().open).toBe(false)

      const optional = siwxWidget(false).widget
      await optional.connect('dev.tessera.wallet')
      optional.close()
      await new Promise((done) => setTimeout(done, 50))
      expect(optional.getState().status).toBe('connected')
      expect(optional.modal.store.getState().open).toBe(false)
    })

    it("keeps the view with 'Signature declined' when the wallet refuses", async () => {
      const { widget, wallet } = siwxWidget(false)
      await widget.connect('dev.tessera.wallet')
      wallet.rejectNext('personal_sign')
      expect(await widget.signIn()).toBe(false)
      expect(widget.getState().siwxError).toBe('Signature declined')
      expect(widget.router.store.getState().view).toBe('SIWXSignMessage')
    })

    it('disconnects on cancel when sign-in is required, and only closes otherwise', async () => {
      const required = siwxWidget(true)
      await required.widget.connect('dev.tessera.wallet')
      await required.widget.cancelSignIn()
      expect(required.widget.getState().status).toBe('disconnected')
      const optional = siwxWidget(false)
      await optional.widget.connect('dev.tessera.wallet')
      await optional.widget.cancelSignIn()
      expect(optional.widget.getState().status).toBe('connected')
      expect(optional.widget.modal.store.getState().open).toBe(false)
    })
  })

  it('keeps two widgets on one page apart', async () => {
    const one = page()
    const widget2 = createWidget({ projectId: 'other', networks: [network(31337, a.rpcUrl)], window: one.target, storage: createWidgetStorage({ storage: createMemoryStorage() }) })
    widgets.push(widget2)
    await one.widget.connect('dev.tessera.wallet')
    expect(widget2.getState().status).toBe('disconnected')
  })
})

describe('the SDK version string (type-adapters-version, SPEC §1)', () => {
  const evm = { chainNamespace: 'eip155' as const, caipNetworkId: 'eip155:1', id: 1, name: 'Ethereum', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [] } } }
  const solana = { chainNamespace: 'solana' as const, caipNetworkId: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1', id: 'EtWTRABZaYq6iMfeYKouRu166VU2xqa1', name: 'Solana Devnet', nativeCurrency: { name: 'Solana', symbol: 'SOL', decimals: 9 }, rpcUrls: { default: { http: [] } } }
  const make = (parameters: Partial<CreateWidgetParameters>) => {
    const widget = createWidget({ projectId: 'test', networks: [evm], storage: createWidgetStorage({ storage: createMemoryStorage() }), window: new EventTarget() as Window, ...parameters })
    widget.destroy()
    return widget
  }

  it('names the library adapter in place of eip155, and the other families by their adapter type', () => {
    expect(make({}).sdkVersion).toBe(`react-eip155-${SDK_VERSION}`)
    expect(make({ adapters: [{ type: 'wagmi' }] }).sdkVersion).toBe(`react-wagmi-${SDK_VERSION}`)
    expect(make({ adapters: [{ type: 'ethers5' }], networks: [evm, solana] }).sdkVersion).toBe(`react-ethers5,solana-${SDK_VERSION}`)
  })

  it("carries the package's version", async () => {
    const { readFileSync } = await import('node:fs')
    expect(SDK_VERSION).toBe(JSON.parse(readFileSync('package.json', 'utf8')).version)
  })

  it('attaches each adapter to the widget it was given to', () => {
    const attached: unknown[] = []
    const widget = make({ adapters: [{ type: 'ethers', attach: (w) => attached.push(w) }] })
    expect(attached).toEqual([widget])
  })
})

describe('start-up: the widget starts after its first frame, and reads storage in the task after that', () => {
  const evm = (id: number) => ({ chainNamespace: 'eip155' as const, caipNetworkId: `eip155:${id}`, id, name: `Chain ${id}`, nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [] } } })
  const solana = { chainNamespace: 'solana' as const, caipNetworkId: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1', id: 'EtWTRABZaYq6iMfeYKouRu166VU2xqa1', name: 'Solana Devnet', nativeCurrency: { name: 'Solana', symbol: 'SOL', decimals: 9 }, rpcUrls: { default: { http: [] } } }
  const recent = [{ id: 'dev.tessera.wallet', name: 'Tessera Dev Wallet' }]

  function storedPage() {
    const backing = createMemoryStorage()
    const seed = createWidgetStorage({ storage: backing })
    seed.set('activeNamespace', 'solana')
    seed.set('activeCaipNetworkId', solana.caipNetworkId)
    seed.set('recentWallets', recent)
    let accesses = 0
    const counted = new Proxy(backing, {
      get(target, property, receiver) {
        accesses += 1
        return Reflect.get(target, property, receiver)
      },
    })
    const widget = createWidget({ projectId: 'test', networks: [evm(1), evm(10), solana], storage: createWidgetStorage({ storage: counted }), window: new EventTarget() as Window })
    return { widget, accesses: () => accesses }
  }
  const nextTask = () => new Promise((done) => setTimeout(done, 0))

  it('makes the widget without touching browser storage, then restores the stored family, network and recent wallets', async () => {
    const { widget, accesses } = storedPage()
    expect(widget.getState()).toMatchObject({ isStarted: false, status: 'disconnected', namespaces: {} })
    await widget.whenStarted()
    expect(accesses()).toBe(0)
    expect(widget.getState()).toMatchObject({ isStarted: true, activeNamespace: 'eip155', activeCaipNetworkId: 'eip155:1', recentWallets: [] })
    await nextTask()
    expect(accesses()).toBeGreaterThan(0)
    expect(widget.getState()).toMatchObject({ activeNamespace: 'solana', activeCaipNetworkId: solana.caipNetworkId, recentWallets: recent })
    widget.destroy()
  })

  it('keeps a network chosen before the stored one was read', async () => {
    const { widget } = storedPage()
    await widget.whenStarted()
    widget.store.setState((s) => ({ namespaces: { ...s.namespaces, eip155: { ...s.namespaces.eip155!, activeCaipNetworkId: 'eip155:10' } }, activeCaipNetworkId: 'eip155:10' }))
    await nextTask()
    expect(widget.getState()).toMatchObject({ activeNamespace: 'eip155', activeCaipNetworkId: 'eip155:10', recentWallets: recent })
    widget.destroy()
  })
})

describe('a config that is not valid', () => {
  const local = { chainNamespace: 'eip155' as const, caipNetworkId: 'eip155:31337', id: 31337, name: 'Local', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } } }
  const make = (parameters: Partial<CreateWidgetParameters>) =>
    createWidget({ projectId: 'test', networks: [local], window: new EventTarget() as Window, storage: createWidgetStorage({ storage: createMemoryStorage() }), ...parameters } as CreateWidgetParameters)

  it('rejects whenStarted() and every call that needs the widget with the field it names, logs it and sets `error`', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    const widget = make({ networks: [{ ...local, rpcUrls: { default: { http: ['not a url'] } } }] })
    // The buttons show at once: the families' state comes from the networks as given.
    expect(widget.getState()).toMatchObject({ isStarted: false, status: 'disconnected', activeCaipNetworkId: 'eip155:31337' })
    await expect(widget.whenStarted()).rejects.toMatchObject({ code: 'INVALID_CONFIG', field: 'networks.0.rpcUrls.default.http.0' })
    await expect(widget.connect('injected')).rejects.toMatchObject({ code: 'INVALID_CONFIG' })
    expect(widget.getState()).toMatchObject({ isStarted: false, error: { code: 'INVALID_CONFIG' } })
    expect(logged).toHaveBeenCalledWith(expect.objectContaining({ code: 'INVALID_CONFIG' }))
    expect(() => widget.config).toThrow('Tessera is still starting: widget.config is there once `await widget.whenStarted()` resolves')
    widget.destroy()
    logged.mockRestore()
  })

  it('says SIWX_CONFIG_CONFLICT for siwx and siweConfig together', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    const widget = make({ siwx: true, siweConfig: {} } as Partial<CreateWidgetParameters>)
    await expect(widget.whenStarted()).rejects.toMatchObject({ code: 'SIWX_CONFIG_CONFLICT', field: 'siwx' })
    widget.destroy()
    logged.mockRestore()
  })

  it('keeps the buttons from garbage: no networks of a known family leave the families empty until the check says why', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {})
    const widget = make({ networks: [{ chainNamespace: 'toString', caipNetworkId: 1 }, null, 'eip155:1'] as never })
    expect(widget.getState()).toMatchObject({ namespaces: {}, requestedCaipNetworkIds: [], activeNamespace: 'eip155' })
    expect(widget.getNetworks()).toEqual([{ chainNamespace: 'toString', caipNetworkId: 1 }])
    await expect(widget.whenStarted()).rejects.toMatchObject({ code: 'INVALID_CONFIG', field: 'networks.0' })
    widget.destroy()
    logged.mockRestore()
  })
})

describe('before the start: what needs the started widget waits for it or says so', () => {
  const evm = (id: number) => ({ chainNamespace: 'eip155' as const, caipNetworkId: `eip155:${id}`, id, name: `Chain ${id}`, nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [] } } })
  // No window, as on a server: nothing starts by itself, so only the call under test starts the widget.
  const make = () => createWidget({ projectId: 'test', networks: [evm(1), evm(10)], storage: createWidgetStorage({ storage: createMemoryStorage() }) })

  it('starts the widget for a call that needs it, then makes the call', async () => {
    const widget = make()
    expect(widget.getState().isStarted).toBe(false)
    await widget.switchNetwork('eip155:10')
    expect(widget.getState().isStarted).toBe(true)
    expect(widget.getActiveNetwork()).toMatchObject({ caipNetworkId: 'eip155:10' })
    widget.destroy()
  })

  it('says what to await when the started widget is read before it', async () => {
    const widget = make()
    expect(() => widget.core).toThrow("Tessera is still starting: widget.core is there once `await widget.whenStarted()` resolves (the widget's code loads after the page's first frame).")
    expect(() => widget.getActiveNetwork()).toThrow('Tessera is still starting: widget.getActiveNetwork() is there once `await widget.whenStarted()` resolves')
    await widget.whenStarted()
    expect(widget.getActiveNetwork()).toMatchObject({ caipNetworkId: 'eip155:1' })
    widget.destroy()
  })
})
