import { useEffect, useId, useRef, useState } from 'react'
import { useStoreSelector, useWidget, useWidgetState } from '../../react/WidgetProvider'
import { getFeatures } from '../../widget/features'
import { Alert } from '../Alert'
import { useTranslate } from '../useTranslate'
import { RegistryWalletItem } from './RegistryWalletItem'
import { connectWallet, WalletIcon } from './WalletIcon'

/** Every wallet of the registry: search, 40 a page with infinite scroll; installed ones connect, others pair by WalletConnect (or link out without a relay). */
export function AllWalletsView() {
  const widget = useWidget()
  const t = useTranslate()
  const searchId = useId()
  const { wallets: list } = getFeatures(widget)
  const state = useStoreSelector(list.store, (s) => s)
  const connectors = useWidgetState((s) => s.connectors)
  const [search, setSearch] = useState('')
  const sentinel = useRef<HTMLLIElement>(null)

  useEffect(() => void list.search(search), [list, search])
  useEffect(() => {
    const node = sentinel.current
    if (!node || typeof IntersectionObserver === 'undefined') return
    const observer = new IntersectionObserver((entries) => entries.some((e) => e.isIntersecting) && void list.loadMore())
    observer.observe(node)
    return () => observer.disconnect()
  }, [list, state.wallets.length])

  return (
    <div className="actions">
      <label htmlFor={searchId} className="muted">
        {t('allWallets.search')}
      </label>
      <input id={searchId} className="item" type="search" autoComplete="off" value={search} onChange={(e) => setSearch(e.target.value)} />
      <Alert message={state.error} />
      {state.loading && state.wallets.length === 0 ? <p className="muted">{t('allWallets.loading')}</p> : null}
      {!state.loading && state.search && state.wallets.length === 0 ? <p className="muted">{t('allWallets.empty')}</p> : null}
      <ul className="list" aria-label={t('view.AllWallets')}>
        {state.wallets.map((wallet) => {
          const connector = connectors.find((c) => wallet.rdns && c.rdns === wallet.rdns)
          return (
            <li key={wallet.id}>
              {connector ? (
                <button type="button" className="item" onClick={() => connectWallet(widget, connector)}>
                  <WalletIcon src={wallet.image_id ? widget.walletImageUrl(wallet.image_id) : undefined} name={wallet.name} />
                  <span className="row-label">{wallet.name}</span>
                </button>
              ) : (
                <RegistryWalletItem wallet={wallet} />
              )}
            </li>
          )
        })}
        <li ref={sentinel} aria-hidden="true" />
      </ul>
    </div>
  )
}
