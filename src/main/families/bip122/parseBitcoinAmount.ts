import { parseUnits } from '../../../shared/protocol/display'
import { createWidgetError } from '../../../shared/protocol/errors'

/** BTC has 8 decimals: 1 BTC is 100,000,000 sats. */
export const BTC_DECIMALS = 8
/** No amount is more than the 21 million BTC there will ever be. */
export const MAX_SATS = 2_100_000_000_000_000n

/**
 * A BTC amount as the send form holds it ('0.1', digits with an optional fraction), in sats. Anything else, zero, more
 * than 8 decimals or more than 21 million BTC is BITCOIN_AMOUNT_INVALID, its sentence saying what an amount must be.
 * @example parseBitcoinAmount('0.1') // 10000000n; parseBitcoinAmount('0.000000001') throws
 */
export function parseBitcoinAmount(text: string | undefined): bigint {
  const trimmed = typeof text === 'string' ? text.trim() : ''
  const invalid = (details: string) => createWidgetError('BITCOIN_AMOUNT_INVALID', { field: 'amount', details })
  if (!/^\d+(\.\d+)?$/.test(trimmed)) throw invalid(`"${trimmed.slice(0, 40)}" is not an amount: digits with an optional fraction`)
  const fraction = (trimmed.split('.')[1] ?? '').replace(/0+$/, '')
  if (fraction.length > BTC_DECIMALS) throw invalid(`"${trimmed}" has more than ${BTC_DECIMALS} decimals`)
  const sats = parseUnits(`${trimmed.split('.')[0]}${fraction ? `.${fraction}` : ''}`, BTC_DECIMALS)
  if (sats <= 0n) throw invalid('The amount must be more than zero')
  if (sats > MAX_SATS) throw invalid('The amount is more than 21 million BTC')
  return sats
}
