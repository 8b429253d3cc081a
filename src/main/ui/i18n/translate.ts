import { en, type Catalogue, type MessageKey } from './en'
import { fr } from './fr'

export const catalogues: Record<string, Catalogue> = { en, fr }

/** The best catalogue for a locale ('fr-CA' → fr), English when there is none. */
export function pickLocale(locale: string | undefined): string {
  const language = locale?.toLowerCase().split('-')[0]
  return language && language in catalogues ? language : 'en'
}

/** Fills {name} placeholders. Values are text, never markup. */
export function translate(locale: string, key: MessageKey, params: Record<string, string> = {}): string {
  const template = (catalogues[locale] ?? en)[key]
  return template.replace(/\{(\w+)\}/g, (match, name: string) => params[name] ?? match)
}
