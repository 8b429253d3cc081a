import { SECURE_FRAME_READY_DELAY_MS, SECURE_FRAME_REQUEST_TIMEOUT_MS } from '../../../shared/protocol/constants'
import { createWidgetError, isErrorCode, type WidgetError } from '../../../shared/protocol/errors'
import { frameEventSchema, type FrameOpenReason } from '../../../shared/protocol/schemas/frameEvents'
import { appRequestPayloads, frameReplySchema, parseFrameReply, type AppEvent } from '../../../shared/protocol/schemas/frameMessages'
import { parseOrThrow, safeParse } from '../../../shared/protocol/schemas/parse'

/** The frame's window as the page uses it: postMessage with an exact target origin only. */
export type FrameWindow = { postMessage(message: unknown, targetOrigin: string): void }

/** The element that holds the frame: an iframe on a page, a fake in tests. */
export type FrameHost = {
  /** The frame's window once it exists (the only source whose messages are read). */
  contentWindow(): FrameWindow | null
  /** Shows the frame above the page, at least `minHeight` CSS pixels high (the person must act in it). */
  show(minHeight: number): void
  hide(): void
  remove(): void
}

export type FrameParameters = {
  projectId: string
  /** The network to start on (SPEC §7 chainId). */
  chainId?: string | number
  /** The SDK version string (SPEC §1). */
  version: string
  enableLogger?: boolean
  locale?: string
}

export type CreateFrameChannelParameters = {
  /** The frame's page, e.g. https://frame.example.org/ ; its origin is the only one talked to. */
  frameUrl: string
  params: FrameParameters
  /** The page's window: where replies arrive, and whose origin the frame is told. */
  window: Pick<Window, 'addEventListener' | 'removeEventListener'> & { location: { origin: string } }
  /** Makes the element that loads `src` (hidden at first), calling `onLoad` once its page has loaded; by default an iframe in document.body. */
  createHost?: (src: string, onLoad: () => void) => FrameHost
  /** The frame must say it is ready within this, or the login is 'Unable to load email login dependency'. */
  readyTimeoutMs?: number
  /**
   * Once the frame's page has loaded (its scripts have run or failed), its ready event must come within this: a frame
   * whose script failed to load, or that stays silent, is said sooner than `readyTimeoutMs`.
   */
  readyAfterLoadMs?: number
  readyDelayMs?: number
  /** SPEC §9: a request the frame does not answer within this is aborted. */
  requestTimeoutMs?: number
  /** While the frame is shown (the person approves, or types a password), requests wait this long instead. */
  personTimeoutMs?: number
  /** Requests waiting for an answer at once; past it a request fails at once. */
  maxPending?: number
  createId?: () => string
  onOpen?: (reason: FrameOpenReason, minHeight: number) => void
  onClose?: () => void
}

export type FrameRequestOptions = { timeoutMs?: number; signal?: AbortSignal }

type Pending = { type: AppEvent; timeoutMs: number; timer: ReturnType<typeof setTimeout> | undefined; resolve: (value: unknown) => void; reject: (error: unknown) => void; cleanup: () => void }

/** What an aborted or timed-out request becomes (SPEC §8): RPC requests 'Request was aborted', the rest 'Something went wrong'. */
export function abortError(type: AppEvent, details: string): WidgetError {
  if (type === 'APP_RPC_REQUEST') return createWidgetError('REQUEST_ABORTED', { details })
  // The Farcaster URI request is the exception of SPEC §8: it says what happened, not 'Something went wrong'.
  if (type === 'APP_GET_FARCASTER_URI') return createWidgetError('FRAME_ERROR', { details })
  return createWidgetError('SOMETHING_WENT_WRONG', { details })
}

/** An error reply as the page's error: its code when it is one of ours (so it is said in the person's language), else 'An error occurred'. */
export function toFrameError(payload: { message?: string; code?: string; params?: Record<string, string | number> }): WidgetError {
  if (payload.code && isErrorCode(payload.code) && payload.code !== 'UNKNOWN') return createWidgetError(payload.code, { ...(payload.params && { params: payload.params }), details: 'from the secure frame' })
  return createWidgetError('FRAME_ERROR', payload.message ? { details: payload.message.slice(0, 300) } : {})
}

