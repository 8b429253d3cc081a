import { IDBFactory } from 'fake-indexeddb'
import { describe, expect, it } from 'vitest'
import { createDeviceShareStore } from './deviceShareStore'
import { createRootSecret, deriveWalletKeys, toPublicKeys, walletCommitment } from './walletKeys'

const wallet = () => {
  const keys = deriveWalletKeys(createRootSecret())
  return { share: Uint8Array.from({ length: 33 }, () => Math.floor(Math.random() * 256)), commitment: walletCommitment(keys), publicKeys: toPublicKeys(keys) }
}

/** Every value stored in the database, as IndexedDB gives it back. */
async function rawRecords(indexedDB: IDBFactory) {
  const db = await new Promise<IDBDatabase>((resolve) => {
    const req = indexedDB.open('tessera-frame')
    req.onsuccess = () => resolve(req.result)
  })
  const all = await new Promise<unknown[]>((resolve) => {
    const req = db.transaction('deviceShares').objectStore('deviceShares').getAll()
    req.onsuccess = () => resolve(req.result)
  })
  db.close()
  return all as { userId: string; wrappingKey: CryptoKey; ciphertext: Uint8Array }[]
}

describe('createDeviceShareStore', () => {
  it('keeps the share of each account and gives it back', async () => {
    const indexedDB = new IDBFactory()
    const store = createDeviceShareStore({ indexedDB })
    const alice = wallet()
    const bob = wallet()
    await store.save('alice', alice)
    await store.save('bob', bob)
    expect(await store.load('alice')).toEqual(alice)
    expect(await store.load('bob')).toEqual(bob)
    expect(await store.load('carol')).toBeUndefined()
    await store.remove('alice')
    expect(await store.load('alice')).toBeUndefined()
    // A new store on the same database (a reload of the frame) reads what the first one wrote.
    expect(await createDeviceShareStore({ indexedDB }).load('bob')).toEqual(bob)
  })

  it('stores the share only encrypted, under a non-extractable AES-GCM key', async () => {
    const indexedDB = new IDBFactory()
    const alice = wallet()
    await createDeviceShareStore({ indexedDB }).save('alice', alice)
    const [record] = await rawRecords(indexedDB)
    expect(record!.wrappingKey.extractable).toBe(false)
    expect(record!.wrappingKey.algorithm).toMatchObject({ name: 'AES-GCM', length: 256 })
    await expect(crypto.subtle.exportKey('raw', record!.wrappingKey)).rejects.toThrow()
    expect(Buffer.from(record!.ciphertext).includes(Buffer.from(alice.share))).toBe(false)
    expect(JSON.stringify(record, (_, v: unknown) => (v instanceof Uint8Array ? Buffer.from(v).toString('hex') : v))).not.toContain(Buffer.from(alice.share).toString('hex'))
  })

  it('gives nothing for a record moved to another account (the account id is bound into the encryption)', async () => {
    const indexedDB = new IDBFactory()
    await createDeviceShareStore({ indexedDB }).save('alice', wallet())
    const [record] = await rawRecords(indexedDB)
    const db = await new Promise<IDBDatabase>((resolve) => {
      const req = indexedDB.open('tessera-frame')
      req.onsuccess = () => resolve(req.result)
    })
    await new Promise<void>((resolve) => {
      const tx = db.transaction('deviceShares', 'readwrite')
      tx.objectStore('deviceShares').put({ ...record, userId: 'mallory' })
      tx.oncomplete = () => resolve()
    })
    db.close()
    expect(await createDeviceShareStore({ indexedDB }).load('mallory')).toBeUndefined()
  })

  it('keeps at most maxEntries accounts, dropping the least recently saved', async () => {
    let clock = 0
    const store = createDeviceShareStore({ indexedDB: new IDBFactory(), maxEntries: 2, now: () => ++clock })
    await store.save('a', wallet())
    await store.save('b', wallet())
    await store.save('c', wallet())
    expect(await store.load('a')).toBeUndefined()
    expect(await store.load('b')).toBeDefined()
    expect(await store.load('c')).toBeDefined()
    await store.save('b', wallet())
    await store.save('d', wallet())
    expect(await store.load('c')).toBeUndefined()
    expect(await store.load('b')).toBeDefined()
  })
})
