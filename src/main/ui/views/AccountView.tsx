import { useState } from 'react'
import { useAccount, useBalance, useNetwork } from '../../react/hooks'
import { useWidget, useWidgetState } from '../../react/WidgetProvider'
import { formatBalance, shortenAddress } from '../../../shared/protocol/display'
import { localizeDecimal } from '../i18n/formatNumber'
import { useLocale, useTranslate } from '../useTranslate'
import { Avatar } from './Avatar'

/** The connected account: avatar, name, address, balance, network, copy, explorer and disconnect. */
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
  const activeNamespace = useWidgetState((s) => s.activeNamespace)
  const namespaces = useWidgetState((s) => s.namespaces)
  if (!address) return null
  const explorer = network.blockExplorers?.default.url
  const otherConnected = (Object.keys(namespaces) as (keyof typeof namespaces)[]).filter((ns) => ns !== activeNamespace && namespaces[ns]?.status === 'connected')
  // Activity and names are EVM's (SPEC §9); sending is EVM's and Solana's.
  const isEvm = activeNamespace === 'eip155'
  const canSend = isEvm || activeNamespace === 'solana'
  return (
    <div className="account">
      <Avatar address={address} src={profileImage} />
      {profileName ? <span className="balance">{profileName}</span> : null}
      <span className="address" title={address}>
        {shortenAddress(address)}
      </span>
      {wallet ? <span className="muted">{t('account.connectedWith', { wallet: wallet.name })}</span> : null}
      <span className="balance" aria-label={t('account.balance')}>
        {balance
          ? `${localizeDecimal(locale, formatBalance(balance.value, { decimals: balance.decimals }))} ${balance.symbol}`
          : `${localizeDecimal(locale, formatBalance(undefined))} ${network.nativeCurrency.symbol}`}
      </span>
      <div className="actions">
        <button type="button" className="item" onClick={() => widget.router.push('Networks')}>
          <span>{t('account.network')}</span>
          <span className="tag">{network.name}</span>
        </button>
        {otherConnected.map((ns) => (
          <button key={ns} type="button" className="item" onClick={() => widget.setActiveNamespace(ns)}>
            {t('account.switchTo', { family: t(`family.${ns}`) })}
            <span className="tag">{shortenAddress(namespaces[ns]!.address!)}</span>
          </button>
        ))}
        {canSend && widget.config.features.send ? (
          <button type="button" className="item" onClick={() => widget.router.push('Send')}>
            {t('account.send')}
          </button>
        ) : null}
        {widget.config.features.receive ? (
          <button type="button" className="item" onClick={() => widget.router.push('Receive')}>
            {t('account.receive')}
          </button>
        ) : null}
        {isEvm && widget.config.features.history ? (
          <button type="button" className="item" onClick={() => widget.router.push('Activity')}>
            {t('account.activity')}
          </button>
        ) : null}
        {isEvm && config.services?.api && !profileName ? (
          <button type="button" className="item" onClick={() => widget.router.push('RegisterAccountName')}>
            {t('account.registerName')}
          </button>
        ) : null}
        <button
          type="button"
          className="item"
          onClick={() => void navigator.clipboard?.writeText(address).then(() => setCopied(true), () => {})}
        >
          {isCopied ? t('account.copied') : t('account.copy')}
        </button>
        {explorer ? (
          <a className="item" href={`${explorer}/address/${address}`} target="_blank" rel="noreferrer noopener">
            {t('account.explorer')}
          </a>
        ) : null}
        {isEvm ? null : <p className="muted">{t('account.evmOnly')}</p>}
        <button type="button" className="item" onClick={() => widget.disconnect().catch(() => {})}>
          {otherConnected.length > 0 ? `${t('account.disconnect')} · ${t(`family.${activeNamespace}`)}` : t('account.disconnect')}
        </button>
        {otherConnected.length > 0 ? (
          <button type="button" className="item" onClick={() => widget.disconnect('all').catch(() => {})}>
            {t('account.disconnectAll')}
          </button>
        ) : null}
      </div>
    </div>
  )
}
