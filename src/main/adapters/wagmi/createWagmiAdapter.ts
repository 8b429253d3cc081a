import { createConfig, type CreateConfigParameters, type Transport } from '@wagmi/core'
import { http, type Chain } from 'viem'
import type { EvmNetwork } from '../../widget/config'
import type { Widget, WidgetAdapter } from '../../widget/createWidget'
import { tessera } from './tessera'
import { tesseraTransport } from './tesseraTransport'
import { toWidgetNetwork } from './toWidgetNetwork'
import { createWidgetRef, type WidgetRef } from './widgetRef'

export type CreateWagmiAdapterParameters<chains extends readonly [Chain, ...Chain[]] = readonly [Chain, ...Chain[]]> = {
  /** The site's chains (viem `Chain`s): wagmi's, and with `adapter.networks` Tessera's too. */
  chains: chains
  /**
   * How wagmi reads the chains: 'tessera' (the default) through Tessera's worker core, with http where there is no
   * core; 'http' straight to each chain's first RPC URL; or your own transports by chain id (chains left out read
   * through Tessera).
   */
  transports?: 'tessera' | 'http' | { [chainId in chains[number]['id']]?: Transport }
} & Partial<Pick<CreateConfigParameters<chains>, 'storage' | 'ssr' | 'syncConnectedChain' | 'pollingInterval' | 'cacheTime'>>

/**
 * The wagmi adapter: a wagmi config whose one connector is Tessera's, to pass to `createWidget({ adapters })` and to
 * `<WagmiProvider config={adapter.wagmiConfig}>`. wagmi hooks then see the wallet connected in Tessera's modal, a
 * connection made with wagmi's actions shows in Tessera, and reads go through Tessera's worker core. wagmi's own
 * discovery of injected wallets is off: Tessera's modal lists them.
 * @example
 * const adapter = createWagmiAdapter({ chains: [mainnet, base] })
 * const widget = createWidget({ projectId, networks: adapter.networks, adapters: [adapter] })
 * <WagmiProvider config={adapter.wagmiConfig}>…</WagmiProvider>
 */
export function createWagmiAdapter<const chains extends readonly [Chain, ...Chain[]]>({ chains, transports = 'tessera', pollingInterval, cacheTime, ...options }: CreateWagmiAdapterParameters<chains>) {
  const widgetRef: WidgetRef = createWidgetRef()
  const transportOf = (chain: Chain): Transport =>
    (typeof transports === 'object' ? transports[chain.id as chains[number]['id']] : undefined) ?? (transports === 'http' ? http() : tesseraTransport(widgetRef))
  const wagmiConfig = createConfig({
    ...options,
    chains,
    connectors: [tessera(widgetRef)],
    transports: Object.fromEntries(chains.map((chain) => [chain.id, transportOf(chain)])) as Record<chains[number]['id'], Transport>,
    multiInjectedProviderDiscovery: false,
    ...(pollingInterval !== undefined ? { pollingInterval } : {}),
    ...(cacheTime !== undefined ? { cacheTime } : {}),
  })
  return {
    type: 'wagmi' as const,
    wagmiConfig,
    /** The chains as Tessera networks, for `createWidget({ networks })`. */
    networks: chains.map(toWidgetNetwork) as EvmNetwork[],
    /** The widget the adapter was attached to (by `createWidget({ adapters: [adapter] })`). */
    widget: widgetRef,
    attach(widget: Widget) {
      widgetRef.set(widget)
    },
  } satisfies WidgetAdapter & Record<string, unknown>
}

/** The same as `createWagmiAdapter`. */
export const wagmiAdapter = createWagmiAdapter

export type WagmiAdapter<chains extends readonly [Chain, ...Chain[]] = readonly [Chain, ...Chain[]]> = ReturnType<typeof createWagmiAdapter<chains>>
