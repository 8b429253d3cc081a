import { useNetwork } from '../../react/hooks'
import { useStoreSelector, useWidget } from '../../react/WidgetProvider'
import { useTranslate } from '../useTranslate'

/** The networks the site offers; also the body of UnsupportedChain. */
export function NetworksView() {
  const widget = useWidget()
  const t = useTranslate()
  const view = useStoreSelector(widget.router.store, (s) => s.view)
  const { network, networks } = useNetwork()
  return (
    <>
      {view === 'UnsupportedChain' ? <p className="muted">{t('unsupported.explain')}</p> : null}
      <ul className="list" aria-label={t('view.Networks')}>
        {networks.map((n) => (
          <li key={n.caipNetworkId}>
            <button
              type="button"
              className="item"
              aria-current={n.caipNetworkId === network.caipNetworkId ? 'true' : undefined}
              onClick={() =>
                widget
                  .switchNetwork(n.caipNetworkId)
                  .then(() => (widget.router.canGoBack() ? widget.router.goBack() : widget.router.reset('Account')))
                  .catch(() => widget.modal.shake())
              }
            >
              <span>{n.name}</span>
              {n.caipNetworkId === network.caipNetworkId ? <span className="tag">{t('networks.current')}</span> : null}
            </button>
          </li>
        ))}
      </ul>
    </>
  )
}
