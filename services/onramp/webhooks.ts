import { randomUUID } from 'node:crypto'
import type { SandboxPartner } from './config'
import { SIGNATURE_HEADER, signSandboxEvent, type SandboxOrder, type SandboxOrderEvent } from './protocol'

export type CreateWebhookSenderParameters = {
  fetch: typeof globalThis.fetch
  /** Milliseconds since the epoch. */
  now: () => number
  log: (line: string) => void
  /** Reports waiting for delivery or a retry; past it the oldest is given up. */
  maxQueued: number
  /** Tries per report, the first included. */
  attempts: number
  /** The wait before the second try; each next wait is 4 times longer. */
  retryBaseMs: number
  /** How long one try may take. */
  timeoutMs: number
}

export type WebhookSender = {
  /** Queues a report of the order as it is now; never throws, never waits for the partner. Nothing once stopped. */
  report: (partner: SandboxPartner, order: SandboxOrder) => void
  /** Reports waiting for delivery or a retry. */
  queued: () => number
  /** Gives up every report and resolves once no try is in flight. */
  stop: () => Promise<void>
}

type Entry = { partner: SandboxPartner; orderId: string; body: string; abort: AbortController }

/**
 * Delivers each change of an order to its partner's webhookUrl as a signed SandboxOrderEvent (signed again at each
 * try, so a late retry is not refused as stale). A partner that fails (no answer within the timeout, or not 2xx) is
 * tried again after a growing wait. The reports of one order go one after another, in the order they happened, so a
 * partner never hears 'completed' before 'sent'; those of different orders go side by side.
 * @example const webhooks = createWebhookSender({ fetch, now: Date.now, log, maxQueued: 10_000, attempts: 5, retryBaseMs: 1_000, timeoutMs: 5_000 })
 */
export function createWebhookSender({ fetch, now, log, maxQueued, attempts, retryBaseMs, timeoutMs }: CreateWebhookSenderParameters): WebhookSender {
  // In the order they were queued: the first is the one given up when full.
  const queue = new Set<Entry>()
  const lastOfOrder = new Map<string, Promise<void>>()
  let isStopped = false

  const post = async (entry: Entry) => {
    const signal = AbortSignal.any([entry.abort.signal, AbortSignal.timeout(timeoutMs)])
    const response = await fetch(entry.partner.webhookUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', [SIGNATURE_HEADER]: signSandboxEvent(entry.partner.webhookSecret, entry.body, Math.floor(now() / 1_000)) },
      body: entry.body,
      signal,
      redirect: 'error',
    })
    await response.body?.cancel()
    if (!response.ok) throw new Error(`it answered ${response.status}`)
  }

  const deliver = async (entry: Entry) => {
    for (let attempt = 1; attempt <= attempts && !entry.abort.signal.aborted; attempt++) {
      try {
        await post(entry)
        return
      } catch (error) {
        if (entry.abort.signal.aborted) return
        const reason = error instanceof Error ? error.message : String(error)
        if (attempt === attempts) {
          log(`onramp sandbox: gave up reporting order ${entry.orderId} to ${entry.partner.name} after ${attempts} tries: ${reason}`)
          return
        }
        const waitMs = retryBaseMs * 4 ** (attempt - 1)
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, waitMs)
          entry.abort.signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true })
        })
      }
    }
  }

  return {
    report: (partner, order) => {
      if (isStopped) return
      const event: SandboxOrderEvent = { eventId: `evt_${randomUUID()}`, createdAt: now(), order }
      if (queue.size >= maxQueued) {
        const oldest = queue.values().next().value!
        queue.delete(oldest)
        oldest.abort.abort()
        log(`onramp sandbox: ${maxQueued} reports wait for delivery (limits.webhookQueue): gave up the oldest, of order ${oldest.orderId} to ${oldest.partner.name}`)
      }
      const entry: Entry = { partner, orderId: order.orderId, body: JSON.stringify(event), abort: new AbortController() }
      queue.add(entry)
      const previous = lastOfOrder.get(order.orderId) ?? Promise.resolve()
      const delivered: Promise<void> = previous
        .then(() => deliver(entry))
        .finally(() => {
          queue.delete(entry)
          if (lastOfOrder.get(order.orderId) === delivered) lastOfOrder.delete(order.orderId)
        })
      lastOfOrder.set(order.orderId, delivered)
    },
    queued: () => queue.size,
    stop: async () => {
      isStopped = true
      const inFlight = [...lastOfOrder.values()]
      for (const entry of queue) entry.abort.abort()
      queue.clear()
      await Promise.allSettled(inFlight)
    },
  }
}
