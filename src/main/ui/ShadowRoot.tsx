import { useLayoutEffect, useRef, useState, type CSSProperties, type ReactNode } from 'react'
import { createPortal } from 'react-dom'
import { widgetCss } from './styles'

/** One parsed copy of the widget's CSS per document, shared by the button's and the modal's shadow roots. */
const widgetSheets = new WeakMap<Document, CSSStyleSheet>()
function widgetSheetOf(document: Document, Sheet: typeof CSSStyleSheet) {
  let sheet = widgetSheets.get(document)
  if (!sheet) {
    sheet = new Sheet()
    sheet.replaceSync(widgetCss)
    widgetSheets.set(document, sheet)
  }
  return sheet
}

/**
 * Gives `shadow` the widget's CSS. A constructed stylesheet, adopted by the shadow root, is allowed by a strict CSP
 * (`style-src 'self'`, no 'unsafe-inline'); a `<style>` element is not, so it is only the fallback of browsers without
 * constructable stylesheets, carrying the site's nonce when it gave one. Returns the nodes to put first in the root.
 */
function adoptWidgetCss(shadow: ShadowRoot, nonce: string | undefined): Node[] {
  const document = shadow.ownerDocument
  const Sheet = document.defaultView?.CSSStyleSheet
  if (Sheet && 'replaceSync' in Sheet.prototype && 'adoptedStyleSheets' in shadow) {
    shadow.adoptedStyleSheets = [widgetSheetOf(document, Sheet)]
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
  const hostRef = useRef<HTMLSpanElement>(null)
  const [root, setRoot] = useState<HTMLElement | null>(null)
  useLayoutEffect(() => {
    const host = hostRef.current
    if (!host) return
    const shadow = host.shadowRoot ?? host.attachShadow({ mode: 'open' })
    const container = host.ownerDocument.createElement('div')
    shadow.replaceChildren(...adoptWidgetCss(shadow, nonce), container)
    setRoot(container)
  }, [nonce])
  const content = (
    <div className="root" data-theme={themeMode} style={themeVariables as CSSProperties | undefined}>
      {children}
    </div>
  )
  return <span ref={hostRef} data-tessera="">{root ? createPortal(content, root) : null}</span>
}
