import type { Context } from 'hono'
import { isIP } from 'node:net'

type NodeBindings = { incoming?: { socket?: { remoteAddress?: string } } }

/**
 * The visitor's IP address as this service sees it: the connection's peer, or, when that peer is one of
 * `trustedProxies` (the site's load balancers), the last address its X-Forwarded-For names. Undefined when the
 * request came without a socket (tests calling the app directly) or the header is not an address.
 * @example visitorIp(c, ['10.0.0.2']) // '203.0.113.7'
 */
export function visitorIp(c: Context, trustedProxies: readonly string[] = []): string | undefined {
  const peer = normalise((c.env as NodeBindings | undefined)?.incoming?.socket?.remoteAddress)
  if (!peer || !trustedProxies.includes(peer)) return peer
  const forwarded = c.req.header('x-forwarded-for')?.slice(0, 1_024).split(',').at(-1)?.trim()
  return normalise(forwarded) ?? peer
}

/** An IPv4 address Node reports in IPv6 form (::ffff:203.0.113.7) as IPv4; anything not an address as undefined. */
function normalise(address: string | undefined): string | undefined {
  if (!address) return undefined
  const plain = address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address
  return isIP(plain) ? plain : undefined
}
