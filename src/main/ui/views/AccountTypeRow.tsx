import { useState, type ReactNode } from 'react'
import type { EmbeddedWalletInfo } from '../../widget/widgetState'

/** The row's words, loaded with it (only for the embedded wallet), not with the modal; every locale of the catalogues. */
const texts = {
  en: { smartAccount: 'Smart account', eoa: 'Regular account (EOA)', useEoa: 'Switch to EOA', useSmartAccount: 'Switch to smart account' },
  fr: { smartAccount: 'Compte intelligent', eoa: 'Compte classique (EOA)', useEoa: 'Passer en EOA', useSmartAccount: 'Passer au compte intelligent' },
} as const

export type AccountTypeRowProps = {
  info: EmbeddedWalletInfo
  locale: string
  /** The row's leading icon, as Account's other rows draw it. */
  icon: ReactNode
  /** Switches to the other type; the row is busy until it settles. */
  onSwitch: (type: EmbeddedWalletInfo['accountType']) => Promise<void>
}

/**
 * The embedded wallet's EVM account type in Account (SPEC §6): the one in use, and a switch to the other (the frame
 * switches, the login stays, the connection follows the new address). Imports nothing of the modal's, so that it is a
 * chunk of its own, loaded only where there is an embedded wallet.
 */
export default function AccountTypeRow({ info, locale, icon, onSwitch }: AccountTypeRowProps) {
  const say = texts[locale === 'fr' ? 'fr' : 'en']
  const [isSwitching, setSwitching] = useState(false)
  const isSmart = info.accountType === 'smartAccount'
  const switchType = () => {
    if (isSwitching) return
    setSwitching(true)
    void onSwitch(isSmart ? 'eoa' : 'smartAccount')
      .catch(() => {})
      .finally(() => setSwitching(false))
  }
  return (
    <button type="button" className="item row" aria-busy={isSwitching} onClick={switchType}>
      {icon}
      <span className="row-label">{isSmart ? say.smartAccount : say.eoa}</span>
      <span className="tag">{isSmart ? say.useEoa : say.useSmartAccount}</span>
    </button>
  )
}
