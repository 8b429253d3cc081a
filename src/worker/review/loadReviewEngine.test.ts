import { describe, expect, it } from 'vitest'
import { loadReviewEngine } from './loadReviewEngine'

/** Where the page's bundler put a module; here, the source. */
const sourceUrl = (file: string) => new URL(file, import.meta.url).href

describe('loadReviewEngine', () => {
  it('says what is missing or wrong until the engine’s module is imported, then keeps it', async () => {
    await expect(loadReviewEngine(undefined)).rejects.toMatchObject({ code: 'INVALID_CONFIG', details: expect.stringContaining('no URL') })
    const other = sourceUrl('./isUnlimitedAmount.ts')
    await expect(loadReviewEngine(other)).rejects.toMatchObject({ code: 'INVALID_CONFIG', details: `${other} is not the review engine's module` })

    const engine = await loadReviewEngine(sourceUrl('./reviewModule.ts'))
    expect(await engine.reviewTypedData({ typedData: { types: { Note: [{ name: 'text', type: 'string' }] }, primaryType: 'Note', message: { text: 'hi' } } })).toMatchObject({ kind: 'typedData' })
    // Loaded once per worker: a later config without the URL still reviews.
    expect(await loadReviewEngine(undefined)).toBe(engine)
  })
})
