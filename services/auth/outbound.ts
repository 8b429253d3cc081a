/** Largest answer read from a provider, the relay or an RPC: anything longer is refused unread. */
export const MAX_OUTBOUND_BYTES = 256 * 1024

/** Why a call to another service failed, for the operator's log (never shown to a person). */
export class OutboundError extends Error {
  override name = 'OutboundError'
}

/**
 * Calls another service with a timeout and reads its JSON answer, at most `maxBytes` of it.
 * @example const { status, json } = await fetchJson(`${issuer}/.well-known/openid-configuration`, { timeoutMs: 10_000 })
 */
export async function fetchJson(url: string, { timeoutMs, maxBytes = MAX_OUTBOUND_BYTES, ...init }: RequestInit & { timeoutMs: number; maxBytes?: number }): Promise<{ status: number; json: unknown }> {
  let response: Response
  try {
    response = await fetch(url, { ...init, redirect: 'error', signal: AbortSignal.timeout(timeoutMs) })
  } catch (error) {
    throw new OutboundError(`${new URL(url).origin}${new URL(url).pathname} could not be reached: ${(error as Error).message}`)
  }
  const declared = Number(response.headers.get('content-length') ?? 0)
  if (declared > maxBytes) {
    await response.body?.cancel()
    throw new OutboundError(`${new URL(url).pathname} answered ${declared} bytes, more than ${maxBytes}`)
  }
  const reader = response.body?.getReader()
  const chunks: Uint8Array[] = []
  let bytes = 0
  while (reader) {
    const { done, value } = await reader.read()
    if (done) break
    bytes += value.byteLength
    if (bytes > maxBytes) {
      await reader.cancel()
      throw new OutboundError(`${new URL(url).pathname} answered more than ${maxBytes} bytes`)
    }
    chunks.push(value)
  }
  const text = Buffer.concat(chunks).toString('utf8')
  try {
    return { status: response.status, json: text ? (JSON.parse(text) as unknown) : undefined }
  } catch {
    throw new OutboundError(`${new URL(url).pathname} answered ${response.status} with a body that is not JSON`)
  }
}
