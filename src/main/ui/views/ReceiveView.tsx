import { useState } from 'react'
import { useAccount, useNetwork } from '../../react/hooks'
import { QrCode } from '../QrCode'
import { useTranslate } from '../useTranslate'

type Purpose = 'payment' | 'ordinals'

/**
 * The address to receive on, with its QR code (drawn as SVG rectangles, never as markup from elsewhere). On Bitcoin the
 * QR holds a BIP-21 `bitcoin:` URI, and a wallet that gave an ordinals address besides its payment one (the bip122
 * adapter lists it second) shows either, chosen by purpose.
 */
export function ReceiveView() {
  const t = useTranslate()
  const { address, allAccounts } = useAccount()
  const { network } = useNetwork()
  const [purpose, setPurpose] = useState<Purpose>('payment')
  const [isCopied, setCopied] = useState(false)
  if (!address) return null
  const isBitcoin = network.chainNamespace === 'bip122'
  const ordinals = isBitcoin && allAccounts[1] && allAccounts[1] !== address ? allAccounts[1] : undefined
  const shown = purpose === 'ordinals' && ordinals ? ordinals : address
  const choose = (next: Purpose) => {
    setPurpose(next)
    setCopied(false)
  }
  return (
    <div className="account">
      <p className="muted">{t('receive.explain', { network: network.name })}</p>
      {ordinals ? (
        <div className="actions" role="group" aria-label={t('receive.purpose')}>
          {(['payment', 'ordinals'] as const).map((p) => (
            <button key={p} type="button" className="item" aria-pressed={purpose === p} onClick={() => choose(p)}>
              {t(`receive.${p}`)}
            </button>
          ))}
        </div>
      ) : null}
      <QrCode value={isBitcoin ? `bitcoin:${shown}` : shown} label={t('receive.qr')} />
      <code className="muted">{shown}</code>
      <button type="button" className="item" onClick={() => void navigator.clipboard?.writeText(shown).then(() => setCopied(true), () => {})}>
        {isCopied ? t('account.copied') : t('account.copy')}
      </button>
    </div>
  )
}
