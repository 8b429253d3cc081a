import type { FrameHost, FrameWindow } from '../createFrameChannel'

type Listener = (event: { origin: string; source: unknown; data: unknown }) => void
export type FakeRequest = { id: string; type: string; payload?: unknown }
/** What the fake frame answers a request with: a success with its payload, an error with its payload. */
export type FakeAnswer = { ok: unknown } | { error: unknown }

/**
 * A page window and a frame for the channel's tests: the frame records what it is posted (and to which origin) and
 * answers through `respond` (any message) or `answer` (a success or an error reply; undefined: none); `emit` posts from
 * any origin or source, as a hostile page or frame could.
 */
export function createFakeFrame({
  frameOrigin = 'https://frame.test',
  pageOrigin = 'https://app.test',
  respond,
  answer: answerWith,
}: { frameOrigin?: string; pageOrigin?: string; respond?: (request: FakeRequest) => unknown; answer?: (request: FakeRequest) => FakeAnswer | undefined } = {}) {
  const listeners = new Set<Listener>()
  const posted: { message: FakeRequest; targetOrigin: string }[] = []
  const hosts: { src: string; shown: number[]; hidden: number; removed: boolean; load: () => void }[] = []
  const frameWindow: FrameWindow = {
    postMessage(message, targetOrigin) {
      posted.push({ message: message as FakeRequest, targetOrigin })
      const request = message as FakeRequest
      const reply = answerWith?.(request)
      const answer = respond ? respond(request) : reply && ('ok' in reply ? success(request, reply.ok) : failure(request, reply.error))
      if (answer !== undefined) queueMicrotask(() => emit(answer))
    },
  }
  const emit = (data: unknown, { origin = frameOrigin, source = frameWindow as unknown }: { origin?: string; source?: unknown } = {}) => {
    for (const listener of [...listeners]) listener({ origin, source, data })
  }
  const window = {
    location: { origin: pageOrigin },
    addEventListener: (_type: string, listener: Listener) => void listeners.add(listener),
    removeEventListener: (_type: string, listener: Listener) => void listeners.delete(listener),
  } as unknown as Pick<Window, 'addEventListener' | 'removeEventListener'> & { location: { origin: string } }
  /** `load()` on a host plays its page's load event (its scripts have run, or failed). */
  const createHost = (src: string, onLoad: () => void = () => {}): FrameHost => {
    const host = { src, shown: [] as number[], hidden: 0, removed: false, load: onLoad }
    hosts.push(host)
    return {
      contentWindow: () => (host.removed ? null : frameWindow),
      show: (minHeight) => void host.shown.push(minHeight),
      hide: () => void (host.hidden += 1),
      remove: () => void (host.removed = true),
    }
  }
  /** The success reply to a request, with its payload. */
  const success = (request: FakeRequest, payload: unknown = {}) => ({ id: request.id, type: `FRAME_${request.type.slice(4)}_SUCCESS`, payload })
  const failure = (request: FakeRequest, payload: unknown) => ({ id: request.id, type: `FRAME_${request.type.slice(4)}_ERROR`, payload })
  return { window, createHost, frameWindow, posted, hosts, emit, listeners, success, failure, ready: () => emit({ type: 'FRAME_READY', payload: { version: 'test' } }) }
}
