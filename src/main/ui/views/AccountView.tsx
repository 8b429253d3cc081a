import { useState, type ReactNode } from 'react'
import { useAccount, useBalance, useNetwork } from '../../react/hooks'
import { onDemand } from '../onDemand'
import { useWidget, useWidgetState } from '../../react/WidgetProvider'
import { formatBalance, shortenAddress } from '../../../shared/protocol/display'
import { localizeDecimal } from '../i18n/formatNumber'
import { Glyph } from '../Modal/Glyph'
import { useLocale, useTranslate } from '../useTranslate'
import { Avatar } from './Avatar'
import { NetworkIcon } from './NetworkIcon'
import { ReservedBalance } from './ReservedBalance'
import { WalletIcon } from './WalletIcon'
import { AUTH_CONNECTOR_ID } from '../../connectors/auth/authConnectorId'

// The embedded wallet's account-type row and its words load only where there is one.
const accountTypeRow = onDemand(() => import('./AccountTypeRow'))

/** A row's leading icon: a line glyph, or any image (the network's). */
const RowIcon = ({ children }: { children: ReactNode }) => (
  <span className="row-icon" aria-hidden="true">
    {children}
  </span>
)

/** An Account row that opens another view: its icon, its words, what it shows now, and a chevron. */
function Row({ icon, label, value, isNavigation = false, onClick }: { icon: ReactNode; label: string; value?: ReactNode; isNavigation?: boolean; onClick: () => void }) {
  return (
    <button type="button" className="item row" onClick={onClick}>
      <RowIcon>{icon}</RowIcon>
      <span className="row-label">{label}</span>
      {value !== undefined ? <span className="tag">{value}</span> : null}
      {isNavigation ? <Glyph name="chevronRight" /> : null}
    </button>
  )
}

/** One of the account's first actions (Buy, Swap, Send, Receive): a round icon over its name. */
function QuickAction({ glyph, label, onClick }: { glyph: 'buy' | 'swap' | 'send' | 'receive'; label: string; onClick: () => void }) {
  return (
    <button type="button" className="quick-action" onClick={onClick}>
      <RowIcon>
        <Glyph name={glyph} />
      </RowIcon>
      {label}
    </button>
  )
}

/**
 * The connected account: avatar, name, address, balance, the wallet; what moves money (Buy, Swap, Send, Receive) as
 * round buttons; rows for the rest; Copy address, the explorer and Disconnect side by side at the foot.
 */
