import { describe, expect, it, vi } from 'vitest'
import { errorTable, type ErrorCode } from '../../../shared/protocol/errorTable'
import { views } from '../../state/views'
import { buttonCatalogues } from './buttons'
import { buyCatalogues, translateBuy, type BuyMessageKey } from './buyCatalogues'
import { swapCatalogues, translateSwap, type SwapMessageKey } from './swapCatalogues'
import { en, type MessageKey } from './en'
import { localizeDecimal, formatUsdValue } from './formatNumber'
import { localizeRelativeTime } from './formatRelativeTime'
import { reviewEn } from './reviewEn'
import { translateReview } from './translateReview'
import { widgetLocales } from '../../widget/locale'
import { loadedLocales, loadLocale } from './loadLocale'
import { pickLocale, translate, translateError, translateFrom, type Catalogues } from './translate'

// Every locale but English loads in chunks of its own (loadLocale): here, all of them first.
await Promise.all(widgetLocales.map((locale) => loadLocale(locale)))
const catalogues: Catalogues<MessageKey> = { en, ...Object.fromEntries(Object.entries(loadedLocales).map(([locale, sentences]) => [locale, sentences.messages])) }
const reviewCatalogues: Catalogues<keyof typeof reviewEn> = { en: reviewEn, ...Object.fromEntries(Object.entries(loadedLocales).map(([locale, sentences]) => [locale, sentences.review])) }
const errorCatalogues: Record<string, Partial<Record<ErrorCode, string>>> = Object.fromEntries(Object.entries(loadedLocales).map(([locale, sentences]) => [locale, sentences.errors]))

const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort()
/** Keys one catalogue has and the other lacks, both ways. */
const keyDiff = (reference: object, other: object) => ({
  missing: Object.keys(reference).filter((key) => !Object.hasOwn(other, key)),
  extra: Object.keys(other).filter((key) => !Object.hasOwn(reference, key)),
})
const locales = widgetLocales.filter((locale) => locale !== 'en')

describe('locales loaded on demand', () => {
  it('speaks English until a locale’s words are loaded, then that locale, for the modal and its errors alike', async () => {
    vi.resetModules()
    const fresh = { ...(await import('./translate')), ...(await import('./loadLocale')) }
    expect(fresh.isLocaleLoaded('fr')).toBe(false)
    expect(fresh.translate('fr', 'connecting.prompt', { wallet: 'Dev' })).toBe(en['connecting.prompt'].replace('{wallet}', 'Dev'))
    expect(fresh.translateError('fr', { code: 'TRANSACTION_STARTED', message: 'Transaction started' })).toBe('Transaction started')
    await Promise.all([fresh.loadLocale('fr'), fresh.loadLocale('fr')])
    expect(fresh.isLocaleLoaded('fr')).toBe(true)
    expect(fresh.translate('fr', 'connecting.prompt', { wallet: 'Dev' })).toBe('Acceptez la demande de connexion dans Dev.')
    expect(fresh.translateError('fr', { code: 'TRANSACTION_STARTED', message: 'Transaction started' })).toBe('Transaction lancée')
  })

  it('keeps English when a locale’s chunk cannot load, and tries again on the next call', async () => {
    vi.resetModules()
    vi.doMock('./frErrors', () => {
      throw new Error('offline')
    })
    const fresh = { ...(await import('./translate')), ...(await import('./loadLocale')) }
    await expect(fresh.loadLocale('fr')).resolves.toBeUndefined()
    expect(fresh.isLocaleLoaded('fr')).toBe(false)
    expect(fresh.translate('fr', 'close')).toBe(en.close)
    vi.doUnmock('./frErrors')
    vi.resetModules()
    const again = { ...(await import('./translate')), ...(await import('./loadLocale')) }
    await again.loadLocale('fr')
    expect(again.translate('fr', 'connecting.prompt', { wallet: 'Dev' })).toBe('Acceptez la demande de connexion dans Dev.')
  })
})

