import { useEffect, useState } from 'react'
import { toErrorNotice, type ErrorNotice } from '../../state/errorNotice'
import type { Widget } from '../../widget/createWidget'
import { useWidget } from '../WidgetProvider'

/** What a hook loads on first use: undefined while it loads (or when it has nothing to load), the value, or what stopped it. */
export type Loaded<T> = { value: T; error?: undefined } | { value?: undefined; error: ErrorNotice } | undefined

/**
 * Loads what `key` names with `load` (a module-level function, so that it stays the same) once the component mounts,
 * and again when `key` changes; nothing while `key` is undefined. The code behind it comes by `import()` inside `load`,
 * so a hook keeps heavy code (controllers, the modal's chunk) out of the page's start-up JS, as the views do.
 */
export function useLoaded<T>(key: string | undefined, load: (widget: Widget, key: string) => Promise<T>): Loaded<T> {
  const widget = useWidget()
  const [loaded, setLoaded] = useState<{ widget: Widget; key: string } & NonNullable<Loaded<T>>>()
  useEffect(() => {
    if (key === undefined) return
    let isCurrent = true
    load(widget, key).then(
      (value) => isCurrent && setLoaded({ widget, key, value }),
      (error: unknown) => isCurrent && setLoaded({ widget, key, error: toErrorNotice(error) }),
    )
    return () => void (isCurrent = false)
  }, [widget, key, load])
  if (!loaded || loaded.widget !== widget || loaded.key !== key) return undefined
  return loaded.error ? { error: loaded.error } : { value: loaded.value as T }
}
