import { describe, expect, it } from 'vitest'
import { checkCard, isLuhnValid, testCards } from './cards'

const NOW = Date.UTC(2026, 4, 15) // 15 May 2026
const valid = { cardNumber: '4242 4242 4242 4242', expiry: '12/30', cvc: '123', name: 'Ada Lovelace' }

describe('isLuhnValid', () => {
  it.each([
    ['4242424242424242', true],
    ['5555555555554444', true],
    ['4000000000000002', true],
    ['4111111111111111', true],
    ['79927398713', true],
    ['4242424242424241', false],
    ['79927398710', false],
    ['', false],
    ['4242x42424242424', false],
  ])('%s → %s', (digits, expected) => expect(isLuhnValid(digits)).toBe(expected))

  it('passes every documented test card', () => {
    for (const number of Object.keys(testCards)) expect(isLuhnValid(number)).toBe(true)
  })
})

describe('checkCard', () => {
  it('takes a valid card, spaces and dashes in its number, the expiry as MM/YY or MM/YYYY', () => {
    expect(checkCard(valid, NOW)).toEqual({ ok: true, digits: '4242424242424242' })
    expect(checkCard({ ...valid, cardNumber: '4242-4242-4242-4242', expiry: ' 5 / 2026 ', cvc: '1234' }, NOW)).toEqual({ ok: true, digits: '4242424242424242' })
  })

  it('takes a card through the last day of its month, and refuses it from the first instant of the next', () => {
    expect(checkCard({ ...valid, expiry: '05/26' }, Date.UTC(2026, 4, 31, 23, 59, 59)).ok).toBe(true)
    expect(checkCard({ ...valid, expiry: '05/26' }, Date.UTC(2026, 5, 1))).toEqual({ ok: false, errors: { expiry: 'The card has expired.' } })
  })

  it.each([
    ['an empty number', { cardNumber: ' ' }, { cardNumber: 'Enter the card number.' }],
    ['a short number', { cardNumber: '42424242' }, { cardNumber: 'The card number must be 12 to 19 digits.' }],
    ['letters in the number', { cardNumber: '4242 4242 4242 424a' }, { cardNumber: 'The card number must be 12 to 19 digits.' }],
    ['a mistyped digit', { cardNumber: '4242 4242 4242 4241' }, { cardNumber: 'The card number is not valid: check it for a mistyped digit.' }],
    ['no expiry', { expiry: '' }, { expiry: 'Enter the expiry date.' }],
    ['month 13', { expiry: '13/30' }, { expiry: 'Enter the expiry date as MM/YY, like 04/29.' }],
    ['month 0', { expiry: '00/30' }, { expiry: 'Enter the expiry date as MM/YY, like 04/29.' }],
    ['an expiry without a slash', { expiry: '1230' }, { expiry: 'Enter the expiry date as MM/YY, like 04/29.' }],
    ['a past expiry', { expiry: '04/26' }, { expiry: 'The card has expired.' }],
    ['a CVC of 2 digits', { cvc: '12' }, { cvc: 'The security code (CVC) must be 3 or 4 digits.' }],
    ['a CVC of 5 digits', { cvc: '12345' }, { cvc: 'The security code (CVC) must be 3 or 4 digits.' }],
    ['no CVC', { cvc: '' }, { cvc: 'Enter the security code (CVC).' }],
    ['no name', { name: '   ' }, { name: 'Enter the name on the card.' }],
    ['a name of 101 characters', { name: 'a'.repeat(101) }, { name: 'The name on the card must be at most 100 characters.' }],
    ['a name with a newline', { name: 'Ada\nLovelace' }, { name: 'The name on the card must be plain text.' }],
  ])('refuses %s with a sentence for that field alone', (_, fields, errors) => {
    expect(checkCard({ ...valid, ...fields }, NOW)).toEqual({ ok: false, errors })
  })

  it('names every field at fault at once', () => {
    const checked = checkCard({ cardNumber: '', expiry: '', cvc: '', name: '' }, NOW)
    expect(checked.ok).toBe(false)
    expect(Object.keys(checked.ok ? {} : checked.errors)).toEqual(['cardNumber', 'expiry', 'cvc', 'name'])
  })
})
