import type { WidgetLocale } from '../../widget/locale'

/**
 * The strings of the button a page shows before the first click, apart from the full catalogues (en.ts, fr.ts) so
 * that those load with the modal. Every locale of the catalogues has its entry here.
 */
export const buttonCatalogues = {
  en: { connectWallet: 'Connect Wallet', connecting: 'Connecting…' },
  fr: { connectWallet: 'Connecter un portefeuille', connecting: 'Connexion…' },
} as const satisfies Record<WidgetLocale, Record<string, string>>

export type ButtonMessageKey = keyof (typeof buttonCatalogues)['en']
