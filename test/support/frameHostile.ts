import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Frame, Page } from '@playwright/test'
import { appEvents, appRequestSchema, parseAppRequest, replyType, type AppEvent, type AppRequest } from '../../src/shared/protocol/schemas/frameMessages'

/**
 * Hostile messages for the secure frame and the widget's page listener, shared by `test/e2e/frameHostile.spec.ts`
 * (a few thousand) and `scripts/bench/frame.ts` (100,000). What each sender is, and what counts as accepted:
 * - to the frame (SPEC §7: it reads only window.parent at the page's exact origin):
 *   - `parentMalformed`: the host page, right target origin, messages that are never a valid request. The frame may
 *     answer one only when its envelope `{ id, type: 'APP_…' }` is valid, and then only with FRAME_…_ERROR
 *     INVALID_MESSAGE; any other reply is accepted;
 *   - `parentWrongTarget`: the host page posting valid requests with a wrong target origin (the browser must drop them);
 *   - `foreignFrame`, `sameOriginSibling`, `foreignPopup`: valid requests from a window that is not the frame's parent
 *     (an iframe of another origin, an iframe of the page's own origin, a popup of another origin);
 *   any reply to these is accepted;
 * - to the page (the widget reads only the frame's window at the frame's origin): spoofed FRAME_OPEN / FRAME_CLOSE /
 *   FRAME_READY events and replies carrying the ids of the requests really waiting, from an iframe of another origin,
 *   the page itself, an iframe of the frame's own origin (right origin, wrong window) and a popup.
 */

/** A deterministic PRNG (mulberry32): the same seed gives the same messages, so a failure can be replayed. */
export function createRandom(seed: number) {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296
  }
  const int = (max: number) => Math.floor(next() * max)
  const pick = <T,>(items: readonly T[]): T => items[int(items.length)]!
  return { next, int, pick }
}

type Random = ReturnType<typeof createRandom>

/** An exotic value the page builds itself (cycles, binary, class instances): `{ '#exotic': kind }` stands for it. */
export const exoticKinds = ['cycle', 'arrayBuffer', 'uint8Array', 'blob', 'date', 'regexp', 'map', 'set', 'error', 'deep', 'wide', 'protoPollution', 'hugeString'] as const

const invalidPayloads = [null, 'x', 42, true, [], [{}], Number.NaN, -0, '{}'] as const
const wrongTypes = ['', 'APP_', 'app_is_connected', 'APP_IS_CONNECTED ', 'FRAME_IS_CONNECTED_SUCCESS', 'FRAME_READY', '__proto__', 'constructor', 'toString', 'APP_RPC', 'APP_CONNECT_EMAIL\u0000'] as const

/** Type-specific payloads that break the request's schema (SPEC §5), besides the non-objects every schema refuses. */
const brokenPayloads: Partial<Record<AppEvent, unknown[]>> = {
  APP_CONNECT_EMAIL: [{ email: 'not an e-mail' }, { email: '' }, { email: 42 }, {}],
  APP_CONNECT_OTP: [{ otp: '12345' }, { otp: '1234567' }, { otp: 123456 }, { otp: 'abcdef' }],
  APP_CONNECT_SOCIAL: [{ uri: 'not a url' }, { uri: 'http://x.test', chainId: '' }, {}],
  APP_GET_SOCIAL_REDIRECT_URI: [{ provider: 'myspace' }, {}],
  APP_GET_USER: [{ chainId: '' }, { chainId: {} }, { preferredAccountType: 'root' }],
  APP_SWITCH_NETWORK: [{}, { chainId: '' }, { chainId: [] }],
  APP_RPC_REQUEST: [{}, { method: '' }, { method: 42 }, { method: ['eth_accounts'] }, undefined],
  APP_UPDATE_EMAIL: [{ email: 'x' }],
  APP_UPDATE_EMAIL_PRIMARY_OTP: [{ otp: '1' }],
  APP_UPDATE_EMAIL_SECONDARY_OTP: [{ otp: null }],
  APP_SYNC_THEME: [{ themeMode: 'neon' }, { themeVariables: { '--x': {} } }],
  APP_SYNC_DAPP_DATA: [{}, { projectId: '', sdkVersion: '1', sdkType: 'x' }, { projectId: 'p', sdkVersion: 1, sdkType: 'x' }],
  APP_SET_PREFERRED_ACCOUNT: [{ type: 'root' }, {}],
}

