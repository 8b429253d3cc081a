import { useCallback } from 'react'
import { useWidget } from '../react/WidgetProvider'
import type { MessageKey } from './i18n/en'
import { widgetLocale } from '../widget/locale'
import { translate, translateError } from './i18n/translate'

/** The widget's locale, one its catalogues have ('en', 'fr'): the config's, else the browser's. Numbers are formatted in it too. */
export function useLocale() {
  return widgetLocale(useWidget().uiSettings.locale)
}

/** The translate function for the widget's locale (config, else the browser's). */
export function useTranslate() {
  const locale = useLocale()
  return useCallback((key: MessageKey, params?: Record<string, string>) => translate(locale, key, params), [locale])
}

/**
 * Says an error or a toast in the widget's locale: by its code (the error table's sentence in that locale), or as it
 * is when it is plain text. English is always the error table's own sentence.
 */
export function useTranslateError() {
  const locale = useLocale()
  return useCallback(
    (error: string | { code?: string; params?: Record<string, string | number>; message: string }) => (typeof error === 'string' ? error : translateError(locale, error)),
    [locale],
  )
}
