import type { FamilyNamespace } from '../../shared/protocol/core/coreApi'
import { createWidgetError } from '../../shared/protocol/errors'
import { loadFamily, type AnyFamilyApi } from './familyRegistry'

/**
 * One chain family's API in the core worker, loaded from its module for a config with one of its networks (at once,
 * or at its first call with `loadsAtFirstCall`). A load that failed is tried again by the next call; a new config
 * destroys the one loaded before. Without networks, a call says no network of the family is configured.
 * @example const solana = createFamilySlot('solana', { label: 'Solana' }); solana.configure({ chains, moduleUrl, rank: true }); await (await solana.api()).getBalance(…)
 */
export function createFamilySlot(namespace: FamilyNamespace, { label, loadsAtFirstCall = false }: { label: string; loadsAtFirstCall?: boolean }) {
  let load: (() => Promise<AnyFamilyApi>) | undefined
  let loading: Promise<AnyFamilyApi> | undefined
  const api = (): Promise<AnyFamilyApi> => {
    if (!load) throw createWidgetError('NETWORK_NOT_FOUND', { details: `no ${label} network is configured in the core` })
    return (loading ??= load().catch((error: unknown) => {
      loading = undefined
      throw error
    }))
  }
  return {
    api,
    /** The family's networks from the new config, and the URL of its module (from the page). */
    configure({ chains, moduleUrl, rank }: { chains: readonly { caipNetworkId: string }[]; moduleUrl: string | undefined; rank: boolean }) {
      void loading?.then((previous) => previous.destroy()).catch(() => {})
      loading = undefined
      load = chains.length > 0 ? () => loadFamily(namespace, moduleUrl, label).then((create) => create({ chains, rank })) : undefined
      if (load && !loadsAtFirstCall) api().catch(() => {})
    },
  }
}

export type FamilySlot = ReturnType<typeof createFamilySlot>
