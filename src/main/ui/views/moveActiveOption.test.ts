import { describe, expect, it } from 'vitest'
import { moveActiveOption, typeaheadOption } from './moveActiveOption'

describe('the highlighted option of the token list', () => {
  it.each([
    ['ArrowDown', 0, 3, 1],
    ['ArrowDown', 2, 3, 2],
    ['ArrowUp', 1, 3, 0],
    ['ArrowUp', 0, 3, 0],
    ['Home', 2, 3, 0],
    ['End', 0, 3, 2],
    ['PageDown', 1, 20, 6],
    ['PageDown', 18, 20, 19],
    ['PageUp', 3, 20, 0],
    ['Enter', 1, 3, undefined],
    ['a', 1, 3, undefined],
    ['ArrowDown', 0, 0, undefined],
  ])('%s from %i of %i → %s', (key, active, count, expected) => {
    expect(moveActiveOption(key, active, count)).toBe(expected)
  })

  it.each([
    ['t', 0, 1],
    ['t', 1, 2],
    // A letter pressed again cycles through the tokens that start with it.
    ['t', 2, 1],
    ['tt', 1, 2],
    ['tu', 1, 2],
    ['ts', 1, 1],
    ['E', 2, 0],
    ['x', 0, undefined],
  ])('type-ahead %j from %i → %s', (typed, active, expected) => {
    expect(typeaheadOption(['ETH', 'TSR', 'TUSD'], typed, active)).toBe(expected)
  })
})
