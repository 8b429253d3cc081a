import type { Widget } from '../../widget/createWidget'
import type { WidgetNetwork } from '../../widget/config'
import { CHEVRON_DOWN_PATH, LineIcon } from '../Modal/LineIcon'
import { NetworkIcon } from '../views/NetworkIcon'
import { prefetchModal } from '../WidgetModal'

/** The network button itself: the active network's icon and name, opening the Networks view. Loaded with the widget's start. */
export function NetworkButtonContent({ widget, network }: { widget: Widget; network: WidgetNetwork }) {
  return (
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
  )
}
