import { useEffect, useState } from 'react'
import { useNetwork } from '../../react/hooks'
import { useIsStarted, useWidget, useWidgetState } from '../../react/WidgetProvider'
import { loadOnce } from '../loadOnce'
import { ShadowRoot } from '../ShadowRoot'

// The button's content (the network's icon, shared with the modal's views) loads with the widget's start, which the
// button waits for anyway: a page's start-up script does not carry it.
const content = loadOnce(() => import('./NetworkButtonContent'))

/** Loads the button's content once the widget has started, and renders again when it is here (a failed load is tried again at the next mount). */
function useContentLoad(isStarted: boolean) {
  const [, setLoaded] = useState(0)
  useEffect(() => {
    if (!isStarted || content.loaded()) return
    let isCurrent = true
    content.load().then(
      () => isCurrent && setLoaded((n) => n + 1),
      () => {},
    )
    return () => {
      isCurrent = false
    }
  }, [isStarted])
}

/** The active network: its icon and name (on narrow screens the icon alone, the name still its accessible name); opens the Networks view. */
export function NetworkButton() {
  const widget = useWidget()
  const themeMode = useWidgetState((s) => s.themeMode)
  const isStarted = useIsStarted()
  const { network } = useNetwork()
  useContentLoad(isStarted)
  const Content = content.loaded()?.NetworkButtonContent
  // Until the widget has started its networks are not checked: the button comes with them.
  if (!isStarted || !network || !Content) return null
  const { themeVariables, cspNonce } = widget.uiSettings
  return (
    <ShadowRoot themeMode={themeMode} themeVariables={themeVariables} nonce={cspNonce}>
      <Content widget={widget} network={network} />
    </ShadowRoot>
  )
}