describe('translation', () => {
  it('catches a catalogue that lacks a key English has, or has one English lacks', () => {
    const { close: _close, ...lacking } = en
    expect(keyDiff(en, lacking)).toEqual({ missing: ['close'], extra: [] })
    expect(keyDiff(en, { ...en, 'view.Unknown': 'x' })).toEqual({ missing: [], extra: ['view.Unknown'] })
  })

  it.each(locales)('%s has every key of English, and no other', (locale) => {
    expect(keyDiff(en, catalogues[locale]!)).toEqual({ missing: [], extra: [] })
  })

  it.each(locales)('%s keeps the placeholders of every English message', (locale) => {
    for (const key of Object.keys(en) as MessageKey[]) expect({ key, placeholders: placeholders(catalogues[locale]![key]) }).toEqual({ key, placeholders: placeholders(en[key]) })
  })

  it('has the first-load button in every locale of the catalogues, with the same keys', () => {
    expect(Object.keys(buttonCatalogues).sort()).toEqual(Object.keys(catalogues).sort())
    for (const locale of Object.keys(buttonCatalogues) as (keyof typeof buttonCatalogues)[]) expect(keyDiff(buttonCatalogues.en, buttonCatalogues[locale])).toEqual({ missing: [], extra: [] })
  })

  it('has the Swap view’s words in every locale of the catalogues, with the same keys and placeholders', () => {
    expect(Object.keys(swapCatalogues).sort()).toEqual(Object.keys(catalogues).sort())
    for (const locale of Object.keys(swapCatalogues) as (keyof typeof swapCatalogues)[]) {
      expect(keyDiff(swapCatalogues.en, swapCatalogues[locale])).toEqual({ missing: [], extra: [] })
      for (const key of Object.keys(swapCatalogues.en) as SwapMessageKey[]) expect({ key, placeholders: placeholders(swapCatalogues[locale][key]) }).toEqual({ key, placeholders: placeholders(swapCatalogues.en[key]) })
    }
    expect(translateSwap('fr', 'swap.approve', { symbol: 'TUSD' })).toBe('Autoriser TUSD')
    expect(translateSwap('de', 'swap.approve', { symbol: 'TUSD' })).toBe('Approve TUSD')
  })

  it('has the Buy view’s words in every locale of the catalogues, with the same keys and placeholders', () => {
    expect(Object.keys(buyCatalogues).sort()).toEqual(Object.keys(catalogues).sort())
    for (const locale of Object.keys(buyCatalogues) as (keyof typeof buyCatalogues)[]) {
      expect(keyDiff(buyCatalogues.en, buyCatalogues[locale])).toEqual({ missing: [], extra: [] })
      for (const key of Object.keys(buyCatalogues.en) as BuyMessageKey[]) expect({ key, placeholders: placeholders(buyCatalogues[locale][key]) }).toEqual({ key, placeholders: placeholders(buyCatalogues.en[key]) })
    }
    expect(translateBuy('fr', 'buy.continue', { provider: 'Tessera Sandbox' })).toBe('Continuer avec Tessera Sandbox')
    expect(translateBuy('de', 'buy.continue', { provider: 'Tessera Sandbox' })).toBe('Continue with Tessera Sandbox')
  })

  it.each(locales)('%s has the review’s words (loaded with the locale), with the same keys and placeholders as English', (locale) => {
    const review = reviewCatalogues[locale]!
    expect(keyDiff(reviewEn, review)).toEqual({ missing: [], extra: [] })
    for (const key of Object.keys(reviewEn) as (keyof typeof reviewEn)[]) expect({ key, placeholders: placeholders(review[key]) }).toEqual({ key, placeholders: placeholders(reviewEn[key]) })
  })

  it('titles every view of the modal', () => {
    for (const view of views) expect(Object.keys(en)).toContain(`view.${view}`)
  })

  it.each(locales)('%s says every error of the error table, with its placeholders', (locale) => {
    const table = errorCatalogues[locale] ?? {}
    expect(keyDiff(errorTable, table)).toEqual({ missing: [], extra: [] })
    for (const code of Object.keys(errorTable) as ErrorCode[]) {
      expect({ code, placeholders: placeholders(table[code] ?? '') }).toEqual({ code, placeholders: placeholders(errorTable[code].message) })
    }
  })

  it.each([
    ['fr-CA', 'fr'],
    ['FR', 'fr'],
    ['de-DE', 'en'],
    [undefined, 'en'],
    // The locale comes from the site's parameters before the config is checked: an object's own keys only.
    ['constructor', 'en'],
    ['toString-x', 'en'],
  ])('picks %s → %s', (locale, expected) => expect(pickLocale(locale)).toBe(expected))

  it('fills placeholders with text', () => {
    expect(translate('en', 'connecting.prompt', { wallet: '<b>Dev</b>' })).toBe('Accept the connection request in <b>Dev</b>.')
    expect(translate('fr', 'connecting.prompt', { wallet: 'Dev' })).toBe('Acceptez la demande de connexion dans Dev.')
  })
})

