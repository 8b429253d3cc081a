import { useNetwork } from '../../react/hooks'
import { useIsStarted, useWidget, useWidgetState } from '../../react/WidgetProvider'
import { CHEVRON_DOWN_PATH, LineIcon } from '../Modal/LineIcon'
import { ShadowRoot } from '../ShadowRoot'
import { NetworkIcon } from '../views/NetworkIcon'
import { prefetchModal } from '../WidgetModal'

/** The active network: its icon and name (on narrow screens the icon alone, the name still its accessible name); opens the Networks view. */
export function NetworkButton() {
  const widget = useWidget()
  const themeMode = useWidgetState((s) => s.themeMode)
  const isStarted = useIsStarted()
  const { network } = useNetwork()
  // Until the widget has started its networks are not checked: the button comes with them.
  if (!isStarted || !network) return null
  const { themeVariables, cspNonce } = widget.uiSettings
  return (
    <ShadowRoot themeMode={themeMode} themeVariables={themeVariables} nonce={cspNonce}>
      <button
        type="button"
        className="button network-button"
        data-variant="account"
        onClick={() => widget.open({ view: 'Networks' })}
        onPointerEnter={() => prefetchModal(widget)}
        onFocus={() => prefetchModal(widget)}
      >
        <NetworkIcon network={network} size={24} />
        <span className="network-name">{network.name}</span>
        <LineIcon d={CHEVRON_DOWN_PATH} />
      </button>
    </ShadowRoot>
  )
}
