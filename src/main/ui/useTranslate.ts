import { useCallback } from 'react'
import { useWidget } from '../react/WidgetProvider'
import type { MessageKey } from './i18n/en'
import { widgetLocale } from './i18n/buttons'
import { translate } from './i18n/translate'

/** The translate function for the widget's locale (config, else the browser's). */
export function useTranslate() {
  const widget = useWidget()
  const locale = widgetLocale(widget.config.locale)
  return useCallback((key: MessageKey, params?: Record<string, string>) => translate(locale, key, params), [locale])
}
