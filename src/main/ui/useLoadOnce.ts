import { useEffect, useState } from 'react'
import type { loadOnce } from '../lazy/loadOnce'

/**
 * Loads `code` while `isNeeded` and renders again once it is here (read it with `code.loaded()`, in the same render).
 * A failed load is said by `hasFailed` until `retry()`, which loads again.
 * @example const { hasFailed, retry } = useLoadOnce(encoder); const encode = encoder.loaded()?.encode
 */
export function useLoadOnce<T>(code: ReturnType<typeof loadOnce<T>>, isNeeded = true) {
  const [, setSettled] = useState(0)
  const [hasFailed, setFailed] = useState(false)
  useEffect(() => {
    if (!isNeeded || code.loaded() !== undefined || hasFailed) return
    let isCurrent = true
    code.load().then(
      () => isCurrent && setSettled((n) => n + 1),
      () => isCurrent && setFailed(true),
    )
    return () => {
      isCurrent = false
    }
  }, [code, isNeeded, hasFailed])
  return { hasFailed, retry: () => setFailed(false) }
}
