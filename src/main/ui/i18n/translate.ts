import { en, type Catalogue, type MessageKey } from './en'
import { fr } from './fr'

export const catalogues: Record<string, Catalogue> = { en, fr }

export { pickLocale } from './buttons'

/** Fills {name} placeholders. Values are text, never markup. */
export function translate(locale: string, key: MessageKey, params: Record<string, string> = {}): string {
  const template = (catalogues[locale] ?? en)[key]
  return template.replace(/\{(\w+)\}/g, (match, name: string) => params[name] ?? match)
}
