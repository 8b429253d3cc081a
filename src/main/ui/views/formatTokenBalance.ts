import { formatTokenQuantity } from '../../../shared/protocol/display'
import { localizeDecimal } from '../i18n/formatNumber'

/**
 * A token balance as the send form lists it: truncated to the 3 decimals of SPEC §5 and written in the locale's
 * digits. A balance that is not zero but shows as 0.000 is '< 0.001', so a dust balance never reads as nothing.
 * @example formatTokenBalance('fr', '12345.6789') // '12 345,678'; formatTokenBalance('en', '0.0004') // '< 0.001'
 */
export function formatTokenBalance(locale: string, numeric: string): string {
  const cut = formatTokenQuantity(numeric)
  const isDust = /^0\.000$/.test(cut) && !/^0*(\.0*)?$/.test(numeric)
  return isDust ? `< ${localizeDecimal(locale, '0.001')}` : localizeDecimal(locale, cut)
}
