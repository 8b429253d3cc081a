/** The locales the widget speaks: every one has its catalogues (src/main/ui/i18n). */
export const widgetLocales = ['en', 'fr'] as const

export type WidgetLocale = (typeof widgetLocales)[number]

/** The best locale for a locale tag ('fr-CA' → fr), English when there is none. */
export function pickLocale(locale: string | undefined): WidgetLocale {
  const language = locale?.toLowerCase().split('-')[0]
  return widgetLocales.find((known) => known === language) ?? 'en'
}

/** The widget's locale: the config's, else the browser's. */
export const widgetLocale = (configured: string | undefined) => pickLocale(configured ?? (typeof navigator === 'undefined' ? undefined : navigator.language))
