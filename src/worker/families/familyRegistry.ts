import type { CoreFamilies, FamilyNamespace } from '../../shared/protocol/core/coreApi'
import { createWidgetError } from '../../shared/protocol/errors'
import { importModuleAt } from '../moduleHost/importModuleAt'

/**
 * A family's API in the core worker: the calls of `core.<family>` under their names (src/shared/families/<namespace>/coreApi.ts),
 * what the store keeps of a balance, and destroy.
 */
export type FamilyWorkerApi<Api extends { getBalance(parameters: never): Promise<unknown> }> = Api & {
  /** The native amount, in the smallest unit, that the mirrored store keeps of what getBalance answers. */
  nativeBalance(balance: Awaited<ReturnType<Api['getBalance']>>): bigint
  /** Closes the family's clients (rankings, WebSockets): the core was configured anew. */
  destroy(): unknown
}

/** What a family's module registers: its API over the family's configured networks. */
export type CreateFamilyApi<N extends FamilyNamespace> = (parameters: { chains: readonly CoreFamilies[N]['chain'][]; rank: boolean }) => FamilyWorkerApi<CoreFamilies[N]['api']>

/** A family's API as the core worker's code for every family calls it: by the name of the call. */
export type AnyFamilyApi = {
  getBalance(parameters: { caipNetworkId: string; address: string }): Promise<unknown>
  nativeBalance(balance: unknown): bigint
  destroy(): unknown
} & Record<string, (parameters: unknown) => Promise<unknown>>

type AnyCreateFamilyApi = (parameters: { chains: readonly { caipNetworkId: string }[]; rank: boolean }) => AnyFamilyApi

// A family's module is a bundle of its own (its own copy of this file), so the registry lives on the worker's global.
const key = Symbol.for('tessera.workerFamilies')
const registry = (): Partial<Record<FamilyNamespace, AnyCreateFamilyApi>> => ((globalThis as { [key]?: Partial<Record<FamilyNamespace, AnyCreateFamilyApi>> })[key] ??= {})

/**
 * Called by a family's module when the worker imports it (`<family>Family.ts`).
 * @example registerFamily('solana', createSolanaWorkerApi)
 */
export function registerFamily<N extends FamilyNamespace>(namespace: N, create: CreateFamilyApi<N>) {
  // The core worker calls every family's API by name: its own types stay with the family.
  registry()[namespace] = create as unknown as AnyCreateFamilyApi
}

/**
 * A chain family's API factory, its module imported from the URL the page gave (its bundler emitted the module as a
 * file of its own: see src/main/core/familyModules.ts). Never a static `import()` here: a package build would inline
 * it into the worker, which every site would then download.
 */
export async function loadFamily(namespace: FamilyNamespace, url: string | undefined, label: string): Promise<AnyCreateFamilyApi> {
  if (!url) throw createWidgetError('NETWORK_NOT_FOUND', { details: `${label} networks are configured, but not the URL of the ${label} client's module` })
  await importModuleAt(url, `the ${label} client's module`)
  const create = registry()[namespace]
  if (!create) throw createWidgetError('NETWORK_NOT_FOUND', { details: `${url} is not the ${label} client's module` })
  return create
}