const fuzzId = (random: Random, n: number): unknown => (random.next() < 0.3 ? `fuzz-${n}` : badId(random, n))
const badId = (random: Random, n: number): unknown => random.pick<unknown>(['', 'x'.repeat(129), n, null, { id: n }, [`fuzz-${n}`], undefined])

/**
 * `count` messages from the host page to the frame that are never a valid request (each is checked here with the
 * frame's own parser). `refusedIds` are those whose envelope is valid: the frame answers them FRAME_…_ERROR
 * INVALID_MESSAGE, and nothing else.
 */
export function fuzzFrameMessages(count: number, seed = 1): { messages: unknown[]; refusedIds: Set<string> } {
  const random = createRandom(seed)
  const messages: unknown[] = []
  const refusedIds = new Set<string>()
  for (let n = 0; n < count; n++) {
    let message: unknown
    switch (random.int(6)) {
      case 0:
        message = random.pick<unknown>([null, undefined, 0, -1, Number.NaN, Number.POSITIVE_INFINITY, 1e308, true, false, '', 'APP_IS_CONNECTED', JSON.stringify({ id: `fuzz-${n}`, type: 'APP_IS_CONNECTED' }), 'x'.repeat(random.int(4_096))])
        break
      case 1:
        message = random.pick<unknown>([[], [{ id: `fuzz-${n}`, type: 'APP_IS_CONNECTED' }], [[[[[]]]]], Array.from({ length: 64 }, () => 'APP_GET_USER')])
        break
      case 2:
        // A broken envelope: a wrong id or type, or one missing.
        message = random.pick<unknown>([
          { id: fuzzId(random, n), type: random.pick(wrongTypes) },
          { type: random.pick(appEvents) },
          { id: `fuzz-${n}` },
          { id: badId(random, n), type: random.pick(appEvents), payload: {} },
          { ID: `fuzz-${n}`, TYPE: 'APP_IS_CONNECTED' },
        ])
        break
      case 3:
      case 4: {
        // A valid envelope, a payload its schema refuses.
        const type = random.pick(appEvents)
        const broken = brokenPayloads[type] ?? []
        const payload = random.next() < 0.5 && broken.length > 0 ? random.pick(broken) : random.pick(invalidPayloads)
        message = { id: `fuzz-${n}`, type, payload, extra: random.pick([undefined, 'x', { nested: { deeper: [1, 2, 3] } }]) }
        break
      }
      default:
        message = { '#exotic': random.pick(exoticKinds), id: `fuzz-${n}` }
    }
    if (appRequestSchema.safeParse(message).success) {
      let isValid = true
      try {
        parseAppRequest(message)
      } catch {
        isValid = false
      }
      // A valid request would be a legitimate one from the page; the generator must never make one.
      if (isValid) throw new Error(`fuzzFrameMessages made a valid request: ${JSON.stringify(message)}`)
      refusedIds.add((message as { id: string }).id)
    }
    messages.push(message)
  }
  return { messages, refusedIds }
}

/**
 * `count` valid requests (checked by the frame's parser) with ids `${prefix}-n`: harmless reads, and the ones that
 * would change the frame's state if they were obeyed (sign-out, theme, dapp data, network switch, reload, e-mail login).
 * `themeMode` is the theme the frame does NOT have, so an obeyed APP_SYNC_THEME shows.
 */
