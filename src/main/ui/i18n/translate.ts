import type { ErrorCode } from '../../../shared/protocol/errorTable'
import { en, type MessageKey } from './en'
import { loadedLocales, type LocaleSentences } from './loadLocale'

export { pickLocale } from '../../widget/locale'

const fill = (template: string, params: Record<string, string> = {}) => template.replace(/\{(\w+)\}/g, (match, name: string) => params[name] ?? match)

/** A sentence per key, by locale: English always, and it is what any other locale falls back to. */
export type Catalogues<K extends string> = { readonly en: Readonly<Record<K, string>> } & { readonly [locale: string]: Readonly<Record<K, string>> | undefined }

/**
 * `key`'s sentence in `locale` from `catalogues` (the English one when `catalogues` has no own entry for `locale`, so
 * 'fr-CA' or 'constructor' get English: pick the locale first, see pickLocale), its {name} placeholders filled; a
 * placeholder without a value stays as it is. Values are text, never markup. Imports nothing of the catalogues, so
 * the lazy views' words (swapCatalogues.ts, buyCatalogues.ts, reviewEn.ts) stay in their own chunks.
 * @example translateFrom({ en: { hi: 'Hello {name}' }, fr: { hi: 'Bonjour {name}' } }, 'fr', 'hi', { name: 'Ada' }) // 'Bonjour Ada'
 */
export function translateFrom<K extends string>(catalogues: Catalogues<K>, locale: string, key: NoInfer<K>, params: Record<string, string> = {}): string {
  const catalogue = (Object.hasOwn(catalogues, locale) ? catalogues[locale] : undefined) ?? catalogues.en
  return fill(catalogue[key], params)
}

/** `locale`'s sentences when they are loaded (loadLocale); undefined for English, whose sentences are en.ts and the error table. */
const loadedSentences = (locale: string) => (Object.hasOwn(loadedLocales, locale) ? loadedLocales[locale as keyof typeof loadedLocales] : undefined)

/**
 * A sentence of a lazily loaded view in `locale`: from the locale's sentences of that view (`pick`) once the locale is
 * loaded, else from `english`, its {name} placeholders filled.
 * @example translateLoaded(reviewEn, (sentences) => sentences.review, 'fr', 'review.call', { index: '2' }) // 'Appel 2'
 */
export function translateLoaded<K extends string>(english: Readonly<Record<K, string>>, pick: (sentences: LocaleSentences) => Readonly<Record<K, string>>, locale: string, key: K, params?: Record<string, string>): string {
  const sentences = loadedSentences(locale)
  return fill((sentences ? pick(sentences) : english)[key], params)
}

/**
 * A sentence of the modal in `locale`, its {name} placeholders filled: English where the locale has none, or until its
 * sentences are loaded (the modal waits for them: useIsLocaleLoaded).
 */
export const translate = (locale: string, key: MessageKey, params?: Record<string, string>): string => fill((loadedSentences(locale)?.messages ?? en)[key], params)

/**
 * An error or a toast in `locale`: its code's sentence filled with its params; its English `message` in English, when
 * it has no code, or when the locale's sentence would lack a value.
 * @example translateError('fr', { code: 'TRANSACTION_STARTED', message: 'Transaction started' }) // 'Transaction lancée'
 */
export function translateError(locale: string, notice: { code?: string; params?: Record<string, string | number>; message: string }): string {
  const table: Partial<Record<ErrorCode, string>> = loadedSentences(locale)?.errors ?? {}
  const template = notice.code !== undefined && Object.hasOwn(table, notice.code) ? table[notice.code as ErrorCode] : undefined
  if (!template) return notice.message
  let isMissing = false
  const filled = template.replace(/\{(\w+)\}/g, (match, name: string) => {
    const value = notice.params?.[name]
    if (value === undefined) isMissing = true
    return value === undefined ? match : String(value)
  })
  return isMissing ? notice.message : filled
}
