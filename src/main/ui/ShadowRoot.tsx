import { useCallback, useMemo, useSyncExternalStore, type CSSProperties, type ReactNode } from 'react'
import { createPortal } from 'react-dom'
import { widgetCss, widgetSheetOf } from './styles'

/**
 * Gives `shadow` the widget's CSS. A constructed stylesheet, adopted by the shadow root, is allowed by a strict CSP
 * (`style-src 'self'`, no 'unsafe-inline'); a `<style>` element is not, so it is only the fallback of browsers without
 * constructable stylesheets, carrying the site's nonce when it gave one. Returns the nodes to put first in the root.
 */
function adoptWidgetCss(shadow: ShadowRoot, nonce: string | undefined): Node[] {
  const document = shadow.ownerDocument
  const sheet = 'adoptedStyleSheets' in shadow ? widgetSheetOf(document) : undefined
  if (sheet) {
    shadow.adoptedStyleSheets = [sheet]
    return []
  }
  const style = document.createElement('style')
  if (nonce) style.nonce = nonce
  style.textContent = widgetCss
  return [style]
}

/**
 * Renders children inside an open shadow root with the widget's CSS: the host page's styles cannot reach in and
 * ours cannot leak out. Theme variables are set through the CSSOM (React's `style`), which a strict CSP allows.
 */
export function ShadowRoot({ children, themeMode, themeVariables, nonce }: { children: ReactNode; themeMode: 'light' | 'dark'; themeVariables?: Record<string, string | number>; nonce?: string }) {
  // The children render into a container that the host's ref moves into the shadow root. The portal comes after the
  // host, so the ref runs before the children's layout effects: they see their shadow root. Rendered on the client,
  // that is the first pass; a server renders the host alone, and hydration adds the portal in a second pass.
  const isOnClient = useSyncExternalStore(subscribeToNothing, isClientSnapshot, isServerSnapshot)
  const container = useMemo(() => (isOnClient ? document.createElement('div') : null), [isOnClient])
  const attach = useCallback(
    (host: HTMLSpanElement | null) => {
      if (!host || !container) return
      const shadow = host.shadowRoot ?? host.attachShadow({ mode: 'open' })
      shadow.replaceChildren(...adoptWidgetCss(shadow, nonce), container)
    },
    [container, nonce],
  )
  return (
    <>
      <span ref={attach} data-tessera="" />
      {container
        ? createPortal(
            <div className="root" data-theme={themeMode} style={themeVariables as CSSProperties | undefined}>
              {children}
            </div>,
            container,
          )
        : null}
    </>
  )
}

const subscribeToNothing = () => () => {}
const isClientSnapshot = () => true
const isServerSnapshot = () => false
