// Each chain family's worker client is a module of its own, built by the bundler as a self-contained file (`?worker&url`)
// and imported by the core worker from the URL the page gives it: a host's bundler copies such a file as an asset,
// where it would not emit a worker's own lazy chunks, and a site without that family never downloads it.
// These are URLs, not worker code on the page: the bundler emits each module as a file and gives its address.
// eslint-disable-next-line no-restricted-imports -- a URL, like new URL(…) for the workers
import bitcoinModule from '../../worker/families/bip122/bitcoinFamily.ts?worker&url'
// eslint-disable-next-line no-restricted-imports -- a URL, like new URL(…) for the workers
import solanaModule from '../../worker/families/solana/solanaFamily.ts?worker&url'
// eslint-disable-next-line no-restricted-imports -- a URL, like new URL(…) for the workers
import polkadotModule from '../../worker/families/polkadot/polkadotFamily.ts?worker&url'
import { bitcoinCoreCalls } from '../../shared/families/bip122/coreApi'
import { polkadotCoreCalls } from '../../shared/families/polkadot/coreApi'
import { solanaCoreCalls } from '../../shared/families/solana/coreApi'
import type { CoreConfig, FamilyCalls, FamilyModules, FamilyNamespace } from '../../shared/protocol/core/coreApi'
import { pageWorkerUrl } from './pageWorker'

/**
 * The chain families of the core besides EVM, as the page starts them, one line each: the core's member that makes
 * the family's calls (`core.bitcoin`), those calls (src/shared/families/<namespace>/coreApi.ts) and the URL of its
 * worker module. What the widget adds for a family (its adapter, how its networks reach the core) is in
 * src/main/families/index.ts.
 */
export const coreFamilies = {
  solana: { member: 'solana', calls: solanaCoreCalls, module: solanaModule },
  bip122: { member: 'bitcoin', calls: bitcoinCoreCalls, module: bitcoinModule },
  polkadot: { member: 'polkadot', calls: polkadotCoreCalls, module: polkadotModule },
} as const satisfies { [N in FamilyNamespace]: { member: string; calls: FamilyCalls<N>; module: string } }

const absolute = (url: string) => pageWorkerUrl(new URL(url, globalThis.location?.href)).href

/**
 * The URLs of the family modules a config needs, by namespace (the worker imports them when configured).
 * @example familyModulesFor({ solana: [{ caipNetworkId, rpcUrls }] }) // { solana: 'https://site.example/assets/solanaFamily-….js' }
 */
export function familyModulesFor(familyChains: NonNullable<CoreConfig['familyChains']>): FamilyModules {
  return Object.fromEntries(
    Object.entries(coreFamilies).flatMap(([namespace, { module }]) => ((familyChains[namespace as FamilyNamespace]?.length ?? 0) > 0 ? [[namespace, absolute(module)]] : [])),
  )
}
