import { base64urlnopad } from '@scure/base'

/** What the frame keeps between loads, in its own origin's storage (out of the page's reach): its device id and session. */
export type SessionStore = {
  deviceId(): string
  token(): string | undefined
  setToken(token: string, expiresAt: number): void
  clearToken(): void
}

/**
 * The frame's session token for one project and its device id, in the frame's localStorage; in memory only when the
 * browser gives the frame no storage (then a reload signs out).
 * @example const session = createSessionStore({ storage: localStorage, projectId })
 */
export function createSessionStore({ storage, projectId, now = Date.now }: { storage: Storage | undefined; projectId: string; now?: () => number }): SessionStore {
  const memory = new Map<string, string>()
  const read = (key: string) => {
    try {
      return storage?.getItem(key) ?? memory.get(key) ?? undefined
    } catch {
      return memory.get(key)
    }
  }
  const write = (key: string, value: string | undefined) => {
    if (value === undefined) memory.delete(key)
    else memory.set(key, value)
    try {
      if (value === undefined) storage?.removeItem(key)
      else storage?.setItem(key, value)
    } catch {
      // No storage for this frame: the memory copy serves until the frame reloads.
    }
  }
  const deviceKey = 'tessera-frame:device'
  const sessionKey = `tessera-frame:session:${projectId}`
  return {
    deviceId() {
      const stored = read(deviceKey)
      if (stored && /^[A-Za-z0-9_-]{22,128}$/.test(stored)) return stored
      const id = base64urlnopad.encode(crypto.getRandomValues(new Uint8Array(32)))
      write(deviceKey, id)
      return id
    },
    token() {
      const stored = read(sessionKey)
      if (!stored) return undefined
      try {
        const { token, expiresAt } = JSON.parse(stored) as { token?: unknown; expiresAt?: unknown }
        if (typeof token === 'string' && typeof expiresAt === 'number' && expiresAt > now()) return token
      } catch {
        // An entry that is not ours is dropped below.
      }
      write(sessionKey, undefined)
      return undefined
    },
    setToken: (token, expiresAt) => write(sessionKey, JSON.stringify({ token, expiresAt })),
    clearToken: () => write(sessionKey, undefined),
  }
}
