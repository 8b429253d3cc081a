import { useNetwork } from '../../react/hooks'
import { useIsStarted, useWidget, useWidgetState } from '../../react/WidgetProvider'
import { loadOnce } from '../../lazy/loadOnce'
import { retryingImport } from '../../lazy/retryingImport'
import { CHEVRON_DOWN_PATH, LineIcon } from '../Modal/LineIcon'
import { ShadowRoot } from '../ShadowRoot'
import { useLoadOnce } from '../useLoadOnce'
import { prefetchModal } from '../WidgetModal'

// The network's icon (its code shared with the modal's views) loads with the widget's start, which the button waits
// for anyway: a page's start-up script does not carry it. Until it is here, or if it cannot load, an empty space of
// its size holds its place.
const networkIcon = loadOnce(retryingImport(() => import('../views/NetworkIcon'), 'NetworkIcon'))

const ICON_SIZE = 24

/** The active network: its icon and name (on narrow screens the icon alone, the name still its accessible name); opens the Networks view. */
export function NetworkButton() {
  const widget = useWidget()
  const themeMode = useWidgetState((s) => s.themeMode)
  const isStarted = useIsStarted()
  const { network } = useNetwork()
  useLoadOnce(networkIcon, isStarted)
  const NetworkIcon = networkIcon.loaded()?.NetworkIcon
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
        {NetworkIcon ? <NetworkIcon network={network} size={ICON_SIZE} /> : <span className="token-icon" aria-hidden="true" style={{ width: ICON_SIZE, height: ICON_SIZE }} />}
        <span className="network-name">{network.name}</span>
        <LineIcon d={CHEVRON_DOWN_PATH} />
      </button>
    </ShadowRoot>
  )
}
