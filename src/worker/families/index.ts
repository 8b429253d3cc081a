import { bitcoinCoreCalls } from '../../shared/families/bip122/coreApi'
import { polkadotCoreCalls } from '../../shared/families/polkadot/coreApi'
import { solanaCoreCalls } from '../../shared/families/solana/coreApi'
import type { FamilyCalls, FamilyNamespace } from '../../shared/protocol/core/coreApi'

/** A chain family in the core worker: the name its errors give, its calls and when its module loads. */
export type WorkerFamily<N extends FamilyNamespace> = {
  label: string
  calls: FamilyCalls<N>
  /** Loads the family's module at its first call, not as soon as one of its networks is configured. */
  loadsAtFirstCall?: boolean
}

/**
 * The chain families of the core worker besides EVM (its own), one line each. A family's API is a module of its own
 * (`<namespace>/<family>Family.ts`, registerFamily), imported from the URL the page gives once one of its networks is
 * configured: a site without the family never downloads it.
 */
export const workerFamilies: { [N in FamilyNamespace]: WorkerFamily<N> } = {
  solana: { label: 'Solana', calls: solanaCoreCalls },
  bip122: { label: 'Bitcoin', calls: bitcoinCoreCalls },
  // dedot (the Polkadot client, about 50 KiB gz) loads at the family's first call.
  polkadot: { label: 'Polkadot', calls: polkadotCoreCalls, loadsAtFirstCall: true },
}
