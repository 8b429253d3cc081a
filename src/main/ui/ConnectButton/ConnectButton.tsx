import { useAccount, useBalance } from '../../react/hooks'
import { useWidget, useWidgetState } from '../../react/WidgetProvider'
import { formatBalance, shortenAddress } from '../../../shared/protocol/display'
import { prefetchModal } from '../WidgetModal'
import { ShadowRoot } from '../ShadowRoot'
import { buttonCatalogues, widgetLocale } from '../i18n/buttons'
import { localizeDecimal } from '../i18n/formatNumber'

/** The button a page shows: "Connect Wallet", or the account with its balance once connected. Opens the modal. */
export function ConnectButton() {
  const widget = useWidget()
  const locale = widgetLocale(widget.config.locale)
  const messages = buttonCatalogues[locale]
  const { status, address } = useAccount()
  const balance = useBalance()
  const themeMode = useWidgetState((s) => s.themeMode)
  const isConnected = status === 'connected' && address
  return (
    <ShadowRoot themeMode={themeMode} themeVariables={widget.config.themeVariables} nonce={widget.config.cspNonce}>
      <button
        type="button"
        className="button"
        data-variant={isConnected ? 'account' : 'connect'}
        onClick={() => widget.open()}
        onPointerEnter={() => prefetchModal(widget)}
        onFocus={() => prefetchModal(widget)}
      >
        {isConnected ? (
          <>
            {balance ? <span>{`${localizeDecimal(locale, formatBalance(balance.value, { decimals: balance.decimals }))} ${balance.symbol}`}</span> : null}
            <span>{shortenAddress(address)}</span>
          </>
        ) : status === 'connecting' || status === 'reconnecting' ? (
          messages.connecting
        ) : (
          messages.connectWallet
        )}
      </button>
    </ShadowRoot>
  )
}
