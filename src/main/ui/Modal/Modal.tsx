import { useEffect, useId, useLayoutEffect, useRef, type ComponentType, type KeyboardEvent } from 'react'
import { useStoreSelector, useWidget } from '../../react/WidgetProvider'
import type { View } from '../../state/views'
import { onDemand } from '../onDemand'
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
import { TokensView } from '../views/TokensView'
import { SIWXSignMessageView } from '../views/SIWXSignMessageView'
import { ApproveTransactionView } from '../views/ApproveTransactionView'
import { ConnectingWalletConnectBasicView, ConnectingWalletConnectView } from '../views/WalletConnectViews'
import { EmailVerifyDeviceView, EmailVerifyOtpView } from '../views/EmailLoginViews'
import { FarcasterLoginView } from '../views/FarcasterLoginView'
import { EmailChangeView } from '../views/EmailChangeView'
import type { MessageKey } from '../i18n/en'
import { Glyph } from './Glyph'
import { adoptModalCss } from './modalSheet'

// The toast's words come with the modal's code (WidgetModal loads both at once).
export { ToastText } from '../ToastText'
export { parseModalCss, warmModalFonts } from './modalSheet'

// Swap's and Buy's views and their code load on their first visit (a few kB from the site's own host), never with the
// modal; the review's with the first request, or ahead of it once an EVM account is connected (prefetchReview).
const swap = onDemand(() => import('../views/SwapView'))
const buy = onDemand(() => import('../views/BuyView'))
const review = onDemand(() => import('../views/ReviewView'))
/** Loads the review's view ahead of the first request. */
export const prefetchReview = review.prefetch

const bodies: Partial<Record<View, ComponentType>> = {
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
  Tokens: TokensView,
  Swap: swap.View,
  Buy: buy.View,
  ConnectingWalletConnectBasic: ConnectingWalletConnectBasicView,
  ConnectingWalletConnect: ConnectingWalletConnectView,
  ApproveTransaction: ApproveTransactionView,
  ReviewRequest: review.View,
  EmailVerifyDevice: EmailVerifyDeviceView,
  EmailVerifyOtp: EmailVerifyOtpView,
  FarcasterLogin: FarcasterLoginView,
  EmailChange: EmailChangeView,
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
  const overlayRef = useRef<HTMLDivElement>(null)
  const route = useStoreSelector(widget.router.store, (s) => s)
  const shake = useStoreSelector(widget.modal.store, (s) => s.shake)
  const canGoBack = route.history.length > 1

  // Before the first paint: the modal never shows unstyled.
  useLayoutEffect(() => {
    const root = overlayRef.current?.getRootNode()
    // A shadow root has a host (instanceof would fail for a widget rendered into another frame's document).
    if (root && 'host' in root) adoptModalCss(root as ShadowRoot, widget.uiSettings.cspNonce)
  }, [widget])
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
  const title = t(`view.${route.view}` as MessageKey, { wallet })
  return (
    <div ref={overlayRef} className="overlay" onClick={(e) => e.target === e.currentTarget && widget.close()}>
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
              <Glyph name="back" />
            </button>
          ) : (
            <span />
          )}
          {/* One line, cut with an ellipsis: a long title never runs into the buttons (the whole of it is its tooltip). */}
          <h2 id={titleId} title={title}>
            {title}
          </h2>
          <button type="button" className="icon-button" aria-label={t('close')} onClick={widget.close}>
            <Glyph name="close" />
          </button>
        </div>
        <Body />
      </div>
    </div>
  )
}
