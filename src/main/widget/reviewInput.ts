import { ProviderRpcError } from './providerRpcError'

// What the review's readers (readReviewedRequest.ts, readPermissionRequest.ts) share to check a site's request.

export const ADDRESS = /^0x[0-9a-fA-F]{40}$/

/** A malformed request: -32602, its message naming what was wrong. */
export const invalid = (message: string) => new ProviderRpcError(-32602, message)

/** A count as the error messages write it: 100,000. */
export const count = (n: number) => n.toLocaleString('en-US')

/** The JSON length of a request's value (bigints as their digits), or undefined when it is not JSON (a cycle). */
export function jsonLength(value: unknown): number | undefined {
  try {
    return JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? item.toString() : item))?.length ?? 0
  } catch {
    return undefined
  }
}
