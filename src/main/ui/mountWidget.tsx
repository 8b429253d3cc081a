import { createRoot } from 'react-dom/client'
import { WidgetProvider } from '../react/WidgetProvider'
import type { Widget } from '../widget/createWidget'
import { ConnectButton } from './ConnectButton/ConnectButton'
import { WidgetModal } from './WidgetModal'

/** Renders the connect button and the modal into `element`, for pages without React. Returns the unmount. */
export function mountWidget(widget: Widget, element: Element) {
  const root = createRoot(element)
  root.render(
    <WidgetProvider widget={widget}>
      <ConnectButton />
      <WidgetModal />
    </WidgetProvider>,
  )
  return () => root.unmount()
}
