import { releaseProxy, wrap, type Remote } from 'comlink'
import { createWidgetError } from '../../shared/protocol/errors'
import { whenPageIdle } from './whenPageIdle'

export type WorkerCallOptions = { timeoutMs?: number; signal?: AbortSignal; onAbort?: () => void }

export type CreateWorkerClientParameters<Api> = {
  /** Starts a fresh worker (the first call, a restart). */
  createWorker: () => Worker
  /** Readies a fresh worker (configure it, reconnect its ports); calls wait for it. Returns what to undo on stop. */
  setUp: (remote: Remote<Api>) => { ready: Promise<unknown>; tearDown?: () => void }
  /** How long one call may take before it fails with CORE_TIMEOUT; a call may pass its own. */
  callTimeoutMs?: number
  /** Start the worker once the page is idle (at most this many ms from now), rather than at the first call. */
  warmUpWithinMs?: number
}

/**
 * A comlink client for one of our workers, with what comlink lacks:
 * 1. every call has a timeout (CORE_TIMEOUT) and may be aborted (REQUEST_ABORTED);
 * 2. a worker that dies fails every pending call with CORE_WORKER_DIED, and a fresh worker (set up again) takes over;
 * 3. destroy() terminates the worker, fails what is pending with CORE_DESTROYED, and leaves no timer or listener.
 * @example const client = createWorkerClient<CoreWorkerApi>({ createWorker, setUp: (remote) => ({ ready: remote.configure(config) }) })
 */
export function createWorkerClient<Api>({ createWorker, setUp, callTimeoutMs = 30_000, warmUpWithinMs }: CreateWorkerClientParameters<Api>) {
  const pending = new Set<(error: Error) => void>()
  let isDestroyed = false
  let restarts = 0

  const start = () => {
    const worker = createWorker()
    const remote = wrap<Api>(worker)
    const { ready, tearDown } = setUp(remote)
    ready.catch(() => {})
    const onError = (event: Event) => {
      event.preventDefault()
      restart(createWidgetError('CORE_WORKER_DIED', { details: (event as ErrorEvent).message }))
    }
    worker.addEventListener('error', onError)
    return { worker, remote, ready, onError, tearDown }
  }

  let session: ReturnType<typeof start> | undefined
  const current = () => (session ??= start())
  const cancelWarmUp = warmUpWithinMs === undefined ? undefined : whenPageIdle(() => void current(), { timeoutMs: warmUpWithinMs })

  const stopSession = () => {
    cancelWarmUp?.()
    if (!session) return
    session.worker.removeEventListener('error', session.onError)
    session.tearDown?.()
    session.remote[releaseProxy]()
    session.worker.terminate()
    session = undefined
  }

  function restart(reason: Error) {
    stopSession()
    for (const fail of [...pending]) fail(reason)
    pending.clear()
    if (isDestroyed) return
    restarts++
    session = start()
  }

  /** Runs `run` against the ready worker, with the call's timeout and abort. */
  function call<T>(run: (remote: Remote<Api>) => Promise<T>, { timeoutMs = callTimeoutMs, signal, onAbort }: WorkerCallOptions = {}) {
    return new Promise<T>((resolve, reject) => {
      if (isDestroyed) return reject(createWidgetError('CORE_DESTROYED'))
      const settle = (done: () => void) => {
        clearTimeout(timer)
        pending.delete(fail)
        signal?.removeEventListener('abort', abort)
        done()
      }
      const fail = (error: unknown) => settle(() => reject(error))
      const abort = () => {
        onAbort?.()
        fail(createWidgetError('REQUEST_ABORTED'))
      }
      const timer = Number.isFinite(timeoutMs) ? setTimeout(() => fail(createWidgetError('CORE_TIMEOUT', { details: `no answer within ${timeoutMs} ms` })), timeoutMs) : undefined
      pending.add(fail)
      if (signal?.aborted) return abort()
      signal?.addEventListener('abort', abort, { once: true })
      const { ready, remote } = current()
      ready.then(() => run(remote)).then((value) => settle(() => resolve(value)), fail)
    })
  }

  return {
    call,
    /** The running worker's remote, starting one if none runs (for calls that need no timeout, like an abort). */
    remote: () => current().remote,
    /** Whether a worker runs now (it starts lazily). */
    isRunning: () => session !== undefined,
    /** How many times a dead worker was replaced. */
    getRestartCount: () => restarts,
    destroy() {
      if (isDestroyed) return
      isDestroyed = true
      restart(createWidgetError('CORE_DESTROYED'))
    },
  }
}

export type WorkerClient<Api> = ReturnType<typeof createWorkerClient<Api>>
