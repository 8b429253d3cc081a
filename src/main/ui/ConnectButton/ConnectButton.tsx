import { useBalance } from '../../react/hooks'
import { useWidget, useWidgetState } from '../../react/WidgetProvider'
import { formatBalance, shortenAddress } from '../../../shared/protocol/display'
import { prefetchModal } from '../WidgetModal'
import { ShadowRoot } from '../ShadowRoot'
import { widgetLocale } from '../../widget/locale'
import { buttonCatalogues } from '../i18n/buttons'
import { localizeDecimal } from '../i18n/formatNumber'
import { CHEVRON_DOWN_PATH, LineIcon } from '../Modal/LineIcon'
import { Avatar } from '../views/Avatar'
import { ConnectButtonCustom } from './ConnectButtonCustom'

/**
 * The button a page shows: "Connect Wallet", or once connected the account: its balance (on wide screens), its avatar
 * (identity image or colours drawn from the address) and its name or short address. Opens the modal.
 */
export function ConnectButton() {
  const widget = useWidget()
  const { locale: configuredLocale, themeVariables, cspNonce } = widget.uiSettings
  const locale = widgetLocale(configuredLocale)
  const messages = buttonCatalogues[locale]
  // What the button shows, each on its own: the started widget re-renders it for nothing else (its accounts' list, say).
  const status = useWidgetState((s) => s.status)
  const address = useWidgetState((s) => s.address)
  const balance = useBalance()
  const profileName = useWidgetState((s) => s.profileName)
  const profileImage = useWidgetState((s) => s.profileImage)
  const themeMode = useWidgetState((s) => s.themeMode)
  const isConnected = status === 'connected' && address
  return (
    <ShadowRoot themeMode={themeMode} themeVariables={themeVariables} nonce={cspNonce}>
      <button
        type="button"
        className={isConnected ? 'button account-button' : 'button'}
        data-variant={isConnected ? 'account' : 'connect'}
        onClick={() => widget.open()}
        onPointerEnter={() => prefetchModal(widget)}
        onFocus={() => prefetchModal(widget)}
      >
        {isConnected ? (
          <>
            {balance ? <span className="account-balance">{`${localizeDecimal(locale, formatBalance(balance.value, { decimals: balance.decimals }))} ${balance.symbol}`}</span> : null}
            <span className="account-chip">
              <Avatar address={address} src={profileImage} size={24} />
              {profileName ? (
                <>
                  <span className="account-name">{profileName}</span>
                  {/* The name is the account's own words; the address it stands for is said too. */}
                  <span className="visually-hidden">{shortenAddress(address)}</span>
                </>
              ) : (
                <span className="account-name">{shortenAddress(address)}</span>
              )}
              <LineIcon d={CHEVRON_DOWN_PATH} />
            </span>
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

/** The button's data and actions for a site that draws its own (see ConnectButtonCustom). */
ConnectButton.Custom = ConnectButtonCustom