export function validRequests(count: number, prefix: string, themeMode: 'light' | 'dark'): AppRequest[] {
  const templates: Omit<AppRequest, 'id'>[] = [
    { type: 'APP_IS_CONNECTED', payload: {} },
    { type: 'APP_GET_USER', payload: {} },
    { type: 'APP_GET_CHAIN_ID' },
    { type: 'APP_SYNC_THEME', payload: { themeMode } },
    { type: 'APP_RPC_REQUEST', payload: { method: 'eth_accounts', chainNamespace: 'eip155' } },
    { type: 'APP_RPC_REQUEST', payload: { method: 'eth_chainId', chainNamespace: 'eip155' } },
    { type: 'APP_SIGN_OUT' },
    { type: 'APP_SWITCH_NETWORK', payload: { chainId: 31338 } },
    { type: 'APP_GET_SMART_ACCOUNT_ENABLED_NETWORKS' },
    { type: 'APP_SYNC_DAPP_DATA', payload: { projectId: 'hostile', sdkVersion: '0', sdkType: 'hostile', metadata: { name: 'Hostile' } } },
    { type: 'APP_CONNECT_EMAIL', payload: { email: 'hostile@tessera.test' } },
    { type: 'APP_RELOAD' },
  ]
  return Array.from({ length: count }, (_, n) => parseAppRequest({ id: `${prefix}-${n}`, ...templates[n % templates.length]! }))
}

const spoofUser = { address: '0x000000000000000000000000000000000000dEaD', chainId: 31337, email: 'hostile@tessera.test' }

/** Replies of every type to each of `ids`, success and error, with payloads that pass the reply schemas. */
export function spoofedReplies(ids: readonly string[]): unknown[] {
  const payloadFor = (type: AppEvent): unknown => {
    if (type === 'APP_IS_CONNECTED') return { isConnected: true }
    if (type === 'APP_CONNECT_EMAIL') return { action: 'CONNECT' }
    if (type === 'APP_GET_USER' || type === 'APP_CONNECT_SOCIAL' || type === 'APP_CONNECT_FARCASTER') return spoofUser
    if (type === 'APP_GET_CHAIN_ID' || type === 'APP_SWITCH_NETWORK') return { chainId: 31338 }
    if (type === 'APP_RPC_REQUEST') return '0xdead'
    return {}
  }
  return ids.flatMap((id) => appEvents.flatMap((type) => [{ id, type: replyType(type, 'SUCCESS'), payload: payloadFor(type) }, { id, type: replyType(type, 'ERROR'), payload: { message: 'spoofed', code: 'USER_REJECTED' } }]))
}

/** `count` messages for the page's listener: frame events, replies to `realIds` (the requests waiting) and to made-up ids, and fuzz. */
export function spoofedPageMessages(count: number, realIds: readonly string[], seed = 2): unknown[] {
  const random = createRandom(seed)
  const replies = spoofedReplies(realIds)
  const fuzz = fuzzFrameMessages(Math.max(1, Math.ceil(count / 4)), seed).messages
  const events: unknown[] = [
    { type: 'FRAME_OPEN', payload: { reason: 'approval', minHeight: 600 } },
    { type: 'FRAME_OPEN', payload: { reason: 'recoverPassword', minHeight: 4_000 } },
    { type: 'FRAME_CLOSE', payload: {} },
    { type: 'FRAME_READY', payload: { version: 'hostile' } },
  ]
  return Array.from({ length: count }, (_, n) => {
    const roll = random.int(4)
    if (roll === 0) return random.pick(events)
    if (roll === 1 && replies.length > 0) return replies[n % replies.length]
    if (roll === 2) return { id: `spoof-${n}`, type: replyType(random.pick(appEvents), random.pick(['SUCCESS', 'ERROR'] as const)), payload: {} }
    return fuzz[n % fuzz.length]
  })
}

/** A page on an origin of its own (another port): the foreign iframe and popup load it. */
export async function startForeignOrigin(): Promise<{ url: string; stop: () => Promise<void> }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    res.end('<!doctype html><html><head><title>Foreign</title></head><body>foreign</body></html>')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  // Pages may still hold a connection to it: close() alone would wait for them.
  const stop = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve())
      server.closeAllConnections()
    })
  return { url: `http://127.0.0.1:${port}`, stop }
}

/** What the page and its frames record: installed before anything else runs (page.addInitScript(recordMessages, frameOrigin)). */
export type HostileRecord = {
  /** Messages that came to the page from the secure frame's window at its origin: replies and events (a probe's with its payload). */
  fromFrame: { id?: unknown; type?: unknown; code?: unknown; payload?: unknown }[]
  /** With `recordAll`: every message the top page got, as JSON (binary values shown as `{ '#binary': …, byteLength }`). */
  all: { origin: string; json: string }[]
  /** The secure frame only: the requests it got from its parent (id and type), the newest last. */
  requestsSeen: { id: string; type: string }[]
  /** Uncaught errors and rejections of this window. */
  errors: string[]
  /** Markers received (a sender's last message), by sender. */
  markers: Record<string, number>
}

