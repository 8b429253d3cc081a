import { describe, expect, it, vi } from 'vitest'
import { moduleExporting, retryingImport, retryUrlOf } from './retryingImport'

const chromiumFailure = (url: string) => new TypeError(`Failed to fetch dynamically imported module: ${url}`)

describe('retryUrlOf', () => {
  it("gives the URL Chromium's or Firefox's error names, with the attempt in its query", () => {
    expect(retryUrlOf(chromiumFailure('https://site.example/assets/Modal-a1.js'), 1)).toBe('https://site.example/assets/Modal-a1.js?tessera-retry=1')
    expect(retryUrlOf(new TypeError('error loading dynamically imported module: http://127.0.0.1:5173/assets/SwapView-b2.js'), 2)).toBe(
      'http://127.0.0.1:5173/assets/SwapView-b2.js?tessera-retry=2',
    )
  })

  it('replaces the attempt of a URL that was a retry, keeping its other parameters', () => {
    expect(retryUrlOf(chromiumFailure('https://cdn.example/Modal-a1.js?v=3&tessera-retry=1'), 2)).toBe('https://cdn.example/Modal-a1.js?v=3&tessera-retry=2')
  })

  it('gives nothing for any other error: webpack, Safari, a module that threw, not an error, not a web URL', () => {
    expect(retryUrlOf(new Error('Loading chunk 12 failed.\n(error: https://site.example/12.js)'), 1)).toBeUndefined()
    expect(retryUrlOf(new TypeError('Importing a module script failed.'), 1)).toBeUndefined()
    expect(retryUrlOf(new ReferenceError('x is not defined'), 1)).toBeUndefined()
    expect(retryUrlOf('Failed to fetch dynamically imported module: https://site.example/a.js', 1)).toBeUndefined()
    expect(retryUrlOf(chromiumFailure('data:text/javascript,export default 1'), 1)).toBeUndefined()
    expect(retryUrlOf(chromiumFailure('not-a-url'), 1)).toBeUndefined()
  })
})

describe('moduleExporting', () => {
  const namespace = (exports: Record<string, unknown>) => Object.defineProperty({ ...exports }, Symbol.toStringTag, { value: 'Module' })

  it("is the file itself when it exports the name, else the module the bundler put inside it", () => {
    const file = namespace({ startWidget: () => {} })
    expect(moduleExporting(file, 'startWidget')).toBe(file)
    const inner = namespace({ default: 'Modal', prefetchReview: () => {} })
    expect(moduleExporting(namespace({ a: 1, t: inner, r: namespace({ other: 1 }) }), 'default')).toBe(inner)
  })

  it('is nothing when no module in the file exports the name (a plain object that does is not a module)', () => {
    expect(moduleExporting(namespace({ t: { default: 'not a module' }, r: namespace({ other: 1 }) }), 'default')).toBeUndefined()
  })
})

describe('retryingImport', () => {
  it('loads again with the same import after an error that names no module URL', async () => {
    const load = vi.fn().mockRejectedValueOnce(new TypeError('Importing a module script failed.')).mockResolvedValueOnce({ default: 'Modal' })
    const modal = retryingImport(load as () => Promise<{ default: string }>, 'default')
    await expect(modal()).rejects.toThrow('Importing a module script failed.')
    await expect(modal()).resolves.toEqual({ default: 'Modal' })
    expect(load).toHaveBeenCalledTimes(2)
  })

  it('after a failed fetch, imports the named URL anew instead of the import the browser answers from its failure', async () => {
    const failure = chromiumFailure('http://127.0.0.1:9/assets/Modal-a1.js')
    const load = vi.fn().mockRejectedValue(failure)
    const modal = retryingImport(load as () => Promise<{ default: string }>, 'default')
    await expect(modal()).rejects.toBe(failure)
    // Node cannot import an http URL: the error is Node's, for the retry's URL, and the original import is not asked again.
    const retried = await modal().catch((error: unknown) => error)
    expect(retried).toMatchObject({ code: 'ERR_UNSUPPORTED_ESM_URL_SCHEME', message: expect.stringContaining("Received protocol 'http:'") })
    expect(load).toHaveBeenCalledTimes(1)
  })
})
