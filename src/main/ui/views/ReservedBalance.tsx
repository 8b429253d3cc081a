import { useEffect, useState } from 'react'
import { useBalance, useNetwork } from '../../react/hooks'
import { useWidget, useWidgetState } from '../../react/WidgetProvider'
import { formatBalance } from '../../../shared/protocol/display'
import { localizeDecimal } from '../i18n/formatNumber'
import { useLocale, useTranslate } from '../useTranslate'

/**
 * A Polkadot account's reserved balance (deposits, bonds): held by the chain, counted as the account's but not
 * spendable, so shown beside the free balance the Account view leads with. Read again whenever the free balance moves.
 */
export function ReservedBalance() {
  const widget = useWidget()
  const t = useTranslate()
  const locale = useLocale()
  const address = useWidgetState((s) => s.address)
  const { network } = useNetwork()
  const free = useBalance()?.value
  const [reserved, setReserved] = useState<{ key: string; value: bigint }>()
  const key = `${network.caipNetworkId}:${address ?? ''}`
  useEffect(() => {
    const core = widget.core
    if (!core || !address || network.chainNamespace !== 'polkadot') return
    let isCurrent = true
    core.polkadot.getBalance({ caipNetworkId: network.caipNetworkId, address }).then(
      (balance) => isCurrent && setReserved({ key, value: balance.reserved }),
      () => {},
    )
    return () => {
      isCurrent = false
    }
  }, [widget, network, address, key, free])
  if (reserved?.key !== key) return null
  const { symbol, decimals } = network.nativeCurrency
  return (
    <span className="muted reserved-balance">
      {t('account.reserved', { amount: `${localizeDecimal(locale, formatBalance(reserved.value, { decimals }))} ${symbol}` })}
    </span>
  )
}
