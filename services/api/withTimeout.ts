/**
 * `promise`, or a rejection naming `what` once `ms` pass first: for a query on a connection that may have gone silent.
 * The promise itself is not cancelled.
 * @example await withTimeout(db.query('select 1'), 2_000, 'The database') // rejects: 'The database took more than 2000 ms'
 */
export function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took more than ${ms} ms`)), ms)
  })
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
}
