/**
 * The strings of the button a page shows before the first click, apart from the full catalogues (en.ts, fr.ts) so
 * that those load with the modal. Every locale of the catalogues has its entry here.
 */
export const buttonCatalogues = {
  en: { connectWallet: 'Connect Wallet', connecting: 'Connecting…' },
  fr: { connectWallet: 'Connecter un portefeuille', connecting: 'Connexion…' },
} as const

export type ButtonMessageKey = keyof (typeof buttonCatalogues)['en']

/** The best catalogue for a locale ('fr-CA' → fr), English when there is none. */
export function pickLocale(locale: string | undefined): keyof typeof buttonCatalogues {
  const language = locale?.toLowerCase().split('-')[0]
  return language && Object.hasOwn(buttonCatalogues, language) ? (language as keyof typeof buttonCatalogues) : 'en'
}

/** The widget's locale: the config's, else the browser's. */
export const widgetLocale = (configured: string | undefined) => pickLocale(configured ?? (typeof navigator === 'undefined' ? undefined : navigator.language))
