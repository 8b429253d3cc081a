import { translateFrom } from './translate'

/**
 * The Buy view's words, apart from the full catalogues (en.ts, fr.ts) so that they load with the view's own chunk on
 * its first visit, not with the modal. Every locale of the catalogues has its entry here.
 */
export const buyCatalogues = {
  en: {
    'buy.restricted': 'Buying crypto is not available in your region.',
    'buy.nothing': 'Nothing can be bought for the networks your accounts are on.',
    'buy.amount': 'You pay',
    'buy.currency': 'Currency',
    'buy.method': 'Payment method',
    'buy.card': 'Card',
    'buy.bank': 'Bank transfer',
    'buy.asset': 'You buy',
    'buy.assetValue': '{symbol} on {network}',
    'buy.limits': 'Enter an amount from {min} to {max} for {method}.',
    'buy.methodCard': 'a card',
    'buy.methodBank': 'a bank transfer',
    'buy.quoting': 'Asking the providers…',
    'buy.quotes': 'Quotes',
    'buy.receive': 'You receive {amount} {symbol}',
    'buy.fees': 'Fees {fees} (network {network})',
    'buy.best': 'Most received',
    'buy.estimate': 'Estimate only: these figures are samples and cannot be bought.',
    'buy.continue': 'Continue with {provider}',
    'buy.opening': 'Opening {provider}…',
    'buy.waiting': 'Waiting for your payment in {provider}’s window.',
    'buy.sent': 'Paid: {amount} {symbol} is on its way to your account.',
    'buy.arrived': 'Arrived: {amount} {symbol} is in your account.',
    'buy.failed': 'The purchase did not go through: nothing was taken from you.',
    'buy.closed': 'The payment window was closed before you paid.',
    'buy.blocked': 'Your browser blocked the payment window.',
    'buy.openLink': 'Open the payment page',
    'buy.reopen': 'Open the payment window again',
    'buy.again': 'Buy again',
  },
  fr: {
    'buy.restricted': 'L’achat de cryptomonnaies n’est pas disponible dans votre région.',
    'buy.nothing': 'Rien ne peut être acheté sur les réseaux de vos comptes.',
    'buy.amount': 'Vous payez',
    'buy.currency': 'Devise',
    'buy.method': 'Moyen de paiement',
    'buy.card': 'Carte',
    'buy.bank': 'Virement bancaire',
    'buy.asset': 'Vous achetez',
    'buy.assetValue': '{symbol} sur {network}',
    'buy.limits': 'Saisissez un montant de {min} à {max} pour {method}.',
    'buy.methodCard': 'une carte',
    'buy.methodBank': 'un virement bancaire',
    'buy.quoting': 'Interrogation des prestataires…',
    'buy.quotes': 'Offres',
    'buy.receive': 'Vous recevez {amount} {symbol}',
    'buy.fees': 'Frais {fees} (réseau {network})',
    'buy.best': 'Le plus reçu',
    'buy.estimate': 'Estimation seulement : ces montants sont des exemples et ne peuvent pas être achetés.',
    'buy.continue': 'Continuer avec {provider}',
    'buy.opening': 'Ouverture de {provider}…',
    'buy.waiting': 'En attente de votre paiement dans la fenêtre de {provider}.',
    'buy.sent': 'Payé : {amount} {symbol} est en route vers votre compte.',
    'buy.arrived': 'Arrivé : {amount} {symbol} est sur votre compte.',
    'buy.failed': 'L’achat n’a pas abouti : rien ne vous a été prélevé.',
    'buy.closed': 'La fenêtre de paiement a été fermée avant le paiement.',
    'buy.blocked': 'Votre navigateur a bloqué la fenêtre de paiement.',
    'buy.openLink': 'Ouvrir la page de paiement',
    'buy.reopen': 'Rouvrir la fenêtre de paiement',
    'buy.again': 'Acheter à nouveau',
  },
} satisfies Record<string, Record<string, string>>

export type BuyMessageKey = keyof (typeof buyCatalogues)['en']

/** A Buy sentence in `locale` (English where the locale has none), its {name} placeholders filled. */
export const translateBuy = (locale: string, key: BuyMessageKey, params?: Record<string, string>): string => translateFrom(buyCatalogues, locale, key, params)
