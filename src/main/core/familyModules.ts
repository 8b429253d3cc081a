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
import type { FamilyModules } from '../../shared/protocol/core/coreApi'
import { pageWorkerUrl } from './pageWorker'

const absolute = (url: string) => pageWorkerUrl(new URL(url, globalThis.location?.href)).href

/** The URLs of the family modules a config needs (the worker imports them when configured). */
export function familyModulesFor({ solana, bitcoin, polkadot = false }: { solana: boolean; bitcoin: boolean; polkadot?: boolean }): FamilyModules {
  return {
    ...(solana ? { solana: absolute(solanaModule) } : {}),
    ...(bitcoin ? { bitcoin: absolute(bitcoinModule) } : {}),
    ...(polkadot ? { polkadot: absolute(polkadotModule) } : {}),
  }
}
