import { useEffect, useState } from 'react'
import type { WalletListingEntry } from '../../../shared/protocol/schemas/entities'
import { walletDeepLink } from '../../../shared/protocol/walletLinks'
import { useStoreSelector, useWidget, useWidgetState } from '../../react/WidgetProvider'
import type { Widget } from '../../widget/createWidget'
import { Glyph } from '../Modal/Glyph'
import { prefetchQrCode, QrCode } from '../QrCode'
import { useTranslate, useTranslateError } from '../useTranslate'
import { WalletIcon } from './WalletIcon'

/** Keeps a live pairing while the view shows; pauses it when the view goes (closing the modal resets it). */
function usePairing(widget: Widget, wallet?: { id: string; name: string }) {
  const walletConnect = widget.walletConnect
  const walletId = wallet?.id
  const walletName = wallet?.name
  useEffect(() => {
    if (!walletConnect) return
    // The QR code's encoder loads while the relay answers.
    if (!widget.isMobile) prefetchQrCode()
    void walletConnect.start(walletId && walletName ? { id: walletId, name: walletName } : undefined)
    return () => walletConnect.pause()
  }, [walletConnect, walletId, walletName, widget.isMobile])
}

/**
 * The pairing URI as a QR code (not on a phone: nothing there to scan it), a copy button and a link for a wallet on this
 * device; errors offer a retry.
 */
function Pairing({ hint }: { hint: string }) {
  const widget = useWidget()
  const t = useTranslate()
  const translateError = useTranslateError()
  const uri = useWidgetState((s) => s.wcUri)
  const error = useWidgetState((s) => s.wcError)
  const [isCopied, setCopied] = useState(false)
  if (error) {
    return (
      <>
        <p className="error" role="alert">
          {error.code === 'USER_REJECTED' ? t('error.userRejected') : translateError(error)}
        </p>
        <button type="button" className="button" onClick={() => void widget.walletConnect?.start()}>
          <Glyph name="retry" />
          {t('connecting.retry')}
        </button>
      </>
    )
  }
  if (!uri) {
    return (
      <p className="muted" role="status">
        {t('walletConnect.preparing')}
      </p>
    )
  }
  return (
    <>
      {widget.isMobile ? null : (
        <>
          <p className="muted">{hint}</p>
          <QrCode value={uri} label={t('walletConnect.qr')} size={240} />
        </>
      )}
      <button type="button" className="item row" onClick={() => void navigator.clipboard?.writeText(uri).then(() => setCopied(true), () => {})}>
        <span className="row-icon" aria-hidden="true">
          <Glyph name={isCopied ? 'check' : 'copy'} />
        </span>
        <span className="row-label">{isCopied ? t('walletConnect.copied') : t('walletConnect.copy')}</span>
      </button>
      <a className="item row" href={uri}>
        <span className="row-icon" aria-hidden="true">
          <Glyph name="explorer" />
        </span>
        <span className="row-label">{t('walletConnect.openHere')}</span>
      </a>
    </>
  )
}

/** WalletConnect with no wallet chosen: the QR code for any wallet app. */
export function ConnectingWalletConnectBasicView() {
  const widget = useWidget()
  const t = useTranslate()
  usePairing(widget)
  return (
    <div className="account">
      <Pairing hint={t('walletConnect.scan')} />
    </div>
  )
}

/** WalletConnect for one wallet of the registry: its deep links (app, desktop, web) and the QR code. */
export function ConnectingWalletConnectView() {
  const widget = useWidget()
  const t = useTranslate()
  const wallet = useStoreSelector(widget.router.store, (s) => s.data?.wallet) as WalletListingEntry | undefined
  const uri = useWidgetState((s) => s.wcUri)
  usePairing(widget, wallet)
  if (!wallet) return null
  const links = [
    { key: 'openMobile', link: wallet.mobile_link, target: undefined },
    { key: 'openDesktop', link: wallet.desktop_link, target: undefined },
    { key: 'openWebapp', link: wallet.webapp_link, target: '_blank' },
  ] as const
  return (
    <div className="account">
      <WalletIcon src={wallet.image_id ? widget.walletImageUrl(wallet.image_id) : undefined} name={wallet.name} size={64} />
      {uri
        ? links.map(({ key, link, target }) => {
            const href = link ? walletDeepLink(link, uri) : undefined
            if (!href || !link) return null
            return (
              <a
                key={key}
                className="button"
                href={href}
                target={target}
                rel={target ? 'noreferrer noopener' : undefined}
                onClick={() => widget.walletConnect?.setLinking({ name: wallet.name, href: link })}
              >
                {t(`walletConnect.${key}`, { wallet: wallet.name })}
              </a>
            )
          })
        : null}
      <Pairing hint={t('walletConnect.orScan', { wallet: wallet.name })} />
    </div>
  )
}
