import { describe, expect, it } from 'vitest'
import { formatRelativeTime } from './formatRelativeTime'

describe('relative time (SPEC §9)', () => {
  it.each([
    [1, 'a few seconds ago'],
    [2, '2 seconds ago'],
    [44, '44 seconds ago'],
    [45, 'a minute ago'],
    [89, 'a minute ago'],
    [90, '2 minutes ago'],
    [44 * 60, '44 minutes ago'],
    [45 * 60, 'an hour ago'],
    [90 * 60, '2 hours ago'],
    [21 * 3_600, '21 hours ago'],
    [22 * 3_600, 'a day ago'],
    [36 * 3_600, '2 days ago'],
    [25 * 86_400, '25 days ago'],
    [26 * 86_400, 'a month ago'],
    [100 * 86_400, '3 months ago'],
    [400 * 86_400, 'a year ago'],
    [800 * 86_400, '2 years ago'],
  ])('%i seconds → %s', (seconds, text) => expect(formatRelativeTime(0, seconds * 1_000)).toBe(text))

  it('speaks of the future too', () => expect(formatRelativeTime(10_000, 0)).toBe('in 10 seconds'))
})
