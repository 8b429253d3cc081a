import { useNetwork } from '../../react/hooks'
import { useWidget, useWidgetState } from '../../react/WidgetProvider'
import { ShadowRoot } from '../ShadowRoot'
import { prefetchModal } from '../WidgetModal'

/** The active network's name; opens the Networks view. */
export function NetworkButton() {
  const widget = useWidget()
  const themeMode = useWidgetState((s) => s.themeMode)
  const { network } = useNetwork()
  return (
    <ShadowRoot themeMode={themeMode} themeVariables={widget.config.themeVariables} nonce={widget.config.cspNonce}>
      <button type="button" className="button" data-variant="account" onClick={() => widget.open({ view: 'Networks' })} onPointerEnter={() => prefetchModal(widget)} onFocus={() => prefetchModal(widget)}>
        {network.name}
      </button>
    </ShadowRoot>
  )
}
