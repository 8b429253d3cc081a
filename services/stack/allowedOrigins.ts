import { ALLOWED_ORIGINS_VARIABLE } from '../api/config'

/**
 * The extra origins the local stack's project accepts, from TESSERA_ALLOWED_ORIGINS (comma-separated): a site owner's
 * own app, say `http://localhost:3000`, next to the demo. Each must be a bare http(s) origin; anything else stops the
 * start with a line naming the variable and the entry.
 * @example readAllowedOrigins({ TESSERA_ALLOWED_ORIGINS: 'http://localhost:3000,https://app.test' })
 */
export function readAllowedOrigins(env: Record<string, string | undefined>): string[] {
  const value = env[ALLOWED_ORIGINS_VARIABLE]?.trim()
  if (!value) return []
  return value
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry.length > 0)
    .map((entry) => {
      let url: URL | undefined
      try {
        url = new URL(entry)
      } catch {
        url = undefined
      }
      if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:') || url.origin !== entry.replace(/\/$/, '')) {
        throw new Error(`${ALLOWED_ORIGINS_VARIABLE}: "${entry.slice(0, 100)}" is not an origin: write scheme, host and port only, such as http://localhost:3000`)
      }
      return url.origin
    })
}
