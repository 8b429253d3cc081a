import { afterAll, afterEach, beforeAll } from 'vitest'
import { announceProvider, createDevWallet } from '../../demo/devWallet/createDevWallet'
import { startAnvil, type Anvil } from '../../services/chain/anvil'
import { freePorts } from '../../services/stack/ports'
import { createMemoryStorage, createWidgetStorage } from '../../src/main/storage/createWidgetStorage'
import { createWidget, type CreateWidgetParameters, type Widget } from '../../src/main/widget/createWidget'

/** The dev wallet's account: anvil's first unlocked account. */
export const devAccount = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'

export type LocalChainId = 31337 | 31338

/**
 * A visitor who confirms every review as soon as it is ready (issue #36): for tests of what happens after, in the
 * wallet and on the chain. Reviews themselves are tested in createRequestReview.test.ts and the e2e review spec.
 */
export function confirmEveryReview(widget: Widget) {
  // A widget destroyed before it started (the test was over) has no review store: nothing to confirm then.
  void widget
    .whenStarted()
    .then(() =>
      widget.reviewStore.subscribe(({ pending }) => {
        if (pending?.status === 'ready') widget.decideReview(true)
      }),
    )
    .catch(() => {})
}

/**
 * For a test file: two anvil chains (31337 and 31338), and widgets over them with the dev wallet announced on their own
 * page (the wallet starts on its first chain). Every widget is destroyed after each test.
 * @example const { setup, connected, rpcUrl } = useLocalEvmWidgets({ adapters: [ethersAdapter()] })
 */
export function useLocalEvmWidgets(defaults: Partial<CreateWidgetParameters> = {}) {
  const anvils = new Map<LocalChainId, Anvil>()
  const widgets: Widget[] = []
  beforeAll(async () => {
    const ports = await freePorts()
    const [a, b] = await Promise.all([startAnvil({ port: ports.anvil, chainId: 31337 }), startAnvil({ port: ports.anvil2, chainId: 31338 })])
    anvils.set(31337, a).set(31338, b)
  })
  afterAll(() => Promise.all([...anvils.values()].map((anvil) => anvil.stop())))
  afterEach(() => widgets.splice(0).forEach((widget) => widget.destroy()))

  const rpcUrl = (chainId: LocalChainId) => anvils.get(chainId)!.rpcUrl
  const network = (id: LocalChainId) => ({
    chainNamespace: 'eip155' as const,
    caipNetworkId: `eip155:${id}`,
    id,
    name: `Local ${id}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl(id)] } },
  })

  function setup({ walletChainIds = [31337, 31338] }: { walletChainIds?: LocalChainId[] } = {}) {
    const target = new EventTarget() as Window
    const wallet = createDevWallet({ chains: walletChainIds.map((chainId) => ({ chainId, name: `Local ${chainId}`, rpcUrl: rpcUrl(chainId) })), accounts: [devAccount] })
    announceProvider(target, wallet)
    const widget = createWidget({ projectId: 'test', networks: [network(31337), network(31338)], window: target, storage: createWidgetStorage({ storage: createMemoryStorage() }), ...defaults })
    widgets.push(widget)
    confirmEveryReview(widget)
    return { widget, wallet }
  }

  /** A widget connected to the dev wallet. */
  async function connected() {
    const { widget, wallet } = setup()
    await widget.ready()
    await widget.connect('dev.tessera.wallet')
    return { widget, wallet }
  }

  return { setup, connected, rpcUrl }
}
