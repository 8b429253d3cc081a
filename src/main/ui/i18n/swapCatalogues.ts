import { translateFrom } from './translate'

/**
 * The Swap view's words, apart from the full catalogues (en.ts, fr.ts) so that they load with the view's own chunk on
 * its first visit, not with the modal. Every locale of the catalogues has its entry here.
 */
export const swapCatalogues = {
  en: {
    'swap.from': 'You pay',
    'swap.to': 'You receive',
    'swap.flip': 'Switch the two tokens',
    'swap.quoting': 'Finding the price…',
    'swap.quote': 'What this swap does',
    'swap.receive': 'Expected',
    'swap.rate': 'Rate',
    'swap.rateValue': '1 {from} = {rate} {to}',
    'swap.priceImpact': 'Price impact',
    'swap.minimumReceived': 'Minimum received ({slippage} % slippage)',
    'swap.networkFee': 'Network fee',
    'swap.source': 'Quote from',
    'swap.sourceValue': '{name}, block {block}',
    'swap.priceImpactWarning': 'This trade moves the price by {impact}: you receive noticeably less than the market rate',
    'swap.priceImpactRefused': 'This trade would move the price by more than {limit} %: swap a smaller amount',
    'swap.priceMoved': 'The price changed since the quote: check the new amounts and press Swap again',
    'swap.approveNote': 'First your wallet lets the exchange spend exactly {amount} {symbol}; then it asks you to swap.',
    'swap.approve': 'Approve {symbol}',
    'swap.batchNote': 'Your wallet lets the exchange spend exactly {amount} {symbol} and swaps in one transaction: both happen, or neither.',
    'swap.approveAndSwap': 'Approve {symbol} and swap',
    'swap.inWallet': 'Confirm in your wallet…',
    'swap.submit': 'Swap',
    'swap.slippage': 'Slippage tolerance',
  },
  fr: {
    'swap.from': 'Vous payez',
    'swap.to': 'Vous recevez',
    'swap.flip': 'Inverser les deux jetons',
    'swap.quoting': 'Recherche du prix…',
    'swap.quote': 'Ce que fait cet échange',
    'swap.receive': 'Montant attendu',
    'swap.rate': 'Taux',
    'swap.rateValue': '1 {from} = {rate} {to}',
    'swap.priceImpact': 'Impact sur le prix',
    'swap.minimumReceived': 'Minimum reçu (glissement de {slippage} %)',
    'swap.networkFee': 'Frais de réseau',
    'swap.source': 'Prix fourni par',
    'swap.sourceValue': '{name}, bloc {block}',
    'swap.priceImpactWarning': 'Cet échange fait bouger le prix de {impact} : vous recevez nettement moins que le cours du marché',
    'swap.priceImpactRefused': 'Cet échange ferait bouger le prix de plus de {limit} % : échangez un montant plus petit',
    'swap.priceMoved': 'Le prix a changé depuis le devis : vérifiez les nouveaux montants et appuyez de nouveau sur Échanger',
    'swap.approveNote': 'Votre portefeuille autorise d’abord l’échange à dépenser exactement {amount} {symbol}, puis vous demande d’échanger.',
    'swap.approve': 'Autoriser {symbol}',
    'swap.batchNote': 'Votre portefeuille autorise l’échange à dépenser exactement {amount} {symbol} et échange en une seule transaction : les deux ont lieu, ou aucun.',
    'swap.approveAndSwap': 'Autoriser {symbol} et échanger',
    'swap.inWallet': 'Confirmez dans votre portefeuille…',
    'swap.submit': 'Échanger',
    'swap.slippage': 'Tolérance de glissement',
  },
} satisfies Record<string, Record<string, string>>

export type SwapMessageKey = keyof (typeof swapCatalogues)['en']

/** A Swap sentence in `locale` (English where the locale has none), its {name} placeholders filled. */
export const translateSwap = (locale: string, key: SwapMessageKey, params?: Record<string, string>): string => translateFrom(swapCatalogues, locale, key, params)
