import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { SandboxPartner } from './config'
import { SIGNATURE_HEADER, verifySandboxSignature, type SandboxOrder, type SandboxOrderEvent } from './protocol'
import { createWebhookSender, type WebhookSender } from './webhooks'

const secret = 'whsec-0123456789abcdef'
const order = (orderId: string, status: SandboxOrder['status']): SandboxOrder => ({
  orderId,
  partnerOrderId: `p-${orderId}`,
  status,
  network: 'eip155:31337',
  asset: 'ETH',
  destination: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  purchaseAmount: '0.1',
})

describe('createWebhookSender', () => {
  const cleanups: (() => Promise<void>)[] = []
  afterEach(async () => {
    await Promise.all(cleanups.splice(0).map((cleanup) => cleanup()))
  })

  /** A partner's webhook on a real server: answers `statuses` in turn (then 200), slowly for the first `slowMs`. */
  const startPartner = async ({ statuses = [] as number[], slowFirstMs = 0 } = {}) => {
    const received: { event: SandboxOrderEvent; isSigned: boolean }[] = []
    let calls = 0
    const server: Server = createServer((request, response) => {
      let body = ''
      request.on('data', (chunk: Buffer) => (body += chunk.toString()))
      request.on('end', () => {
        const call = calls++
        const status = statuses[call] ?? 200
        const answer = () => {
          if (status === 200) received.push({ event: JSON.parse(body) as SandboxOrderEvent, isSigned: verifySandboxSignature({ secret, header: request.headers[SIGNATURE_HEADER] as string, body }) })
          response.writeHead(status).end()
        }
        if (call === 0 && slowFirstMs) setTimeout(answer, slowFirstMs)
        else answer()
      })
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    cleanups.push(() => new Promise((resolve) => server.close(() => resolve())))
    const partner: SandboxPartner = { apiKeyDigest: '', name: 'A', feeBasisPoints: 0n, webhookUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, webhookSecret: secret }
    return { partner, received, calls: () => calls }
  }
  const sender = (overrides: Partial<Parameters<typeof createWebhookSender>[0]> = {}): WebhookSender => {
    const webhooks = createWebhookSender({ fetch, now: Date.now, log: () => {}, maxQueued: 100, attempts: 3, retryBaseMs: 10, timeoutMs: 2_000, ...overrides })
    cleanups.push(webhooks.stop)
    return webhooks
  }

  it('delivers each report signed, those of one order in the order they happened even when the first is slow', async () => {
    const { partner, received } = await startPartner({ slowFirstMs: 100 })
    const webhooks = sender()
    webhooks.report(partner, order('o1', 'pending'))
    webhooks.report(partner, order('o1', 'sent'))
    webhooks.report(partner, order('o1', 'completed'))
    await vi.waitFor(() => expect(received).toHaveLength(3), { timeout: 5_000, interval: 10 })
    expect(received.map(({ event }) => event.order.status)).toEqual(['pending', 'sent', 'completed'])
    expect(received.every(({ isSigned }) => isSigned)).toBe(true)
    expect(new Set(received.map(({ event }) => event.eventId)).size).toBe(3)
    await vi.waitFor(() => expect(webhooks.queued()).toBe(0), { timeout: 5_000, interval: 10 })
  })

  it('tries a failing partner again, the same event, and gives up (saying so) after the last try', async () => {
    const { partner, received, calls } = await startPartner({ statuses: [500, 503] })
    const webhooks = sender()
    webhooks.report(partner, order('o2', 'pending'))
    await vi.waitFor(() => expect(received).toHaveLength(1), { timeout: 5_000, interval: 10 })
    expect(calls()).toBe(3)

    const lines: string[] = []
    const failing = await startPartner({ statuses: [500, 500, 500, 500] })
    const giving = sender({ log: (line) => lines.push(line) })
    giving.report(failing.partner, order('o3', 'pending'))
    await vi.waitFor(() => expect(lines).toEqual(['onramp sandbox: gave up reporting order o3 to A after 3 tries: it answered 500']), { timeout: 5_000, interval: 10 })
    expect(failing.calls()).toBe(3)
    await vi.waitFor(() => expect(giving.queued()).toBe(0), { timeout: 5_000, interval: 10 })
  })

  it('holds at most maxQueued reports, giving up the oldest', async () => {
    const lines: string[] = []
    // A partner that never answers: every report waits.
    const hanging: typeof fetch = (_, init) => new Promise((_, reject) => init?.signal?.addEventListener('abort', () => reject(new Error('aborted'))))
    const webhooks = sender({ fetch: hanging, maxQueued: 2, timeoutMs: 60_000, log: (line) => lines.push(line) })
    const partner: SandboxPartner = { apiKeyDigest: '', name: 'A', feeBasisPoints: 0n, webhookUrl: 'http://127.0.0.1:1/', webhookSecret: secret }
    for (const id of ['a', 'b', 'c', 'd']) webhooks.report(partner, order(id, 'pending'))
    expect(webhooks.queued()).toBe(2)
    expect(lines).toEqual([
      'onramp sandbox: 2 reports wait for delivery (limits.webhookQueue): gave up the oldest, of order a to A',
      'onramp sandbox: 2 reports wait for delivery (limits.webhookQueue): gave up the oldest, of order b to A',
    ])
    await webhooks.stop()
    expect(webhooks.queued()).toBe(0)
    webhooks.report(partner, order('e', 'pending'))
    expect(webhooks.queued()).toBe(0)
  })
})
