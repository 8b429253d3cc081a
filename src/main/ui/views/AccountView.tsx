import { useState } from 'react'
import { useAccount, useBalance, useNetwork } from '../../react/hooks'
import { useWidget, useWidgetState } from '../../react/WidgetProvider'
import { formatBalance, shortenAddress } from '../../../shared/protocol/display'
import { useTranslate } from '../useTranslate'
import { Avatar } from './Avatar'

/** The connected account: avatar, name, address, balance, network, copy, explorer and disconnect. */
export function AccountView() {
  const widget = useWidget()
  const config = widget.config
  const t = useTranslate()
  const { address } = useAccount()
  const balance = useBalance()
  const { network } = useNetwork()
  const [isCopied, setCopied] = useState(false)
  const profileName = useWidgetState((s) => s.profileName)
  const profileImage = useWidgetState((s) => s.profileImage)
  const wallet = useWidgetState((s) => s.connectedWalletInfo)
  if (!address) return null
  const explorer = network.blockExplorers?.default.url
  return (
    <div className="account">
      <Avatar address={address} src={profileImage} />
      {profileName ? <span className="balance">{profileName}</span> : null}
      <span className="address" title={address}>
        {shortenAddress(address)}
      </span>
      {wallet ? <span className="muted">{t('account.connectedWith', { wallet: wallet.name })}</span> : null}
      <span className="balance" aria-label={t('account.balance')}>
        {balance ? `${formatBalance(balance.value, { decimals: balance.decimals })} ${balance.symbol}` : `0.000 ${network.nativeCurrency.symbol}`}
      </span>
      <div className="actions">
        <button type="button" className="item" onClick={() => widget.router.push('Networks')}>
          <span>{t('account.network')}</span>
          <span className="tag">{network.name}</span>
        </button>
        {widget.config.features.send ? (
          <button type="button" className="item" onClick={() => widget.router.push('Send')}>
            {t('account.send')}
          </button>
        ) : null}
        {widget.config.features.receive ? (
          <button type="button" className="item" onClick={() => widget.router.push('Receive')}>
            {t('account.receive')}
          </button>
        ) : null}
        {widget.config.features.history ? (
          <button type="button" className="item" onClick={() => widget.router.push('Activity')}>
            {t('account.activity')}
          </button>
        ) : null}
        {config.services?.api && !profileName ? (
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
        <button type="button" className="item" onClick={() => widget.disconnect().catch(() => {})}>
          {t('account.disconnect')}
        </button>
      </div>
    </div>
  )
}
