import type { Hex } from 'viem'
import type { WalletPublicKeys } from './walletKeys'

/** What the device keeps for one account: its share (decrypted on load), the commitment and the public keys. */
export type DeviceShareRecord = { share: Uint8Array; commitment: Hex; publicKeys: WalletPublicKeys }

/** The stored form: the share only as AES-GCM ciphertext, next to the non-extractable key that wraps it. */
type StoredRecord = {
  userId: string
  wrappingKey: CryptoKey
  iv: Uint8Array<ArrayBuffer>
  ciphertext: Uint8Array<ArrayBuffer>
  commitment: Hex
  publicKeys: WalletPublicKeys
  savedAt: number
}

export type DeviceShareStore = {
  save(userId: string, record: DeviceShareRecord): Promise<void>
  /** The record of `userId`, or undefined when this device has none (or it cannot be decrypted any more). */
  load(userId: string): Promise<DeviceShareRecord | undefined>
  remove(userId: string): Promise<void>
  close(): void
}

export type CreateDeviceShareStoreParameters = {
  indexedDB?: IDBFactory
  databaseName?: string
  /** Accounts kept on one device; past it the least recently saved go. */
  maxEntries?: number
  now?: () => number
}

const STORE = 'deviceShares'

const request = <T>(req: IDBRequest<T>) =>
  new Promise<T>((resolve, reject) => {
    req.onsuccess = () => resolve(req.result)
    req.onerror = () => reject(req.error)
  })
const done = (tx: IDBTransaction) =>
  new Promise<void>((resolve, reject) => {
    tx.oncomplete = () => resolve()
    tx.onerror = () => reject(tx.error)
    tx.onabort = () => reject(tx.error ?? new Error('IndexedDB transaction aborted'))
  })

const additionalData = (userId: string, commitment: Hex) => new TextEncoder().encode(`${userId}\n${commitment}`)

/**
 * The device share of each account logged in on this device, in the frame's own IndexedDB (its origin's, out of the
 * host page's reach). Each share is encrypted with AES-256-GCM under a key made non-extractable by WebCrypto and stored
 * beside it as a CryptoKey: script can use the key but never read it, and the account id and commitment are bound in.
 * @example const store = createDeviceShareStore(); await store.save(userId, { share, commitment, publicKeys })
 */
export function createDeviceShareStore({
  indexedDB = globalThis.indexedDB,
  databaseName = 'tessera-frame',
  maxEntries = 16,
  now = Date.now,
}: CreateDeviceShareStoreParameters = {}): DeviceShareStore {
  let opening: Promise<IDBDatabase> | undefined
  const open = () =>
    (opening ??= new Promise<IDBDatabase>((resolve, reject) => {
      const req = indexedDB.open(databaseName, 1)
      req.onupgradeneeded = () => req.result.createObjectStore(STORE, { keyPath: 'userId' }).createIndex('savedAt', 'savedAt')
      req.onsuccess = () => resolve(req.result)
      req.onerror = () => reject(req.error)
    }))

  return {
    async save(userId, { share, commitment, publicKeys }) {
      const wrappingKey = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt'])
      const iv = crypto.getRandomValues(new Uint8Array(12))
      const ciphertext = new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv, additionalData: additionalData(userId, commitment) }, wrappingKey, new Uint8Array(share)))
      const db = await open()
      const tx = db.transaction(STORE, 'readwrite')
      const store = tx.objectStore(STORE)
      const record: StoredRecord = { userId, wrappingKey, iv, ciphertext, commitment, publicKeys, savedAt: now() }
      store.put(record)
      // Bounded: the oldest records beyond maxEntries go (this one is the newest).
      const keys = await request(store.index('savedAt').getAllKeys())
      for (const key of keys.slice(0, Math.max(0, keys.length - maxEntries))) if (key !== userId) store.delete(key)
      await done(tx)
    },
    async load(userId) {
      const db = await open()
      const stored = (await request(db.transaction(STORE).objectStore(STORE).get(userId))) as StoredRecord | undefined
      if (!stored) return undefined
      try {
        const share = await crypto.subtle.decrypt({ name: 'AES-GCM', iv: stored.iv, additionalData: additionalData(userId, stored.commitment) }, stored.wrappingKey, stored.ciphertext)
        return { share: new Uint8Array(share), commitment: stored.commitment, publicKeys: stored.publicKeys }
      } catch {
        // A record that no longer decrypts is as good as none: the wallet is then opened with the recovery share.
        return undefined
      }
    },
    async remove(userId) {
      const db = await open()
      const tx = db.transaction(STORE, 'readwrite')
      tx.objectStore(STORE).delete(userId)
      await done(tx)
    },
    close() {
      void opening?.then((db) => db.close())
      opening = undefined
    },
  }
}
