export type RepeatingTaskParameters<T> = {
  /** One run; it must not reject (catch and report inside). */
  run: () => Promise<T>
  /** How long after a run ends the next starts, given what it resolved to. */
  delayMs: (result: T) => number
}

export type RepeatingTask = {
  /** True from start() until stop(). */
  readonly isRunning: boolean
  start(): void
  /** No run starts after this; resolves once the run under way, if any, has ended. */
  stop(): Promise<void>
}

/**
 * Runs `run` again and again from start() until stop(), one run at a time, each `delayMs(result)` after the last.
 * @example const polling = createRepeatingTask({ run: poll, delayMs: () => 1_000 }); polling.start(); … await polling.stop()
 */
export function createRepeatingTask<T>({ run, delayMs }: RepeatingTaskParameters<T>): RepeatingTask {
  let timer: ReturnType<typeof setTimeout> | undefined
  let running: Promise<T> | undefined
  let isRunning = false
  const loop = async () => {
    if (!isRunning) return
    running = run()
    const result = await running
    if (isRunning) timer = setTimeout(() => void loop(), delayMs(result))
  }
  return {
    get isRunning() {
      return isRunning
    },
    start() {
      if (isRunning) return
      isRunning = true
      void loop()
    },
    async stop() {
      isRunning = false
      clearTimeout(timer)
      await running
    },
  }
}