export function AccountView() {
  const widget = useWidget()
  const config = widget.config
  const t = useTranslate()
  const locale = useLocale()
  const { address } = useAccount()
  const balance = useBalance()
  const { network } = useNetwork()
  const [isCopied, setCopied] = useState(false)
  const profileName = useWidgetState((s) => s.profileName)
  const profileImage = useWidgetState((s) => s.profileImage)
  const wallet = useWidgetState((s) => s.connectedWalletInfo)
  const connectorId = useWidgetState((s) => s.connectorId)
  const connectors = useWidgetState((s) => s.connectors)
  const activeNamespace = useWidgetState((s) => s.activeNamespace)
  const namespaces = useWidgetState((s) => s.namespaces)
  if (!address) return null
  const explorer = network.blockExplorers?.default.url
  const otherConnected = (Object.keys(namespaces) as (keyof typeof namespaces)[]).filter((ns) => ns !== activeNamespace && namespaces[ns]?.status === 'connected')
  const walletLogo = connectors.find((c) => c.id === connectorId && c.namespace === activeNamespace)?.imageUrl
  // Activity and names are EVM's (SPEC §9); token balances and sending are EVM's, Solana's, Bitcoin's and Polkadot's.
  const isEvm = activeNamespace === 'eip155'
  const canSend = isEvm || activeNamespace === 'solana' || activeNamespace === 'bip122' || activeNamespace === 'polkadot'
  const go = (view: 'Networks' | 'Tokens' | 'Swap' | 'Buy' | 'Send' | 'Receive' | 'Activity' | 'RegisterAccountName' | 'EmailChange') => () => widget.router.push(view)
  // An e-mail login (the auth connector, with the address it signed in with) can change its address (SPEC §7).
  const email = widget.auth && connectorId === AUTH_CONNECTOR_ID ? widget.storage.get('email') : undefined
  // The embedded wallet's EVM account: its smart account or its key's own, switched here (SPEC §6).
  const embedded = activeNamespace === 'eip155' && connectorId === AUTH_CONNECTOR_ID ? namespaces.eip155?.embeddedWalletInfo : undefined
  const quickActions = (
    [
      ['buy', t('view.Buy'), 'Buy', (isEvm || activeNamespace === 'solana') && config.features.onramp && config.services?.api],
      ['swap', t('account.swap'), 'Swap', isEvm && config.features.swaps && config.services?.api],
      ['send', t('account.send'), 'Send', canSend && config.features.send],
      ['receive', t('account.receive'), 'Receive', config.features.receive],
    ] as const
  ).filter(([, , , isOffered]) => isOffered)
  return (
    <div className="account">
      <Avatar address={address} src={profileImage} />
      <div className="identity">
        {profileName ? <span className="profile-name">{profileName}</span> : null}
        <span className={profileName ? 'address-line' : 'address'} title={address}>
          {shortenAddress(address)}
        </span>
        <span className="balance" aria-label={t('account.balance')}>
          {balance
            ? `${localizeDecimal(locale, formatBalance(balance.value, { decimals: balance.decimals }))} ${balance.symbol}`
            : `${localizeDecimal(locale, formatBalance(undefined))} ${network.nativeCurrency.symbol}`}
        </span>
        {activeNamespace === 'polkadot' ? <ReservedBalance /> : null}
      </div>
      {wallet ? (
        <span className="wallet-line">
          <WalletIcon src={walletLogo} name={wallet.name} size={16} />
          <span>{t('account.connectedWith', { wallet: wallet.name })}</span>
        </span>
      ) : null}
      {email ? <p className="muted">{t('account.email', { email })}</p> : null}
      {quickActions.length > 0 ? (
        <div className="quick-actions">
          {quickActions.map(([glyph, label, view]) => (
            <QuickAction key={view} glyph={glyph} label={label} onClick={go(view)} />
          ))}
        </div>
      ) : null}
      <div className="actions">
        <Row icon={<NetworkIcon network={network} size={20} />} label={t('account.network')} value={network.name} isNavigation onClick={go('Networks')} />
        {embedded ? (
          <accountTypeRow.View
            info={embedded}
            locale={locale}
            icon={
              <RowIcon>
                <Glyph name="switch" />
              </RowIcon>
            }
            onSwitch={async (type) => widget.auth?.setPreferredAccountType(type)}
          />
        ) : null}
        {otherConnected.map((ns) => (
          <Row key={ns} icon={<Glyph name="switch" />} label={t('account.switchTo', { family: t(`family.${ns}`) })} value={shortenAddress(namespaces[ns]!.address!)} onClick={() => widget.setActiveNamespace(ns)} />
        ))}
        {canSend ? <Row icon={<Glyph name="tokens" />} label={t('account.tokens')} isNavigation onClick={go('Tokens')} /> : null}
        {email ? <Row icon={<Glyph name="name" />} label={t('account.changeEmail')} isNavigation onClick={go('EmailChange')} /> : null}
        {isEvm && config.features.history ? <Row icon={<Glyph name="activity" />} label={t('account.activity')} isNavigation onClick={go('Activity')} /> : null}
        {isEvm && config.services?.api && !profileName ? <Row icon={<Glyph name="name" />} label={t('account.registerName')} isNavigation onClick={go('RegisterAccountName')} /> : null}
      </div>
      {isEvm ? null : <p className="muted">{t('account.evmOnly')}</p>}
      <div className="account-footer">
        <Row
          icon={<Glyph name={isCopied ? 'check' : 'copy'} />}
          label={isCopied ? t('account.copied') : t('account.copy')}
          onClick={() => void navigator.clipboard?.writeText(address).then(() => setCopied(true), () => {})}
        />
        {explorer ? (
          <a className="item row" href={`${explorer}/address/${address}`} target="_blank" rel="noreferrer noopener">
            <RowIcon>
              <Glyph name="explorer" />
            </RowIcon>
            <span className="row-label">{t('account.explorer')}</span>
          </a>
        ) : null}
        <Row
          icon={<Glyph name="disconnect" />}
          label={otherConnected.length > 0 ? `${t('account.disconnect')} · ${t(`family.${activeNamespace}`)}` : t('account.disconnect')}
          onClick={() => widget.disconnect().catch(() => {})}
        />
        {otherConnected.length > 0 ? <Row icon={<Glyph name="disconnect" />} label={t('account.disconnectAll')} onClick={() => widget.disconnect('all').catch(() => {})} /> : null}
      </div>
    </div>
  )
}
