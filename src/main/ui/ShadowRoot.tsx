import { useLayoutEffect, useRef, useState, type CSSProperties, type ReactNode } from 'react'
import { createPortal } from 'react-dom'
import { widgetCss } from './styles'

/**
 * Renders children inside an open shadow root with the widget's CSS: the host page's styles cannot reach in and
 * ours cannot leak out.
 */
export function ShadowRoot({ children, themeMode, themeVariables }: { children: ReactNode; themeMode: 'light' | 'dark'; themeVariables?: Record<string, string | number> }) {
  const hostRef = useRef<HTMLSpanElement>(null)
  const [root, setRoot] = useState<HTMLElement | null>(null)
  useLayoutEffect(() => {
    const host = hostRef.current
    if (!host) return
    const shadow = host.shadowRoot ?? host.attachShadow({ mode: 'open' })
    const style = document.createElement('style')
    style.textContent = widgetCss
    const container = document.createElement('div')
    shadow.replaceChildren(style, container)
    setRoot(container)
  }, [])
  const content = (
    <div className="root" data-theme={themeMode} style={themeVariables as CSSProperties | undefined}>
      {children}
    </div>
  )
  return <span ref={hostRef} data-tessera="">{root ? createPortal(content, root) : null}</span>
}