describe('translateFrom: one lookup for every catalogue', () => {
  const greetings = {
    en: { hello: 'Hello {name}', pair: '{a} and {b}, {a} again', plain: 'Plain' },
    fr: { hello: 'Bonjour {name}', pair: '{a} et {b}, encore {a}', plain: 'Simple' },
  } satisfies Catalogues<'hello' | 'pair' | 'plain'>

  it('says the sentence of the exact locale', () => {
    expect(translateFrom(greetings, 'fr', 'plain')).toBe('Simple')
    expect(translateFrom(greetings, 'en', 'plain')).toBe('Plain')
    expect(translateFrom(greetings, 'fr', 'hello', { name: 'Ada' })).toBe('Bonjour Ada')
  })

  // Only an own entry counts, as before the three copies became one: a tag is narrowed to a language by pickLocale
  // (the widget's locale always is), not here; and a name Object.prototype has is English, not a crash.
  it.each(['de', 'fr-CA', 'FR', '', 'constructor', 'toString', 'hasOwnProperty', '__proto__'])('says English for %j, a locale the catalogues have no own entry for', (locale) => {
    expect(translateFrom(greetings, locale, 'hello', { name: 'Ada' })).toBe('Hello Ada')
    expect(translateFrom(greetings, locale, 'plain')).toBe('Plain')
  })

  it('says French for fr-CA once pickLocale has narrowed it to its language', () => {
    expect(translateFrom(greetings, pickLocale('fr-CA'), 'hello', { name: 'Ada' })).toBe('Bonjour Ada')
    expect(translateFrom(greetings, pickLocale('de-DE'), 'hello', { name: 'Ada' })).toBe('Hello Ada')
  })

  it('fills every placeholder, each time it occurs, with text taken as it is', () => {
    expect(translateFrom(greetings, 'fr', 'pair', { a: 'X', b: 'Y' })).toBe('X et Y, encore X')
    // A value is not read as a replacement pattern, nor filled in turn, nor escaped.
    expect(translateFrom(greetings, 'en', 'pair', { a: '$&', b: '{a}' })).toBe('$& and {a}, $& again')
    expect(translateFrom(greetings, 'en', 'hello', { name: '<b>Dev</b>' })).toBe('Hello <b>Dev</b>')
    expect(translateFrom(greetings, 'en', 'hello', { name: '' })).toBe('Hello ')
  })

  it('leaves a placeholder without a value as it is, and ignores values no placeholder asks for', () => {
    expect(translateFrom(greetings, 'fr', 'pair', { a: 'X' })).toBe('X et {b}, encore X')
    expect(translateFrom(greetings, 'en', 'hello')).toBe('Hello {name}')
    expect(translateFrom(greetings, 'en', 'plain', { name: 'Ada' })).toBe('Plain')
  })

  it('takes no catalogue without English, nor a locale that lacks a key: there is no per-key fallback to need', () => {
    // Checked by tsc (the test files are in tsconfig.json): catalogues are complete, which is why a key never falls back alone.
    // @ts-expect-error French lacks 'plain'
    const lacking: Catalogues<'hello' | 'plain'> = { en: { hello: 'Hello', plain: 'Plain' }, fr: { hello: 'Bonjour' } }
    // @ts-expect-error no English
    const noEnglish: Catalogues<'hello'> = { fr: { hello: 'Bonjour' } }
    // @ts-expect-error not a key of these catalogues
    expect(() => translateFrom(greetings, 'en', 'goodbye')).toThrow(TypeError)
    expect([lacking, noEnglish]).toHaveLength(2)
  })

  const families = [
    ['translate', catalogues, translate],
    ['translateSwap', swapCatalogues, translateSwap],
    ['translateBuy', buyCatalogues, translateBuy],
    ['translateReview', reviewCatalogues, translateReview],
  ] as const satisfies readonly (readonly [string, Catalogues<string>, (locale: string, key: never, params?: Record<string, string>) => string])[]

  it.each(families)('%s says every sentence of its catalogues, English where the locale has no own entry', (_name, family, say) => {
    const speak = say as (locale: string, key: string, params?: Record<string, string>) => string
    const all = family as Catalogues<string>
    for (const [locale, picked] of [['en', 'en'], ['fr', 'fr'], ['fr-CA', 'en'], ['de', 'en'], ['constructor', 'en']] as const) {
      for (const key of Object.keys(all.en)) expect({ locale, key, text: speak(locale, key) }).toEqual({ locale, key, text: all[picked]![key] })
    }
  })

  it('fills the placeholders of every family', () => {
    expect(translateSwap('fr', 'swap.rateValue', { from: 'ETH', rate: '3 000', to: 'TUSD' })).toBe('1 ETH = 3 000 TUSD')
    expect(translateBuy('en', 'buy.limits', { min: '$20', max: '$500', method: 'a card' })).toBe('Enter an amount from $20 to $500 for a card.')
    expect(translateReview('fr', 'review.call', { index: '2' })).toBe(reviewCatalogues.fr!['review.call'].replace('{index}', '2'))
    expect(translateReview('fr', 'review.call', { index: '2' })).not.toContain('{index}')
    expect(translateReview('de', 'review.call', { index: '2' })).toBe('Call 2')
    expect(translate('fr-CA', 'connecting.prompt', { wallet: 'Dev' })).toBe('Accept the connection request in Dev.')
  })
})

