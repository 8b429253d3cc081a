import { toWidgetError } from './toWidgetError'

/** Wraps each method so whatever it throws or rejects with leaves as a WidgetError. */
export function withWidgetErrors<T extends Record<string, unknown>>(api: T): T {
  const wrapped: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(api)) {
    if (typeof value !== 'function') {
      wrapped[name] = value
      continue
    }
    wrapped[name] = (...args: unknown[]) => {
      let result: unknown
      try {
        result = value(...args)
      } catch (error) {
        throw toWidgetError(error)
      }
      return result instanceof Promise ? result.catch((error: unknown) => Promise.reject(toWidgetError(error))) : result
    }
  }
  return wrapped as T
}
