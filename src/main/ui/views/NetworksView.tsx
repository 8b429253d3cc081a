import { useNetwork } from '../../react/hooks'
import { useStoreSelector, useWidget } from '../../react/WidgetProvider'
import { useTranslate } from '../useTranslate'
import { Glyph } from '../Modal/Glyph'
import { NetworkIcon } from './NetworkIcon'

/** The networks the site offers, each with its icon, the current one checked; also the body of UnsupportedChain. */
export function NetworksView() {
  const widget = useWidget()
  const t = useTranslate()
  const view = useStoreSelector(widget.router.store, (s) => s.view)
  const { network, networks: offered } = useNetwork()
  // Switch Network answers a wallet on a network the site did not ask for: only its own family's networks can help.
  const networks = view === 'UnsupportedChain' ? offered.filter((n) => n.chainNamespace === network.chainNamespace) : offered
  const hasFamilies = new Set(networks.map((n) => n.chainNamespace)).size > 1
  return (
    <>
      {view === 'UnsupportedChain' ? <p className="muted">{t('unsupported.explain')}</p> : null}
      <ul className="list" aria-label={t('view.Networks')}>
        {networks.map((n) => (
          <li key={n.caipNetworkId}>
            <button
              type="button"
              className="item row"
              aria-current={n.caipNetworkId === network.caipNetworkId ? 'true' : undefined}
              onClick={() =>
                widget
                  .switchNetwork(n.caipNetworkId)
                  // A family not connected yet shows Connect for its wallets instead (the switch did that); a view the switch
                  // opened meanwhile (sign in again on the new network) stays.
                  .then(() => widget.getState().status === 'connected' && widget.router.store.getState().view === view && (widget.router.canGoBack() ? widget.router.goBack() : widget.router.reset('Account')))
                  .catch(() => widget.modal.shake())
              }
            >
              <NetworkIcon network={n} size={28} />
              <span className="row-label">{n.name}</span>
              {hasFamilies ? <span className="tag">{t(`family.${n.chainNamespace}`)}</span> : null}
              {/* The current one: a check to see, aria-current to hear. */}
              {n.caipNetworkId === network.caipNetworkId ? (
                <span className="current-mark">
                  <Glyph name="check" />
                </span>
              ) : null}
            </button>
          </li>
        ))}
      </ul>
    </>
  )
}
