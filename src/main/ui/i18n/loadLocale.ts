import type { ErrorCode } from '../../../shared/protocol/errorTable'
import type { WidgetLocale } from '../../widget/locale'
import type { Catalogue } from './en'
import type { ReviewMessageKey } from './reviewEn'
import { retryingImport } from '../../lazy/retryingImport'

const frCode = retryingImport(() => import('./fr'), 'fr')
const frErrorsCode = retryingImport(() => import('./frErrors'), 'frErrors')
const reviewFrCode = retryingImport(() => import('./reviewFr'), 'reviewFr')

type OtherLocale = Exclude<WidgetLocale, 'en'>

/** A locale's sentences: the modal's, the error table's (English is the table itself) and the review's. */
export type LocaleSentences = { messages: Catalogue; errors: Partial<Record<ErrorCode, string>>; review: Record<ReviewMessageKey, string> }

/** Every locale but English comes in chunks of its own: a page in English never holds another locale's sentences. */
const localeChunks: Record<OtherLocale, () => Promise<LocaleSentences>> = {
  fr: () => Promise.all([frCode(), frErrorsCode(), reviewFrCode()]).then(([{ fr }, { frErrors }, { reviewFr }]) => ({ messages: fr, errors: frErrors, review: reviewFr })),
}

/** The locales loaded so far. English is not among them: it is always here (en.ts and the error table). */
export const loadedLocales: Partial<Record<OtherLocale, LocaleSentences>> = {}

const loads = new Map<OtherLocale, Promise<void>>()

export const isLocaleLoaded = (locale: WidgetLocale) => locale === 'en' || Object.hasOwn(loadedLocales, locale)

/**
 * Brings `locale`'s sentences. Never rejects: when its chunks cannot load the widget speaks English, and the next call
 * tries again. The modal and its toasts wait for it (useIsLocaleLoaded), so they never show a mix of two languages.
 */
export function loadLocale(locale: WidgetLocale): Promise<void> {
  if (locale === 'en' || isLocaleLoaded(locale)) return Promise.resolve()
  let load = loads.get(locale)
  if (!load) {
    load = localeChunks[locale]()
      .then((sentences) => void (loadedLocales[locale] = sentences))
      .catch(() => undefined)
      .finally(() => loads.delete(locale))
    loads.set(locale, load)
  }
  return load
}