/** The init script (context.addInitScript(recordMessages, { frameOrigin })): in every window, a message listener installed before the widget's or the frame's own. */
export function recordMessages({ frameOrigin, recordAll = false }: { frameOrigin: string; recordAll?: boolean }) {
  const record: HostileRecord = { fromFrame: [], all: [], requestsSeen: [], errors: [], markers: {} }
  Object.assign(window, { __tesseraHostile: record })
  addEventListener('error', (event) => record.errors.push(`error: ${String(event.message)}`))
  addEventListener('unhandledrejection', (event) => record.errors.push(`unhandled rejection: ${String((event.reason as Error)?.message ?? event.reason)}`))
  const isFrame = location.origin === frameOrigin
  addEventListener('message', (event) => {
    if (recordAll && window === top) {
      const json = JSON.stringify(event.data, (_key, value: unknown) => {
        if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) return { '#binary': Object.prototype.toString.call(value), byteLength: value.byteLength }
        if (value instanceof Blob) return { '#binary': 'Blob', byteLength: value.size }
        if (value instanceof Map || value instanceof Set) return { '#collection': Object.prototype.toString.call(value), entries: [...value] }
        return value
      })
      record.all.push({ origin: event.origin, json: json ?? String(event.data) })
    }
    const data = event.data as { id?: unknown; type?: unknown; payload?: { code?: unknown } } | null
    if (data && typeof data === 'object' && '#marker' in data) {
      const name = String((data as Record<string, unknown>)['#marker'])
      record.markers[name] = (record.markers[name] ?? 0) + 1
      return
    }
    if (isFrame) {
      if (event.source === parent && data && typeof data === 'object' && typeof data.id === 'string' && typeof data.type === 'string') {
        record.requestsSeen.push({ id: data.id, type: data.type })
        if (record.requestsSeen.length > 2_000) record.requestsSeen.splice(0, 1_000)
      }
      return
    }
    const iframe = document.querySelector<HTMLIFrameElement>('iframe[data-tessera-frame]')
    if (window === top && event.origin === frameOrigin && iframe && event.source === iframe.contentWindow) {
      const payload = data && typeof data === 'object' ? data.payload : undefined
      if (!data || typeof data !== 'object') record.fromFrame.push({ type: typeof data })
      else if (typeof data.id === 'string' && data.id.startsWith('probe-')) record.fromFrame.push({ id: data.id, type: data.type, payload })
      else record.fromFrame.push({ id: data.id, type: data.type, code: payload && typeof payload === 'object' ? payload.code : undefined })
    }
  })
}

/**
 * Posts `messages` from `sender` (a frame's window) with `post`, in batches of `batchSize`, then a marker, and
 * resolves to the milliseconds spent posting. Exotic placeholders are built in the sender's window.
 */
