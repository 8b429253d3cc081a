import type { AmountIssue } from '../../families/sendForm'
import type { MessageKey } from '../i18n/en'
import { localizeDecimal } from '../i18n/formatNumber'

type Translate = (key: MessageKey, params?: Record<string, string>) => string

/**
 * The sentence for what is wrong with a typed amount, in the widget's locale (its examples in the locale's digits).
 * @example amountIssueText(t, 'en', { reason: 'zero' }) // 'Enter an amount greater than 0'
 */
export function amountIssueText(t: Translate, locale: string, issue: AmountIssue): string {
  const example = localizeDecimal(locale, '1.5')
  switch (issue.reason) {
    case 'notANumber':
      return t('send.amount.notANumber', { example })
    case 'decimalSeparator':
      return t('send.amount.decimalSeparator', { example })
    case 'negative':
      return t('send.amount.negative')
    case 'zero':
      return t('send.amount.zero')
    case 'tooManyDecimals':
      return t('send.amount.tooManyDecimals', { symbol: issue.symbol, decimals: String(issue.decimals) })
    case 'overBalance':
      return t('send.insufficientFunds', { symbol: issue.symbol })
    case 'noRoomForFee':
      return t('send.amount.noRoomForFee', { symbol: issue.symbol })
  }
}
