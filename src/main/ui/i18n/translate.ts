import type { ErrorCode } from '../../../shared/protocol/errorTable'
import { en, type Catalogue, type MessageKey } from './en'
import { fr } from './fr'
import { frErrors } from './frErrors'

export const catalogues: Record<string, Catalogue> = { en, fr }

/** The error table in every locale but English, whose sentences are the table's own (the spec's, word for word). */
export const errorCatalogues: Record<string, Partial<Record<ErrorCode, string>>> = { fr: frErrors }

export { pickLocale } from '../../widget/locale'

/** Fills {name} placeholders. Values are text, never markup. */
export function translate(locale: string, key: MessageKey, params: Record<string, string> = {}): string {
  const template = (catalogues[locale] ?? en)[key]
  return template.replace(/\{(\w+)\}/g, (match, name: string) => params[name] ?? match)
}

/**
 * An error or a toast in `locale`: its code's sentence filled with its params; its English `message` in English, when
 * it has no code, or when the locale's sentence would lack a value.
 * @example translateError('fr', { code: 'TRANSACTION_STARTED', message: 'Transaction started' }) // 'Transaction lancée'
 */
export function translateError(locale: string, notice: { code?: string; params?: Record<string, string | number>; message: string }): string {
  const table = Object.hasOwn(errorCatalogues, locale) ? errorCatalogues[locale]! : {}
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
