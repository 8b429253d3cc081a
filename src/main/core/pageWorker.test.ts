import { describe, expect, it } from 'vitest'
import { pageWorkerUrl } from './pageWorker'

describe('pageWorkerUrl', () => {
  const page = { href: 'http://127.0.0.1:3000/wallet?x=1', protocol: 'http:' }

  it('keeps a URL the page can load', () => {
    expect(pageWorkerUrl('http://127.0.0.1:3000/assets/worker-1.js', page).href).toBe('http://127.0.0.1:3000/assets/worker-1.js')
    expect(pageWorkerUrl('https://cdn.test/worker.js', page).href).toBe('https://cdn.test/worker.js')
  })

  it("moves a bundler's file: URL of an asset onto the page's origin", () => {
    expect(pageWorkerUrl('file:///_next/static/media/worker-1.abc.js?v=2', page).href).toBe('http://127.0.0.1:3000/_next/static/media/worker-1.abc.js?v=2')
  })

  it('leaves a file: URL alone on a page that is itself a file (or has no location)', () => {
    expect(pageWorkerUrl('file:///w.js', { href: 'file:///index.html', protocol: 'file:' }).href).toBe('file:///w.js')
    expect(pageWorkerUrl('file:///w.js', undefined).href).toBe('file:///w.js')
  })
})