async function postFrom(sender: Frame | Page, target: string, targetOrigin: string, messages: unknown[], batchSize = 5_000): Promise<number> {
  let postMs = 0
  for (let start = 0; start < messages.length; start += batchSize) {
    postMs += await sender.evaluate(
      ({ target, targetOrigin, batch }) => {
        // target: how the sender reaches its addressee (a window expression, evaluated here).
        const to = new Function(`return ${target}`)() as Window
        const build = (kind: string): unknown => {
          switch (kind) {
            case 'cycle': {
              const a: Record<string, unknown> = { id: 'fuzz-cycle', type: 'APP_NOT_A_TYPE' }
              a.self = a
              return a
            }
            case 'arrayBuffer':
              return new ArrayBuffer(64)
            case 'uint8Array':
              return new Uint8Array(32)
            case 'blob':
              return new Blob(['APP_IS_CONNECTED'])
            case 'date':
              return new Date(0)
            case 'regexp':
              return /APP_/g
            case 'map':
              return new Map([['id', 'fuzz'], ['type', 'APP_IS_CONNECTED']])
            case 'set':
              return new Set(['APP_IS_CONNECTED'])
            case 'error':
              return new TypeError('APP_IS_CONNECTED')
            case 'deep': {
              let deep: unknown = { id: 'fuzz-deep', type: 'APP_IS_CONNECTED', payload: null }
              for (let i = 0; i < 500; i++) deep = { payload: deep }
              return deep
            }
            case 'wide':
              return Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`k${i}`, i]))
            case 'protoPollution':
              return JSON.parse('{"__proto__":{"isConnected":true,"id":"fuzz-proto","type":"APP_IS_CONNECTED"},"constructor":{"prototype":{"polluted":true}}}') as unknown
            default:
              return 'x'.repeat(1 << 20)
          }
        }
        const started = performance.now()
        for (const message of batch) {
          const exotic = message && typeof message === 'object' && '#exotic' in message ? build(String((message as Record<string, unknown>)['#exotic'])) : message
          try {
            to.postMessage(exotic, targetOrigin)
          } catch {
            // A value the browser cannot clone never leaves the sender: nothing to count.
          }
        }
        return performance.now() - started
      },
      { target, targetOrigin, batch: messages.slice(start, start + batchSize) },
    )
  }
  return postMs
}

export type Sender = {
  name: string
  /** Where the messages are posted from. */
  from: Frame | Page
  /** How `from` reaches the addressee, as an expression evaluated there (e.g. `parent.frames[1]`). */
  target: string
  targetOrigin: string
  messages: unknown[]
}

/** Posts each sender's messages (then a marker the addressee's recorder counts) and returns the time each took. */
export async function flood(senders: readonly Sender[]): Promise<Record<string, { messages: number; postMs: number }>> {
  const results: Record<string, { messages: number; postMs: number }> = {}
  for (const sender of senders) {
    const postMs = await postFrom(sender.from, sender.target, sender.targetOrigin, sender.messages)
    // The marker goes with '*' only when the messages did (a wrong target origin would drop it too).
    await postFrom(sender.from, sender.target, sender.targetOrigin, [{ '#marker': sender.name }])
    results[sender.name] = { messages: sender.messages.length, postMs: Math.round(postMs) }
  }
  return results
}

/** The secure frame's Playwright frame (its iframe must be attached). */
export function secureFrameOf(page: Page, frameOrigin: string): Frame {
  const frame = page.frames().find((candidate) => candidate.url().startsWith(`${frameOrigin}/?`))
  if (!frame) throw new Error(`no secure frame from ${frameOrigin} on the page`)
  return frame
}

/** Reads one window's record. */
export const readRecord = (from: Frame | Page) => from.evaluate(() => (window as unknown as { __tesseraHostile: HostileRecord }).__tesseraHostile)

/**
 * Adds the hostile windows to the page: an iframe of another origin, an iframe of the page's own origin, an iframe of
 * the secure frame's origin (not the frame), and a popup of another origin. Resolves to them and to the expression
 * each uses to reach the secure frame (`frames[i]` of the page).
 */
export async function openHostileWindows(page: Page, { foreignUrl, frameOrigin }: { foreignUrl: string; frameOrigin: string }) {
  const frameIndex = await page.evaluate(
    ({ foreignUrl, frameOrigin }) => {
      const add = (name: string, src: string | undefined) => {
        const iframe = document.createElement('iframe')
        iframe.name = name
        if (src) iframe.src = src
        else iframe.srcdoc = '<!doctype html><title>sibling</title>'
        iframe.style.cssText = 'position:fixed;width:1px;height:1px;left:-10px;top:-10px'
        document.body.append(iframe)
        return new Promise((resolve) => iframe.addEventListener('load', resolve, { once: true }))
      }
      const secure = document.querySelector<HTMLIFrameElement>('iframe[data-tessera-frame]')!
      return Promise.all([add('hostile-foreign', `${foreignUrl}/frame`), add('hostile-sibling', undefined), add('hostile-frame-origin', `${frameOrigin}/frame-config.json`)]).then(() =>
        Array.from({ length: window.frames.length }, (_, i) => window.frames[i]).indexOf(secure.contentWindow!),
      )
    },
    { foreignUrl, frameOrigin },
  )
  const popupOpened = page.waitForEvent('popup')
  await page.evaluate((url) => void window.open(url, 'hostile-popup'), `${foreignUrl}/popup`)
  const popup = await popupOpened
  await popup.waitForLoadState()
  const frame = (name: string) => {
    const found = page.frame({ name })
    if (!found) throw new Error(`no frame named ${name}`)
    return found
  }
  return { frameIndex, foreign: frame('hostile-foreign'), sibling: frame('hostile-sibling'), frameOriginSibling: frame('hostile-frame-origin'), popup }
}

