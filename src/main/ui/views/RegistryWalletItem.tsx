import type { WalletListingEntry } from '../../../shared/protocol/schemas/entities'
import { useWidget } from '../../react/WidgetProvider'
import { useTranslate } from '../useTranslate'
import { registryWalletLink } from './groupConnectors'
import { WalletIcon } from './WalletIcon'

/**
 * A wallet of the registry that is not installed here: it pairs by WalletConnect when the site has a relay, else
 * links to its https site; otherwise it is shown as not installed. Its name and image are never markup.
 */
export function RegistryWalletItem({ wallet, tag }: { wallet: WalletListingEntry; tag?: string }) {
  const widget = useWidget()
  const t = useTranslate()
  const image = <WalletIcon src={wallet.image_id ? widget.walletImageUrl(wallet.image_id) : undefined} name={wallet.name} />
  const named = (sub: string | undefined) => (
    <span className="row-text">
      <span className="row-label">{wallet.name}</span>
      {sub ? <span className="row-sub">{sub}</span> : null}
    </span>
  )
  if (widget.walletConnect) {
    return (
      <button type="button" className="item" onClick={() => widget.router.push('ConnectingWalletConnect', { wallet })}>
        {image}
        {named(tag)}
      </button>
    )
  }
  const link = registryWalletLink(wallet)
  if (link) {
    return (
      <a className="item" href={link} target="_blank" rel="noreferrer noopener">
        {image}
        {named(tag)}
      </a>
    )
  }
  return (
    <span className="item" aria-disabled="true">
      {image}
      {named(t('allWallets.notInstalled'))}
    </span>
  )
}