/** The default host: a hidden iframe whose sandbox keeps the frame's own origin (its storage holds the keys). */
export function createIframeHost(src: string, onLoad: () => void = () => {}, document: Document = globalThis.document): FrameHost {
  const iframe = document.createElement('iframe')
  iframe.addEventListener('load', onLoad)
  iframe.src = src
  iframe.title = 'Secure login frame'
  // allow-same-origin: the frame keeps its origin, so its own storage (LOCAL-STACK.md); allow-forms: its password form.
  iframe.setAttribute('sandbox', 'allow-scripts allow-same-origin allow-forms')
  iframe.setAttribute('allow', 'clipboard-write')
  iframe.referrerPolicy = 'origin'
  iframe.dataset.tesseraFrame = ''
  const hide = () => {
    iframe.setAttribute('aria-hidden', 'true')
    iframe.tabIndex = -1
    iframe.style.cssText = 'position:fixed;top:0;left:0;width:1px;height:1px;border:0;opacity:0;pointer-events:none;visibility:hidden;'
  }
  hide()
  document.body.append(iframe)
  return {
    contentWindow: () => iframe.contentWindow,
    show(minHeight) {
      iframe.removeAttribute('aria-hidden')
      iframe.tabIndex = 0
      // No transform or opacity: the frame arms its Approve button only while it is fully visible (IntersectionObserver v2).
      iframe.style.cssText = `position:fixed;inset:0;margin:auto;width:min(360px,100vw);height:min(${minHeight}px,100vh);border:0;border-radius:16px;z-index:2147483647;background:transparent;box-shadow:0 0 0 100vmax rgba(0,0,0,.45);visibility:visible;`
      iframe.focus()
    },
    hide,
    remove: () => iframe.remove(),
  }
}

/**
 * The page's end of the secure frame channel (SPEC §4, §7, §8, §9):
 * 1. the frame is loaded hidden with projectId, chainId, version, enableLogger and the page's origin; it is ready once
 *    it posts FRAME_READY, plus 500 ms; no ready event within `readyTimeoutMs`, or within `readyAfterLoadMs` of its page's
 *    load (its script failed: the frame can say nothing), is 'Unable to load email login dependency';
 * 2. each request `{ id, type, payload }` is checked by the shared schema and posted to the frame's exact origin only;
 * 3. a message is read only from the frame's window and origin; a reply is checked against the schema of its request;
 * 4. each request has a timeout (30 s; longer while the frame shows itself to the person); a timeout or an abort is
 *    'Request was aborted' for RPC and 'Something went wrong' otherwise; an error reply without a code is 'An error occurred'.
 * @example const channel = createFrameChannel({ frameUrl, params, window }); await channel.request('APP_IS_CONNECTED')
 */
