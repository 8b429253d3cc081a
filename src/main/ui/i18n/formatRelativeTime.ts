import { formatRelativeTime, relativeTime } from '../../../shared/protocol/display'

/**
 * How long ago `fromMs` was, in `locale`, with the spec's thresholds (SPEC §9): English words it as the spec does
 * ("a minute ago"), other locales through Intl.RelativeTimeFormat ("il y a 1 minute"; a second or less is "now").
 * @example localizeRelativeTime('fr', 0, 90_000) // 'il y a 2 minutes'
 */
export function localizeRelativeTime(locale: string, fromMs: number, nowMs: number): string {
  if (locale === 'en') return formatRelativeTime(fromMs, nowMs)
  const { value, unit, isFuture } = relativeTime(fromMs, nowMs)
  const isNow = unit === 'second' && value <= 1
  return new Intl.RelativeTimeFormat(locale, { numeric: isNow ? 'auto' : 'always' }).format(isNow ? 0 : isFuture ? value : -value, unit)
}
