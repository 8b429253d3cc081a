import { frameSuccessPayloads, parseAppRequest, replyType, appRequestSchema, type AppEvent, type AppRequest } from '../../shared/protocol/schemas/frameMessages'
import { createWidgetError, isWidgetError, type WidgetError } from '../../shared/protocol/errors'
import { safeParse } from '../../shared/protocol/schemas/parse'
import type { FrameEvent } from './frameEvents'

/** The window the frame answers: only `postMessage` with an exact target origin is used. */
export type ParentWindow = { postMessage(message: unknown, targetOrigin: string): void }

/** What a handler gets: the checked request, and a signal that is aborted when the messenger stops. */
export type FrameRequestHandler = (request: AppRequest, context: { signal: AbortSignal }) => Promise<unknown>

export type CreateFrameMessengerParameters = {
  /** The frame's own window, where the page's messages arrive. */
  self: Pick<Window, 'addEventListener' | 'removeEventListener'>
  /** window.parent: the only window whose messages are read, and the only one answered. */
  parent: ParentWindow
  /** The page's exact origin (checked against the project's allowed origins before this is made). */
  parentOrigin: string
  handle: FrameRequestHandler
  /** Requests being answered at once; past it a request gets LIMIT_EXCEEDED at once. */
  maxInFlight?: number
  /** One line per message ignored or failed (the logger flag of the frame's URL turns it on). */
  log?: (line: string) => void
}

export type FrameMessenger = {
  /** Posts one of the frame's own events (FRAME_READY, FRAME_OPEN, FRAME_CLOSE) to the page. */
  post(event: FrameEvent): void
  /** Stops reading messages; requests still running are aborted and get no reply. */
  stop(): void
  /** Counts since the start, for the logger and the hostile tests. */
  stats(): { answered: number; ignored: number; refused: number }
}

/** The error reply's payload: the sentence, its stable code (and the JSON-RPC code when it has one), never a cause or stack. */
export function toErrorPayload(error: unknown): { message: string; code: string; rpcCode?: number; params?: Record<string, string | number> } {
  const widgetError: WidgetError = isWidgetError(error) ? error : createWidgetError('FRAME_ERROR')
  return {
    message: widgetError.shortMessage,
    code: widgetError.code,
    ...(widgetError.rpcCode !== undefined && { rpcCode: widgetError.rpcCode }),
    ...(widgetError.params && { params: widgetError.params }),
  }
}

/**
 * The frame's end of the page ↔ frame channel (SPEC §7):
 * 1. a message is read only when it comes from window.parent AND from the page's exact origin; any other is ignored;
 * 2. its envelope `{ id, type: 'APP_…', payload }` is checked by the shared zod schema; one that is not an APP_* request
 *    is ignored (nothing to answer), one whose payload breaks its schema gets FRAME_…_ERROR (INVALID_MESSAGE);
 * 3. the handler's result is checked against the reply's schema and posted as FRAME_…_SUCCESS, a throw as FRAME_…_ERROR
 *    `{ message, code }`, always with the request's id and always to the exact origin (never '*').
 * Nothing the page sends can throw out of the listener.
 * @example const messenger = createFrameMessenger({ self: window, parent: window.parent, parentOrigin, handle })
 */
export function createFrameMessenger({ self, parent, parentOrigin, handle, maxInFlight = 64, log = () => {} }: CreateFrameMessengerParameters): FrameMessenger {
  const inFlight = new Set<string>()
  const controller = new AbortController()
  const counts = { answered: 0, ignored: 0, refused: 0 }

  const reply = (id: string, type: AppEvent, outcome: 'SUCCESS' | 'ERROR', payload: unknown) => {
    if (controller.signal.aborted) return
    counts.answered += 1
    parent.postMessage({ id, type: replyType(type, outcome), payload }, parentOrigin)
  }

  async function answer(request: AppRequest) {
    try {
      const result = await handle(request, { signal: controller.signal })
      const checked = safeParse(frameSuccessPayloads[request.type], result)
      if (!checked.success) {
        log(`frame: the answer to ${request.type} broke its schema`)
        reply(request.id, request.type, 'ERROR', toErrorPayload(createWidgetError('FRAME_ERROR')))
        return
      }
      reply(request.id, request.type, 'SUCCESS', checked.data)
    } catch (error) {
      if (!isWidgetError(error)) log(`frame: ${request.type} failed: ${(error as Error)?.message ?? String(error)}`)
      reply(request.id, request.type, 'ERROR', toErrorPayload(error))
    } finally {
      inFlight.delete(request.id)
    }
  }

  const onMessage = (event: MessageEvent) => {
    try {
      if (event.source !== parent || event.origin !== parentOrigin) {
        counts.ignored += 1
        return
      }
      const envelope = safeParse(appRequestSchema, event.data)
      if (!envelope.success) {
        counts.ignored += 1
        log('frame: ignored a message that is not a request')
        return
      }
      const { id, type } = envelope.data
      if (inFlight.has(id)) {
        counts.ignored += 1
        log(`frame: ignored a second request with id ${id.slice(0, 32)} while the first runs`)
        return
      }
      let request: AppRequest
      try {
        request = parseAppRequest(event.data)
      } catch (error) {
        counts.refused += 1
        reply(id, type, 'ERROR', toErrorPayload(error))
        return
      }
      if (inFlight.size >= maxInFlight) {
        counts.refused += 1
        reply(id, type, 'ERROR', toErrorPayload(createWidgetError('LIMIT_EXCEEDED', { details: `${maxInFlight} requests are already running` })))
        return
      }
      inFlight.add(id)
      void answer(request)
    } catch (error) {
      // A message built to break the checks (a getter that throws, say) is one more message ignored.
      counts.ignored += 1
      log(`frame: ignored a message that could not be read: ${(error as Error)?.message ?? String(error)}`)
    }
  }

  self.addEventListener('message', onMessage)
  return {
    post(event) {
      if (!controller.signal.aborted) parent.postMessage(event, parentOrigin)
    },
    stop() {
      controller.abort()
      self.removeEventListener('message', onMessage)
      inFlight.clear()
    },
    stats: () => ({ ...counts }),
  }
}