/** Waits until `from`'s recorder counted each marker; resolves to the markers still missing then (a window that reloaded loses its record). */
export async function waitForMarkers(from: Frame | Page, names: readonly string[], timeoutMs = 60_000): Promise<string[]> {
  const started = Date.now()
  for (;;) {
    const { markers } = await readRecord(from).catch(() => ({ markers: {} as Record<string, number> }))
    const missing = names.filter((name) => !markers[name])
    if (missing.length === 0 || Date.now() - started > timeoutMs) return missing
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** Posts a valid request from the host page (the frame's parent, at its origin) and resolves to the frame's reply. */
export async function probeFrame(page: Page, frameOrigin: string, request: Omit<AppRequest, 'id'>, timeoutMs = 10_000) {
  const id = `probe-${Date.now()}-${Math.random().toString(36).slice(2)}`
  const started = Date.now()
  await page.evaluate(
    ({ message, frameOrigin }) => document.querySelector<HTMLIFrameElement>('iframe[data-tessera-frame]')!.contentWindow!.postMessage(message, frameOrigin),
    { message: { id, ...request }, frameOrigin },
  )
  for (;;) {
    const reply = (await readRecord(page)).fromFrame.find((entry) => entry.id === id)
    if (reply) return { ...reply, ms: Date.now() - started }
    if (Date.now() - started > timeoutMs) return undefined
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

/** Counts what the frame answered to the hostile messages (see the file's comment for what is accepted). */
export function countFrameReplies(fromFrame: HostileRecord['fromFrame'], { refusedIds, hostileIds }: { refusedIds: ReadonlySet<string>; hostileIds: ReadonlySet<string> }) {
  let refused = 0
  const accepted: unknown[] = []
  for (const reply of fromFrame) {
    const id = typeof reply.id === 'string' ? reply.id : undefined
    if (id && hostileIds.has(id)) accepted.push(reply)
    else if (id?.startsWith('fuzz-')) {
      if (refusedIds.has(id) && String(reply.type).endsWith('_ERROR') && reply.code === 'INVALID_MESSAGE') refused += 1
      else accepted.push(reply)
    } else if (reply.type === 'FRAME_OPEN') accepted.push(reply)
  }
  return { refused, accepted }
}

export type FrameFloodReport = {
  senders: Record<string, { messages: number; postMs: number }>
  messages: number
  /** Replies that obeyed a hostile message (goal 0), and the first few of them. */
  accepted: number
  acceptedSample: unknown[]
  /** INVALID_MESSAGE error replies to the host page's well-enveloped but broken requests: exactly `expectedRefused`. */
  refused: number
  expectedRefused: number
  /** From the first message posted to the frame having handled the last of them (its markers); a marker missing means the frame lost its state (it reloaded). */
  drainMs: number
  markersMissing: string[]
  messagesPerSecond: number
  /** A valid APP_IS_CONNECTED from the host page afterwards: answered, still logged out. */
  probe: { answered: boolean; isConnected: unknown; ms: number | undefined }
  themeBefore: string | undefined
  themeAfter: string | undefined
  /** Uncaught errors in the page, the frame and the hostile windows. */
  errors: string[]
}

/**
 * Sends `total` hostile messages to the secure frame of `page` (already showing the Connect view, frame loaded):
 * 40 % malformed from the host page, 15 % valid requests from the host page with wrong target origins, 15 % each valid
 * requests from an iframe of another origin, an iframe of the page's origin and a popup of another origin.
 */
export async function runFrameFlood(page: Page, { frameOrigin, foreignUrl, total, seed = 1 }: { frameOrigin: string; foreignUrl: string; total: number; seed?: number }): Promise<FrameFloodReport> {
  const frame = secureFrameOf(page, frameOrigin)
  const windows = await openHostileWindows(page, { foreignUrl, frameOrigin })
  const themeBefore = await frame.evaluate(() => document.documentElement.dataset.theme)
  const otherTheme = themeBefore === 'light' ? 'dark' : 'light'
  const share = Math.floor(total * 0.15)
  const fuzz = fuzzFrameMessages(total - 4 * share, seed)
  const wrongTargets = [new URL(page.url()).origin, foreignUrl, 'http://127.0.0.1:1', frameOrigin.replace(/:(\d+)$/, (_, port: string) => `:${Number(port) + 1}`)]
  const wrongTargetMessages = validRequests(share, 'wrongtarget', otherTheme)
  const reach = `frames[${windows.frameIndex}]`
  const senders: Sender[] = [
    { name: 'parentMalformed', from: page, target: `window.${reach}`, targetOrigin: frameOrigin, messages: fuzz.messages },
    ...wrongTargets.map((targetOrigin, i) => ({ name: `parentWrongTarget${i}`, from: page, target: `window.${reach}`, targetOrigin, messages: wrongTargetMessages.filter((_, n) => n % wrongTargets.length === i) })),
    { name: 'foreignFrame', from: windows.foreign, target: `parent.${reach}`, targetOrigin: frameOrigin, messages: validRequests(share, 'foreign', otherTheme) },
    { name: 'sameOriginSibling', from: windows.sibling, target: `parent.${reach}`, targetOrigin: frameOrigin, messages: validRequests(share, 'sibling', otherTheme) },
    { name: 'foreignPopup', from: windows.popup, target: `opener.${reach}`, targetOrigin: '*', messages: validRequests(share, 'popup', otherTheme) },
  ]
  const started = Date.now()
  const posted = await flood(senders)
  const markersMissing = await waitForMarkers(frame, senders.filter((sender) => !sender.name.startsWith('parentWrongTarget')).map((sender) => sender.name), Math.max(30_000, total / 2))
  const drainMs = Date.now() - started
  const probe = await probeFrame(page, frameOrigin, { type: 'APP_IS_CONNECTED' })
  // Replies to requests still running (a sign-out, an e-mail login) would come after the probe's: a short grace.
  await new Promise((resolve) => setTimeout(resolve, 1_000))
  const pageRecord = await readRecord(page)
  const hostileIds = new Set(senders.filter((sender) => sender.name !== 'parentMalformed').flatMap((sender) => sender.messages.map((message) => (message as AppRequest).id)))
  const { refused, accepted } = countFrameReplies(pageRecord.fromFrame, { refusedIds: fuzz.refusedIds, hostileIds })
  const errors = [
    ...pageRecord.errors.map((error) => `page: ${error}`),
    ...(await readRecord(frame).catch(() => ({ errors: ['its record is gone: the frame reloaded'] }))).errors.map((error) => `frame: ${error}`),
    ...(await Promise.all([windows.foreign, windows.sibling, windows.popup].map((from) => readRecord(from).then((record) => record.errors)))).flat().map((error) => `hostile window: ${error}`),
  ]
  const themeAfter = await frame.evaluate(() => document.documentElement.dataset.theme).catch(() => 'unknown: the frame reloaded')
  await windows.popup.close()
  return {
    markersMissing,
    senders: posted,
    messages: senders.reduce((sum, sender) => sum + sender.messages.length, 0),
    accepted: accepted.length,
    acceptedSample: accepted.slice(0, 5),
    refused,
    expectedRefused: fuzz.refusedIds.size,
    drainMs,
    messagesPerSecond: Math.round((total / drainMs) * 1_000),
    probe: { answered: probe !== undefined, isConnected: (probe?.payload as { isConnected?: unknown } | undefined)?.isConnected, ms: probe?.ms },
    themeBefore,
    themeAfter,
    errors,
  }
}

export type PageFloodReport = {
  senders: Record<string, { messages: number; postMs: number }>
  messages: number
  /** Ids of the requests really waiting when the flood started, whose replies were spoofed. */
  realIds: number
  drainMs: number
  messagesPerSecond: number
  markersMissing: string[]
  /** The frame's iframe stayed hidden, and was never shown meanwhile (no spoofed FRAME_OPEN obeyed). */
  isFrameHidden: boolean
  timesFrameShown: number
  statusBefore: string
  statusAfter: string
  errors: string[]
}

/**
 * Sends `total` spoofed messages to the widget's page listener while a request really waits for the frame (call it
 * with the device approval view showing: APP_CONNECT_DEVICE is pending): a quarter each from an iframe of another
 * origin, the page itself, an iframe of the frame's own origin (not the frame) and a popup of another origin.
 */
export async function runPageFlood(page: Page, { frameOrigin, foreignUrl, total, seed = 2 }: { frameOrigin: string; foreignUrl: string; total: number; seed?: number }): Promise<PageFloodReport> {
  const frame = secureFrameOf(page, frameOrigin)
  const windows = await openHostileWindows(page, { foreignUrl, frameOrigin })
  const statusBefore = await page.evaluate(() => (window as unknown as { widget: { getState: () => { status: string } } }).widget.getState().status)
  // Every time the frame's iframe is shown (a FRAME_OPEN obeyed), even if a later FRAME_CLOSE hides it again.
  await page.evaluate(() => {
    const iframe = document.querySelector<HTMLIFrameElement>('iframe[data-tessera-frame]')!
    const shown = { count: 0 }
    Object.assign(window, { __tesseraFrameShown: shown })
    new MutationObserver(() => {
      if (iframe.style.visibility === 'visible') shown.count += 1
    }).observe(iframe, { attributes: true, attributeFilter: ['style'] })
  })
  const share = Math.floor(total / 4)
  const senders: Sender[] = []
  const realIds = new Set<string>()
  const started = Date.now()
  const posted: Record<string, { messages: number; postMs: number }> = {}
  const sources: [string, Frame | Page, string][] = [
    ['foreignFrame', windows.foreign, 'parent'],
    ['pageItself', page, 'window'],
    ['frameOriginSibling', windows.frameOriginSibling, 'parent'],
    ['foreignPopup', windows.popup, 'opener'],
  ]
  for (const [name, from, target] of sources) {
    // The ids of the requests waiting now (a long poll is asked again when it ends): read before each sender.
    const ids = (await readRecord(frame)).requestsSeen.slice(-20).map((request) => request.id)
    for (const id of ids) realIds.add(id)
    const sender: Sender = { name, from, target, targetOrigin: '*', messages: spoofedPageMessages(share, ids, seed + senders.length) }
    senders.push(sender)
    Object.assign(posted, await flood([sender]))
  }
  const markersMissing = await waitForMarkers(page, senders.map((sender) => sender.name), Math.max(30_000, total / 2))
  const drainMs = Date.now() - started
  await new Promise((resolve) => setTimeout(resolve, 500))
  const isFrameHidden = await page.evaluate(() => getComputedStyle(document.querySelector('iframe[data-tessera-frame]')!).visibility === 'hidden')
  const timesFrameShown = await page.evaluate(() => (window as unknown as { __tesseraFrameShown: { count: number } }).__tesseraFrameShown.count)
  const statusAfter = await page.evaluate(() => (window as unknown as { widget: { getState: () => { status: string } } }).widget.getState().status)
  const errors = [
    ...(await readRecord(page)).errors.map((error) => `page: ${error}`),
    ...(await readRecord(frame)).errors.map((error) => `frame: ${error}`),
    ...(await Promise.all([windows.foreign, windows.frameOriginSibling, windows.popup].map((from) => readRecord(from).then((record) => record.errors)))).flat().map((error) => `hostile window: ${error}`),
  ]
  await windows.popup.close()
  return { senders: posted, messages: share * 4, realIds: realIds.size, markersMissing, timesFrameShown, drainMs, messagesPerSecond: Math.round(((share * 4) / drainMs) * 1_000), isFrameHidden, statusBefore, statusAfter, errors }
}
