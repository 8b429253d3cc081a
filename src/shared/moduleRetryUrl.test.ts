import { describe, expect, it } from 'vitest'
import { moduleRetryUrl } from './moduleRetryUrl'

describe('moduleRetryUrl', () => {
  it('puts the attempt in the query of a web or file URL, replacing an earlier one and keeping the rest', () => {
    expect(moduleRetryUrl('https://site.example/assets/Modal-a1.js', 1)).toBe('https://site.example/assets/Modal-a1.js?tessera-retry=1')
    expect(moduleRetryUrl('http://127.0.0.1:5173/assets/solanaFamily-b2.js?v=3&tessera-retry=1', 2)).toBe('http://127.0.0.1:5173/assets/solanaFamily-b2.js?v=3&tessera-retry=2')
    expect(moduleRetryUrl('file:///tmp/family.mjs', 3)).toBe('file:///tmp/family.mjs?tessera-retry=3')
  })

  it('gives nothing for a URL whose query reaches no server or file, or for what is not a URL', () => {
    expect(moduleRetryUrl('data:text/javascript,export default 1', 1)).toBeUndefined()
    expect(moduleRetryUrl('blob:https://site.example/5e1f', 1)).toBeUndefined()
    expect(moduleRetryUrl('./Modal-a1.js', 1)).toBeUndefined()
  })
})
