export type RelativeTime = { value: number; unit: 'second' | 'minute' | 'hour' | 'day' | 'month' | 'year'; isFuture: boolean }

/**
 * How long ago (or ahead) `fromMs` is, in the unit the usual thresholds pick (SPEC §9): seconds up to 44 s, a minute up
 * to 89 s, then minutes up to 44 min, an hour up to 89 min, hours up to 21 h, a day up to 35 h, days up to 25 d, a month
 * up to 45 d, months up to 319 d, a year up to 547 d, then years. Each locale words it (formatRelativeTime: English).
 */
export function relativeTime(fromMs: number, nowMs: number): RelativeTime {
  const seconds = Math.round(Math.abs(nowMs - fromMs) / 1_000)
  const isFuture = fromMs > nowMs
  const minutes = Math.round(seconds / 60)
  const hours = Math.round(minutes / 60)
  const days = Math.round(hours / 24)
  const at = (value: number, unit: RelativeTime['unit']): RelativeTime => ({ value, unit, isFuture })
  if (seconds <= 44) return at(seconds, 'second')
  if (seconds <= 89) return at(1, 'minute')
  if (minutes <= 44) return at(minutes, 'minute')
  if (minutes <= 89) return at(1, 'hour')
  if (hours <= 21) return at(hours, 'hour')
  if (hours <= 35) return at(1, 'day')
  if (days <= 25) return at(days, 'day')
  if (days <= 45) return at(1, 'month')
  if (days <= 319) return at(Math.round(days / 30.4), 'month')
  if (days <= 547) return at(1, 'year')
  return at(Math.round(days / 365), 'year')
}

/** Relative time in English with the thresholds of relativeTime (SPEC §9): "a few seconds ago", "a minute ago", "in 3 days". */
export function formatRelativeTime(fromMs: number, nowMs: number): string {
  const { value, unit, isFuture } = relativeTime(fromMs, nowMs)
  // The thresholds make 1 the only singular: "a minute", "an hour"; a second or none is "a few seconds".
  const text = unit === 'second' && value <= 1 ? 'a few seconds' : value === 1 ? `${unit === 'hour' ? 'an' : 'a'} ${unit}` : `${value} ${unit}s`
  return isFuture ? `in ${text}` : `${text} ago`
}

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