describe('errors and toasts in the widget’s locale', () => {
  it.each([
    // English is the error table's sentence, word for word (the spec's).
    ['en', { code: 'TRANSACTION_STARTED', message: 'Transaction started' }, 'Transaction started'],
    ['fr', { code: 'TRANSACTION_STARTED', message: 'Transaction started' }, 'Transaction lancée'],
    ['fr', { code: 'NAME_REGISTER_FAILED', params: { name: 'alice' }, message: 'Error registering name alice' }, 'Erreur lors de l’enregistrement du nom alice'],
    ['fr', { code: 'EMAIL_LOGIN_THROTTLED', params: { n: 12 }, message: 'Please try again after 12 seconds' }, 'Veuillez réessayer dans 12 secondes'],
    // A value the sentence needs is missing: the English sentence, already filled, rather than a gap.
    ['fr', { code: 'NAME_REGISTER_FAILED', message: 'Error registering name alice' }, 'Error registering name alice'],
    // No code, or one that is not ours: the text as it is.
    ['fr', { message: 'Nope' }, 'Nope'],
    ['fr', { code: 'constructor', message: 'Nope' }, 'Nope'],
    ['de', { code: 'TRANSACTION_STARTED', message: 'Transaction started' }, 'Transaction started'],
  ])('%s: %j → %s', (locale, notice, text) => expect(translateError(locale, notice)).toBe(text))
})

describe('numbers in the widget’s locale', () => {
  it.each([
    ['en', '10000.000', '10,000.000'],
    ['fr', '10000.000', '10\u202f000,000'],
    ['en', '0.00', '0.00'],
    ['fr', '1.500', '1,500'],
    ['fr', '-0.000005', '-0,000005'],
    // Every digit of a large or long amount, never through a binary float.
    ['en', '123456789012345678901.123456789012345678', '123,456,789,012,345,678,901.123456789012345678'],
    ['en', 'not a number', 'not a number'],
  ])('%s: %s → %s', (locale, value, text) => expect(localizeDecimal(locale, value)).toBe(text))

  it.each([
    ['en', 0.1234, '$0.12'],
    ['en', 1234.5, '$1,234.50'],
    ['fr', 0.1234, '0,12\u00a0$US'],
  ])('dollars in %s: %d → %s', (locale, value, text) => expect(formatUsdValue(locale, value)).toBe(text))

  it.each([
    ['en', 90, '2 minutes ago'],
    ['en', 45, 'a minute ago'],
    ['fr', 90, 'il y a 2 minutes'],
    ['fr', 45, 'il y a 1 minute'],
    ['fr', 1, 'maintenant'],
    ['fr', 36 * 3_600, 'il y a 2 jours'],
  ])('time in %s, %i s ago → %s', (locale, seconds, text) => expect(localizeRelativeTime(locale, 0, seconds * 1_000)).toBe(text))
})
