type Payload = Record<string, unknown> & { grantId?: string; uid?: string; userCode?: string; consumed?: number }

/**
 * An oidc-provider storage adapter in memory, for the local providers: entries expire with their token, at most
 * `maxEntries` are kept (the least recently written go first), and each set of providers has its own store, which
 * ends with it. (The package's own memory adapter is shared by every provider in the process, and warns.)
 * @example new Provider(issuer, { adapter: createBoundedAdapter({ maxEntries: 10_000 }) })
 */
export function createBoundedAdapter({ maxEntries = 10_000, now = Date.now }: { maxEntries?: number; now?: () => number } = {}) {
  const entries = new Map<string, { payload: Payload; expiresAt: number }>()
  const keyOf = (model: string, id: string) => `${model}:${id}`

  const read = (key: string) => {
    const entry = entries.get(key)
    if (!entry) return undefined
    if (entry.expiresAt <= now()) {
      entries.delete(key)
      return undefined
    }
    return entry.payload
  }

  return class BoundedAdapter {
    constructor(readonly model: string) {}

    async upsert(id: string, payload: Payload, expiresIn: number) {
      const key = keyOf(this.model, id)
      entries.delete(key)
      entries.set(key, { payload, expiresAt: now() + expiresIn * 1_000 })
      while (entries.size > maxEntries) entries.delete(entries.keys().next().value!)
    }

    async find(id: string) {
      return read(keyOf(this.model, id))
    }

    async findByUid(uid: string) {
      for (const [key, entry] of entries) if (key.startsWith(`${this.model}:`) && entry.payload.uid === uid) return read(key)
      return undefined
    }

    async findByUserCode(userCode: string) {
      for (const [key, entry] of entries) if (key.startsWith(`${this.model}:`) && entry.payload.userCode === userCode) return read(key)
      return undefined
    }

    async consume(id: string) {
      const payload = read(keyOf(this.model, id))
      if (payload) payload.consumed = Math.floor(now() / 1_000)
    }

    async destroy(id: string) {
      entries.delete(keyOf(this.model, id))
    }

    async revokeByGrantId(grantId: string) {
      for (const [key, entry] of entries) if (entry.payload.grantId === grantId) entries.delete(key)
    }
  }
}
