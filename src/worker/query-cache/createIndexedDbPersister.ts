import { cachePolicies, PERSISTED_MAX_AGE_MS, type CacheKind, type QueryKey } from './cachePolicies'

export type PersistedEntry = { hash: string; key: QueryKey; data: unknown; updatedAt: number }

export type CachePersister = {
  load(): Promise<PersistedEntry[]>
  put(entry: PersistedEntry): void
  clear(): Promise<void>
  /** Resolves when every put so far is written. */
  flush(): Promise<void>
}

/** Bump when the shape of persisted data changes: entries of other versions are dropped. */
export const CACHE_SCHEMA_VERSION = 1

type StoredRecord = PersistedEntry & { version: number }

const isValidRecord = (value: unknown, now: number): value is StoredRecord => {
  const record = value as Partial<StoredRecord> | null
  if (typeof record !== 'object' || record === null) return false
  if (record.version !== CACHE_SCHEMA_VERSION || typeof record.hash !== 'string') return false
  if (typeof record.updatedAt !== 'number' || !Number.isFinite(record.updatedAt) || record.updatedAt > now) return false
  if (!Array.isArray(record.key) || typeof record.key[0] !== 'string') return false
  const policy = cachePolicies[record.key[0] as CacheKind] as (typeof cachePolicies)[CacheKind] | undefined
  if (!policy?.isPersisted || !('data' in record)) return false
  return now - record.updatedAt <= PERSISTED_MAX_AGE_MS
}

const promisify = <T>(request: IDBRequest<T>) =>
  new Promise<T>((resolve, reject) => {
    request.onsuccess = () => resolve(request.result)
    request.onerror = () => reject(request.error)
  })

/**
 * Persists cache entries in IndexedDB so a reload starts warm. Writes of one tick go in one transaction. Records of
 * another version, malformed, of a kind that is not persisted, or older than a day are deleted on load. When
 * IndexedDB is missing or fails to open, it does nothing (the cache stays in memory).
 */
export function createIndexedDbPersister({
  indexedDB = globalThis.indexedDB,
  dbName = 'tessera-cache',
  now = Date.now,
}: { indexedDB?: IDBFactory; dbName?: string; now?: () => number } = {}): CachePersister {
  const storeName = 'entries'
  const opening: Promise<IDBDatabase | undefined> = (async () => {
    if (!indexedDB) return undefined
    try {
      const request = indexedDB.open(dbName, 1)
      request.onupgradeneeded = () => request.result.createObjectStore(storeName, { keyPath: 'hash' })
      return await promisify(request)
    } catch {
      return undefined
    }
  })()

  let queue: StoredRecord[] = []
  let writing: Promise<void> = Promise.resolve()
  const write = () => {
    const batch = queue
    queue = []
    writing = writing.then(async () => {
      const db = await opening
      if (!db || batch.length === 0) return
      try {
        const tx = db.transaction(storeName, 'readwrite')
        for (const record of batch) tx.objectStore(storeName).put(record)
        await new Promise<void>((resolve, reject) => {
          tx.oncomplete = () => resolve()
          tx.onerror = () => reject(tx.error)
          tx.onabort = () => reject(tx.error)
        })
      } catch {
        // a failed write loses only the warm start
      }
    })
  }

  return {
    async load() {
      const db = await opening
      if (!db) return []
      try {
        const tx = db.transaction(storeName, 'readwrite')
        const objectStore = tx.objectStore(storeName)
        const records = await promisify(objectStore.getAll())
        const valid: PersistedEntry[] = []
        for (const record of records) {
          if (isValidRecord(record, now())) valid.push({ hash: record.hash, key: record.key, data: record.data, updatedAt: record.updatedAt })
          else if (typeof (record as { hash?: unknown })?.hash === 'string') objectStore.delete((record as { hash: string }).hash)
        }
        return valid
      } catch {
        return []
      }
    },
    put(entry) {
      queue.push({ ...entry, version: CACHE_SCHEMA_VERSION })
      if (queue.length === 1) queueMicrotask(write)
    },
    async clear() {
      const db = await opening
      if (!db) return
      await promisify(db.transaction(storeName, 'readwrite').objectStore(storeName).clear()).catch(() => {})
    },
    flush: async () => {
      await Promise.resolve()
      await writing
    },
  }
}
