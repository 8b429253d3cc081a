import { useEffect, useId, useRef, type KeyboardEvent } from 'react'
import { useStoreSelector, useWidget } from '../../react/WidgetProvider'
import type { View } from '../../state/views'
import { useTranslate } from '../useTranslate'
import { AccountView } from '../views/AccountView'
import { ConnectingExternalView } from '../views/ConnectingExternalView'
import { ConnectView } from '../views/ConnectView'
import { NetworksView } from '../views/NetworksView'
import { ActivityView } from '../views/ActivityView'
import { RegisterAccountNameSuccessView, RegisterAccountNameView } from '../views/RegisterAccountNameView'
import { SendView } from '../views/SendView'
import { AllWalletsView } from '../views/AllWalletsView'
import { ReceiveView } from '../views/ReceiveView'
import { SIWXSignMessageView } from '../views/SIWXSignMessageView'
import { ApproveTransactionView } from '../views/ApproveTransactionView'
import { ConnectingWalletConnectBasicView, ConnectingWalletConnectView } from '../views/WalletConnectViews'
import type { MessageKey } from '../i18n/en'

// The toast's words come with the modal's code (WidgetModal loads both at once).
export { ToastText } from '../ToastText'

const bodies: Partial<Record<View, () => React.JSX.Element | null>> = {
  Connect: ConnectView,
  ConnectingExternal: ConnectingExternalView,
  Account: AccountView,
  Networks: NetworksView,
  UnsupportedChain: NetworksView,
  Send: SendView,
  Activity: ActivityView,
  RegisterAccountName: RegisterAccountNameView,
  RegisterAccountNameSuccess: RegisterAccountNameSuccessView,
  SIWXSignMessage: SIWXSignMessageView,
  AllWallets: AllWalletsView,
  Receive: ReceiveView,
  ConnectingWalletConnectBasic: ConnectingWalletConnectBasicView,
  ConnectingWalletConnect: ConnectingWalletConnectView,
  ApproveTransaction: ApproveTransactionView,
}

/** The focused element, looking inside shadow roots (our buttons live in one). */
function deepActiveElement(): HTMLElement | null {
  let element = document.activeElement
  while (element?.shadowRoot?.activeElement) element = element.shadowRoot.activeElement
  return element as HTMLElement | null
}

const focusable = 'button:not([disabled]), a[href], input:not([disabled]), [tabindex]:not([tabindex="-1"])'

/** The modal: a dialog named by its view's title, with a focus trap; Escape closes and focus goes back. */
export default function Modal() {
  const widget = useWidget()
  const t = useTranslate()
  const titleId = useId()
  const dialogRef = useRef<HTMLDivElement>(null)
  const route = useStoreSelector(widget.router.store, (s) => s)
  const shake = useStoreSelector(widget.modal.store, (s) => s.shake)
  const canGoBack = route.history.length > 1

  useEffect(() => {
    const previous = deepActiveElement()
    const first = dialogRef.current?.querySelector<HTMLElement>(focusable)
    first?.focus()
    return () => previous?.focus?.()
  }, [])
  useEffect(() => {
    dialogRef.current?.querySelector<HTMLElement>(focusable)?.focus()
  }, [route.view])

  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.stopPropagation()
      widget.close()
      return
    }
    if (event.key !== 'Tab' || !dialogRef.current) return
    const items = [...dialogRef.current.querySelectorAll<HTMLElement>(focusable)]
    if (items.length === 0) return
    const active = (dialogRef.current.getRootNode() as ShadowRoot).activeElement
    const first = items[0]!
    const last = items[items.length - 1]!
    if (event.shiftKey && active === first) {
      event.preventDefault()
      last.focus()
    } else if (!event.shiftKey && active === last) {
      event.preventDefault()
      first.focus()
    }
  }

  const Body = bodies[route.view] ?? ConnectView
  const routeWallet = route.data?.wallet as { name?: unknown } | undefined
  const wallet = typeof route.data?.name === 'string' ? route.data.name : typeof routeWallet?.name === 'string' ? routeWallet.name : ''
  return (
    <div className="overlay" onClick={(e) => e.target === e.currentTarget && widget.close()}>
      <div
        ref={dialogRef}
        className="dialog"
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        data-view={route.view}
        data-shake={shake}
        onKeyDown={onKeyDown}
      >
        <div className="header">
          {canGoBack ? (
            <button type="button" className="icon-button" aria-label={t('back')} onClick={widget.router.goBack}>
              ←
            </button>
          ) : (
            <span />
          )}
          <h2 id={titleId}>{t(`view.${route.view}` as MessageKey, { wallet })}</h2>
          <button type="button" className="icon-button" aria-label={t('close')} onClick={widget.close}>
            ✕
          </button>
        </div>
        <Body />
      </div>
    </div>
  )
}
