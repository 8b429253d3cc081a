import { createWidgetError } from '../../shared/protocol/errors'
import type { createBitcoinWorkerApi } from './bip122/bitcoinWorkerApi'
import type { createPolkadotWorkerApi } from './polkadot/polkadotWorkerApi'
import type { createSolanaWorkerApi } from './solana/solanaWorkerApi'

export type FamilyFactories = { solana: typeof createSolanaWorkerApi; bitcoin: typeof createBitcoinWorkerApi; polkadot: typeof createPolkadotWorkerApi }
type Family = keyof FamilyFactories

// A family's module is a bundle of its own (its own copy of this file), so the registry lives on the worker's global.
const key = Symbol.for('tessera.workerFamilies')
const registry = (): Partial<FamilyFactories> => ((globalThis as { [key]?: Partial<FamilyFactories> })[key] ??= {})

/** Called by a family's module when the worker imports it (solanaFamily.ts, bitcoinFamily.ts, polkadotFamily.ts). */
export function registerFamily<F extends Family>(family: F, factory: FamilyFactories[F]) {
  registry()[family] = factory
}

/**
 * A chain family's client factory, its module imported from the URL the page gave (its bundler emitted the module as
 * a file of its own: see src/main/core/familyModules.ts). Never a static `import()` here: a package build would
 * inline it into the worker, which every site would then download.
 */
export async function loadFamily<F extends Family>(family: F, url: string | undefined, name: string): Promise<FamilyFactories[F]> {
  if (!url) throw createWidgetError('NETWORK_NOT_FOUND', { details: `${name} networks are configured, but not the URL of the ${name} client's module` })
  await import(/* @vite-ignore */ url)
  const factory = registry()[family]
  if (!factory) throw createWidgetError('NETWORK_NOT_FOUND', { details: `${url} is not the ${name} client's module` })
  return factory as FamilyFactories[F]
}
