import { createWidgetError } from '../../shared/protocol/errors'
import { importModuleAt } from '../moduleHost/importModuleAt'
import type { reviewCalls, reviewTransaction, reviewTypedDataOnChain } from './createReview'

/** The review engine (createReview.ts) as its module registers it. */
export type ReviewEngine = { reviewTransaction: typeof reviewTransaction; reviewCalls: typeof reviewCalls; reviewTypedData: typeof reviewTypedDataOnChain }

// The engine's module is a bundle of its own (with its own copy of this file), so it registers on the worker's global.
const key = Symbol.for('tessera.reviewEngine')
const slot = () => globalThis as { [key]?: ReviewEngine }

/** Called by the engine's module (reviewModule.ts) when the worker imports it. */
export function registerReviewEngine(engine: ReviewEngine) {
  slot()[key] = engine
}

/**
 * The review engine, its module imported at the first review from the URL the page gave (its bundler emitted the module
 * as a file of its own, like the chain families'). Never a static `import()` here: a package build would inline the
 * engine into the core worker, which every site downloads whether it reviews or not.
 * @example const { reviewTransaction } = await loadReviewEngine(reviewModuleUrl)
 */
export async function loadReviewEngine(url: string | undefined): Promise<ReviewEngine> {
  const loaded = slot()[key]
  if (loaded) return loaded
  if (!url) throw createWidgetError('INVALID_CONFIG', { details: "the core was given no URL of the review engine's module (reviewModule)" })
  await importModuleAt(url, "the review engine's module")
  const engine = slot()[key]
  if (!engine) throw createWidgetError('INVALID_CONFIG', { details: `${url} is not the review engine's module` })
  return engine
}