export function createFrameChannel({
  frameUrl,
  params,
  window: page,
  createHost = (src, onLoad) => createIframeHost(src, onLoad),
  readyTimeoutMs = 30_000,
  readyAfterLoadMs = 10_000,
  readyDelayMs = SECURE_FRAME_READY_DELAY_MS,
  requestTimeoutMs = SECURE_FRAME_REQUEST_TIMEOUT_MS,
  personTimeoutMs = 10 * 60_000,
  maxPending = 64,
  createId = () => crypto.randomUUID(),
  onOpen = () => {},
  onClose = () => {},
}: CreateFrameChannelParameters) {
  const frameOrigin = new URL(frameUrl).origin
  const pending = new Map<string, Pending>()
  let host: FrameHost | undefined
  let loading: Promise<void> | undefined
  let onReady: (() => void) | undefined
  let isShown = false
  let isDestroyed = false

  const src = () => {
    const url = new URL(frameUrl)
    url.searchParams.set('projectId', params.projectId)
    if (params.chainId !== undefined) url.searchParams.set('chainId', String(params.chainId))
    url.searchParams.set('version', params.version)
    url.searchParams.set('enableLogger', String(params.enableLogger ?? false))
    url.searchParams.set('origin', page.location.origin)
    if (params.locale) url.searchParams.set('locale', params.locale)
    return url.toString()
  }

  const arm = (id: string, entry: Pending) => {
    clearTimeout(entry.timer)
    const ms = isShown ? Math.max(personTimeoutMs, entry.timeoutMs) : entry.timeoutMs
    entry.timer = setTimeout(() => settle(id, abortError(entry.type, `${entry.type} got no answer within ${Math.round(ms / 1_000)} s`)), ms)
  }
  function settle(id: string, error: unknown, value?: unknown) {
    const entry = pending.get(id)
    if (!entry) return
    pending.delete(id)
    clearTimeout(entry.timer)
    entry.cleanup()
    if (error) entry.reject(error)
    else entry.resolve(value)
  }
  const setShown = (shown: boolean) => {
    if (isShown === shown) return
    isShown = shown
    for (const [id, entry] of pending) arm(id, entry)
  }

  const onMessage = (event: MessageEvent) => {
    try {
      const frameWindow = host?.contentWindow()
      if (event.origin !== frameOrigin || !frameWindow || event.source !== frameWindow) return
      const data: unknown = event.data
      const reply = safeParse(frameReplySchema, data)
      if (reply.success) {
        const entry = pending.get(reply.data.id)
        if (!entry) return
        let parsed: ReturnType<typeof parseFrameReply>
        try {
          parsed = parseFrameReply(data, entry.type)
        } catch (error) {
          settle(reply.data.id, createWidgetError('FRAME_ERROR', { details: `the frame's answer to ${entry.type} broke its schema`, cause: error }))
          return
        }
        if (parsed.isError) settle(parsed.id, toFrameError(parsed.payload as Parameters<typeof toFrameError>[0]))
        else settle(parsed.id, undefined, parsed.payload)
        return
      }
      const frameEvent = safeParse(frameEventSchema, data)
      if (!frameEvent.success) return
      if (frameEvent.data.type === 'FRAME_READY') onReady?.()
      else if (frameEvent.data.type === 'FRAME_OPEN') {
        setShown(true)
        host?.show(frameEvent.data.payload.minHeight)
        onOpen(frameEvent.data.payload.reason, frameEvent.data.payload.minHeight)
      } else {
        setShown(false)
        host?.hide()
        onClose()
      }
    } catch {
      // A message that cannot be read is ignored: nothing the frame (or anyone) posts can throw out of the listener.
    }
  }
  page.addEventListener('message', onMessage)

  const teardown = (reason: string) => {
    for (const [id, entry] of [...pending]) settle(id, abortError(entry.type, reason))
    onReady = undefined
    loading = undefined
    if (isShown) onClose()
    isShown = false
    host?.remove()
    host = undefined
  }

  /** Loads the frame (once) and resolves 500 ms after its ready event; a failed load is tried again by the next call. */
  function ready(): Promise<void> {
    if (isDestroyed) return Promise.reject(createWidgetError('EMAIL_DEPENDENCY_FAILED', { details: 'the widget was destroyed' }))
    return (loading ??= new Promise<void>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined
      const failAfter = (ms: number, details: string) => {
        clearTimeout(timer)
        timer = setTimeout(() => {
          onReady = undefined
          teardown('the frame did not load')
          reject(createWidgetError('EMAIL_DEPENDENCY_FAILED', { details }))
        }, ms)
      }
      failAfter(readyTimeoutMs, `${frameOrigin} sent no ready event within ${Math.round(readyTimeoutMs / 1_000)} s`)
      onReady = () => {
        onReady = undefined
        clearTimeout(timer)
        setTimeout(resolve, readyDelayMs)
      }
      const onLoad = () => {
        if (onReady) failAfter(readyAfterLoadMs, `${frameOrigin} loaded but sent no ready event within ${Math.round(readyAfterLoadMs / 1_000)} s (its script failed, or it does not trust this page)`)
      }
      try {
        host = createHost(src(), onLoad)
      } catch (error) {
        clearTimeout(timer)
        onReady = undefined
        loading = undefined
        reject(createWidgetError('EMAIL_DEPENDENCY_FAILED', { cause: error }))
      }
    }))
  }

  /**
   * Sends one request and resolves to its reply's checked payload.
   * @example const { isConnected } = (await channel.request('APP_IS_CONNECTED')) as { isConnected: boolean }
   */
  async function request(type: AppEvent, payload?: unknown, { timeoutMs = requestTimeoutMs, signal }: FrameRequestOptions = {}): Promise<unknown> {
    const checked = parseOrThrow(appRequestPayloads[type], payload, `${type} payload`, ['payload'])
    if (signal?.aborted) throw abortError(type, 'aborted before it was sent')
    await ready()
    if (signal?.aborted) throw abortError(type, 'aborted before it was sent')
    const frameWindow = host?.contentWindow()
    if (!frameWindow) throw createWidgetError('EMAIL_DEPENDENCY_FAILED', { details: 'the frame is gone' })
    if (pending.size >= maxPending) throw createWidgetError('LIMIT_EXCEEDED', { details: `${maxPending} frame requests are already waiting` })
    const id = createId()
    return new Promise((resolve, reject) => {
      const onAbort = () => settle(id, abortError(type, 'aborted'))
      signal?.addEventListener('abort', onAbort, { once: true })
      const entry: Pending = { type, timeoutMs, timer: undefined, resolve, reject, cleanup: () => signal?.removeEventListener('abort', onAbort) }
      pending.set(id, entry)
      arm(id, entry)
      try {
        frameWindow.postMessage({ id, type, payload: checked }, frameOrigin)
      } catch (error) {
        settle(id, createWidgetError('FRAME_ERROR', { details: `${type} could not be posted`, cause: error }))
      }
    })
  }

  return {
    frameOrigin,
    ready,
    request,
    /** Whether the frame is shown to the person now. */
    isShown: () => isShown,
    /** Drops the frame (its requests aborted); the next request loads it again (APP_RELOAD's page side). */
    unload: () => teardown('the frame was reloaded'),
    destroy() {
      isDestroyed = true
      page.removeEventListener('message', onMessage)
      teardown('the widget was destroyed')
    },
  }
}

export type FrameChannel = ReturnType<typeof createFrameChannel>
