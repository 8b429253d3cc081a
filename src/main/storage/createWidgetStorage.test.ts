import { describe, expect, it } from 'vitest'
import { createMemoryStorage, createWidgetStorage, STORAGE_VERSION } from './createWidgetStorage'

function memory(initial: Record<string, string> = {}) {
  const storage = createMemoryStorage()
  for (const [key, value] of Object.entries(initial)) storage.setItem(key, value)
  const keys = () => Array.from({ length: storage.length }, (_, i) => storage.key(i)!)
  return { storage, keys }
}

describe('createWidgetStorage', () => {
  it('stores each item under a versioned key and reads it back', () => {
    const { storage } = memory()
    const s = createWidgetStorage({ storage })
    s.set('recentWallets', [{ id: 'dev', name: 'Tessera Dev Wallet' }])
    s.set('activeCaipNetworkId', 'eip155:31337')
    expect(storage.getItem(`tessera:v${STORAGE_VERSION}:activeCaipNetworkId`)).toBe('"eip155:31337"')
    expect(s.get('recentWallets')).toEqual([{ id: 'dev', name: 'Tessera Dev Wallet' }])
    expect(s.get('activeCaipNetworkId')).toBe('eip155:31337')
    s.remove('activeCaipNetworkId')
    expect(s.get('activeCaipNetworkId')).toBeUndefined()
  })

  it.each([
    ['not JSON', 'activeCaipNetworkId', '{oops'],
    ['the wrong type', 'emailLoginUsed', '"yes"'],
    ['a malformed network id', 'activeCaipNetworkId', '"eip155"'],
    ['three recent wallets', 'recentWallets', JSON.stringify([{ id: 'a', name: 'a' }, { id: 'b', name: 'b' }, { id: 'c', name: 'c' }])],
    ['an unknown namespace', 'activeNamespace', '"cosmos"'],
  ] as const)('reads %s as absent and removes it', (_name, item, raw) => {
    const key = `tessera:v${STORAGE_VERSION}:${item}`
    const { storage } = memory({ [key]: raw })
    expect(createWidgetStorage({ storage }).get(item)).toBeUndefined()
    expect(storage.getItem(key)).toBeNull()
  })

  it('drops keys of other versions on first use and leaves other apps’ keys alone', () => {
    const { storage, keys } = memory({ 'tessera:v0:walletId': '"old"', 'tessera:v9:walletId': '"new"', 'other:key': 'x' })
    const s = createWidgetStorage({ storage })
    expect(keys()).toHaveLength(3)
    expect(s.get('walletId')).toBeUndefined()
    expect(keys()).toEqual(['other:key'])
  })

  it('touches browser storage only on first use (its first access blocks the page)', () => {
    let accesses = 0
    const counted = new Proxy(memory({ 'tessera:v1:walletId': '"dev"' }).storage, {
      get(target, property, receiver) {
        accesses += 1
        return Reflect.get(target, property, receiver)
      },
    })
    const s = createWidgetStorage({ storage: counted })
    expect(accesses).toBe(0)
    expect(s.get('walletId')).toBe('dev')
    expect(accesses).toBeGreaterThan(0)
  })

  it('refuses to write a malformed value, naming the field', () => {
    const s = createWidgetStorage({ storage: memory().storage })
    expect(() => s.set('recentWallets', [{ id: 'a' }] as never)).toThrow(/^Cannot store recentWallets: recentWallets\.0\.name: /)
  })

  it('keeps widgets with different prefixes apart', () => {
    const { storage } = memory()
    const a = createWidgetStorage({ storage, prefix: 'tessera-a' })
    const b = createWidgetStorage({ storage, prefix: 'tessera-b' })
    a.set('walletId', 'x')
    expect(b.get('walletId')).toBeUndefined()
  })

  it('never throws when storage itself fails', () => {
    const broken = {
      length: 1,
      key: () => {
        throw new Error('denied')
      },
      getItem: () => {
        throw new Error('denied')
      },
      setItem: () => {
        throw new Error('quota')
      },
      removeItem: () => {
        throw new Error('denied')
      },
    }
    const s = createWidgetStorage({ storage: broken })
    expect(() => s.set('walletId', 'x')).not.toThrow()
    expect(s.get('walletId')).toBeUndefined()
  })

  it('works without localStorage (server rendering)', () => {
    const s = createWidgetStorage()
    s.set('walletId', 'x')
    expect(s.get('walletId')).toBe('x')
  })
})
