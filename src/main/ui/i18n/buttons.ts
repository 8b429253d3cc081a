import type { WidgetLocale } from '../../widget/locale'

/**
 * The strings of the button a page shows before the first click, and the toast when the modal's own code cannot load,
 * apart from the full catalogues (en.ts, fr.ts) so that those load with the modal. Every locale of the catalogues has its entry here.
 */
export const buttonCatalogues = {
  en: { connectWallet: 'Connect Wallet', connecting: 'Connecting…', modalUnavailable: 'The wallet window could not load. Check your connection and try again.' },
  fr: {
    connectWallet: 'Connecter un portefeuille',
    connecting: 'Connexion…',
    modalUnavailable: 'La fenêtre du portefeuille n’a pas pu se charger. Vérifiez votre connexion et réessayez.',
  },
} as const satisfies Record<WidgetLocale, Record<string, string>>

export type ButtonMessageKey = keyof (typeof buttonCatalogues)['en']
