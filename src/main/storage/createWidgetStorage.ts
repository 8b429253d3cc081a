import * as z from 'zod/mini'
import { safeParse } from '../../shared/protocol/schemas/parse'
import { STORAGE_VERSION, storageKey } from './storageKey'

const namespace = z.enum(['eip155', 'solana', 'polkadot', 'bip122'])
const caipNetworkId = z.string().check(z.regex(/^[-a-z0-9]{3,8}:[-_a-zA-Z0-9]{1,32}$/))
const recentWallet = z.object({ id: z.string(), name: z.string(), image_id: z.optional(z.string()), rdns: z.optional(z.nullable(z.string())) })

/**
 * Every item the widget keeps in browser storage (SPEC §3), with the shape a stored value must have. Each schema is
 * built the first time its item is read or written: building all of them would lengthen the page's start-up task.
 */
const itemSchemas = {
  walletId: () => z.string(),
  walletName: () => z.string(),
  activeCaipNetworkId: () => caipNetworkId,
  activeNamespace: () => namespace,
  connectedNamespaces: () => z.array(namespace),
  connectedConnectorIds: () => z.partialRecord(namespace, z.string()),
  connectionStatus: () => z.enum(['disconnected', 'connecting', 'reconnecting', 'connected']),
  recentWallets: () => z.array(recentWallet).check(z.maxLength(2)),
  deepLinkChoice: () => z.object({ href: z.string(), name: z.string() }),
  connectedSocialProvider: () => z.enum(['google', 'github', 'apple', 'facebook', 'x', 'discord', 'farcaster']),
  connectedSocialUsername: () => z.string(),
  email: () => z.string().check(z.email()),
  emailLoginUsed: () => z.boolean(),
  lastEmailLoginTime: () => z.number().check(z.int(), z.nonnegative()),
  lastUsedChain: () => namespace,
  smartAccountEnabledNetworks: () => z.array(z.number().check(z.int(), z.positive())),
  preferredAccountTypes: () => z.partialRecord(namespace, z.enum(['eoa', 'smartAccount', 'payment'])),
  siwxSessions: () => z.array(z.object({ caipAddress: z.string(), message: z.string(), signature: z.string(), expiresAt: z.optional(z.number()), id: z.optional(z.string()) })),
  authToken: () => z.string(),
  nonceToken: () => z.string(),
}

export type StorageItems = { [K in keyof typeof itemSchemas]: ReturnType<(typeof itemSchemas)[K]> }
export type StorageItem = keyof StorageItems
export type StorageValue<K extends StorageItem> = z.infer<StorageItems[K]>

const built = new Map<StorageItem, z.ZodMiniType>()
const schemaOf = <K extends StorageItem>(item: K) => {
  if (!built.has(item)) built.set(item, itemSchemas[item]())
  return built.get(item) as StorageItems[K]
}

export { STORAGE_VERSION }

type StorageLike = Pick<Storage, 'getItem' | 'setItem' | 'removeItem' | 'key'> & { readonly length: number }

/** A Storage kept in memory: the fallback when localStorage is missing, and a test double with the same contract. */
export function createMemoryStorage(): StorageLike {
  const map = new Map<string, string>()
  return {
    get length() {
      return map.size
    },
    key: (i) => [...map.keys()][i] ?? null,
    getItem: (k) => map.get(k) ?? null,
    setItem: (k, v) => void map.set(k, String(v)),
    removeItem: (k) => void map.delete(k),
  }
}

function defaultStorage(): StorageLike {
  try {
    const storage = globalThis.localStorage
    const probe = '__tessera_probe__'
    storage.setItem(probe, probe)
    storage.removeItem(probe)
    return storage
  } catch {
    return createMemoryStorage()
  }
}

/**
 * Browser storage for the widget: one versioned key per item (`tessera:v1:walletId`), values checked against their
 * schema when read. A corrupt or malformed value is removed and read as absent; keys of other versions are dropped.
 * Falls back to memory when localStorage is unavailable (private modes, sandboxed frames, server rendering).
 * @example const storage = createWidgetStorage(); storage.set('recentWallets', [wallet])
 */
export function createWidgetStorage({ storage: given, prefix = 'tessera' }: { storage?: StorageLike; prefix?: string } = {}) {
  const keyFor = (item: StorageItem) => storageKey(item, prefix)
  const ours = new RegExp(`^${prefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:v(\\d+):`)

  const safely = <T>(run: () => T, fallback: T): T => {
    try {
      return run()
    } catch {
      return fallback
    }
  }

  // Opened on first use, not when the widget is made: a page's first localStorage access is a synchronous round trip to
  // the browser process, which would lengthen the task that evaluates the page's scripts.
  let opened: StorageLike | undefined
  const open = () => {
    if (opened) return opened
    const storage = (opened = given ?? defaultStorage())
    const stale: string[] = []
    for (let i = 0; i < safely(() => storage.length, 0); i++) {
      const key = safely(() => storage.key(i), null)
      const match = key ? ours.exec(key) : null
      if (key && match && Number(match[1]) !== STORAGE_VERSION) stale.push(key)
    }
    for (const key of stale) safely(() => storage.removeItem(key), undefined)
    return storage
  }

  return {
    get<K extends StorageItem>(item: K): StorageValue<K> | undefined {
      const raw = safely(() => open().getItem(keyFor(item)), null)
      if (raw === null) return undefined
      const parsed = safely(() => safeParse(schemaOf(item), JSON.parse(raw)), undefined)
      if (parsed?.success) return parsed.data as StorageValue<K>
      safely(() => open().removeItem(keyFor(item)), undefined)
      return undefined
    },
    set<K extends StorageItem>(item: K, value: StorageValue<K>) {
      const checked = safeParse(schemaOf(item), value)
      if (!checked.success) {
        throw new Error(`Cannot store ${item}: ${checked.error.issues.map((i) => `${[item, ...i.path].join('.')}: ${i.message}`).join('; ')}`)
      }
      safely(() => open().setItem(keyFor(item), JSON.stringify(checked.data)), undefined)
    },
    remove(item: StorageItem) {
      safely(() => open().removeItem(keyFor(item)), undefined)
    },
  }
}

export type WidgetStorage = ReturnType<typeof createWidgetStorage>
