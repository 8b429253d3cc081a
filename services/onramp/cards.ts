// The checkout form's card fields, checked as a card processor would, and Stripe's documented test cards.

/** What a test card does when paid with: Stripe's documented numbers (https://docs.stripe.com/testing). */
export const testCards: Readonly<Record<string, 'succeeds' | 'declined'>> = {
  '4242424242424242': 'succeeds',
  '5555555555554444': 'succeeds',
  '4000000000000002': 'declined',
}

/** The sentence a Luhn-valid card that is no test card gets: the sandbox takes test cards only. */
export const TEST_CARDS_SENTENCE =
  'This sandbox takes test cards only: 4242 4242 4242 4242 or 5555 5555 5555 4444 to pay, 4000 0000 0000 0002 to see a declined card. No real card is ever charged.'

/** The card number's digits, spaces and dashes between groups dropped. */
export const cardDigits = (cardNumber: string) => cardNumber.replace(/[\s-]/g, '')

/**
 * Whether a string of digits passes the Luhn check (ISO/IEC 7812): 1. from the rightmost digit leftwards, double every
 * second digit; 2. subtract 9 from a doubled digit over 9; 3. the sum of all must be a multiple of 10.
 * @example isLuhnValid('4242424242424242') // true
 */
export function isLuhnValid(digits: string): boolean {
  if (!/^\d+$/.test(digits)) return false
  let sum = 0
  for (let index = 0; index < digits.length; index++) {
    let digit = Number(digits[digits.length - 1 - index])
    if (index % 2 === 1) {
      digit *= 2
      if (digit > 9) digit -= 9
    }
    sum += digit
  }
  return sum % 10 === 0
}

export type CardFields = { cardNumber: string; expiry: string; cvc: string; name: string }
export type CardField = keyof CardFields

/** A card as the form sent it, checked: its digits, or a sentence per field at fault. */
export type CheckedCard = { ok: true; digits: string } | { ok: false; errors: Partial<Record<CardField, string>> }

// Control characters (C0, DEL, C1) and the Unicode line separators: a name holds none.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/

/**
 * Checks the checkout form's card fields as a processor would, each with a sentence for the visitor: the number's
 * digits (12–19) with Luhn, the expiry MM/YY (or MM/YYYY) not past at `now` (a card is good through the end of its
 * month, UTC), a CVC of 3 or 4 digits, a name of 1 to 100 characters.
 * @example checkCard({ cardNumber: '4242 4242 4242 4242', expiry: '12/34', cvc: '123', name: 'Ada' }, Date.now())
 */
export function checkCard(fields: CardFields, now: number): CheckedCard {
  const errors: Partial<Record<CardField, string>> = {}
  const digits = cardDigits(fields.cardNumber)
  if (!digits) errors.cardNumber = 'Enter the card number.'
  else if (!/^\d{12,19}$/.test(digits)) errors.cardNumber = 'The card number must be 12 to 19 digits.'
  else if (!isLuhnValid(digits)) errors.cardNumber = 'The card number is not valid: check it for a mistyped digit.'

  const expiry = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(fields.expiry)
  if (!fields.expiry.trim()) errors.expiry = 'Enter the expiry date.'
  else if (!expiry || Number(expiry[1]) < 1 || Number(expiry[1]) > 12) errors.expiry = 'Enter the expiry date as MM/YY, like 04/29.'
  else {
    const month = Number(expiry[1])
    const year = expiry[2]!.length === 2 ? 2000 + Number(expiry[2]) : Number(expiry[2])
    // The first instant after the card's last month.
    if (Date.UTC(year, month, 1) <= now) errors.expiry = 'The card has expired.'
  }

  if (!fields.cvc.trim()) errors.cvc = 'Enter the security code (CVC).'
  else if (!/^\d{3,4}$/.test(fields.cvc.trim())) errors.cvc = 'The security code (CVC) must be 3 or 4 digits.'

  const name = fields.name.trim()
  if (!name) errors.name = 'Enter the name on the card.'
  else if (name.length > 100) errors.name = 'The name on the card must be at most 100 characters.'
  else if (CONTROL.test(name)) errors.name = 'The name on the card must be plain text.'

  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, digits }
}
