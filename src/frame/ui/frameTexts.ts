import type { ErrorCode } from '../../shared/protocol/errorTable'

/**
 * Every sentence the frame shows, in English and French ({placeholders} filled by `say`). The frame cannot import the
 * widget's catalogues (it imports src/shared only), so the few error sentences it shows itself are here too, in the
 * words of the shared error table (English) and of frErrors (French).
 */
const en = {
  'approval.from': '{site} asks',
  'approval.fromNamed': '{name} ({site}) asks',
  'approval.account': 'Account',
  'approval.smartAccount': 'Smart account',
  'approval.network': 'Network',
  'approval.approve': 'Approve',
  'approval.reject': 'Reject',
  'approval.sign': 'Sign',
  'approval.send': 'Send',
  'approval.waitVisible': 'The buttons work once this window is fully shown.',
  'signMessage.title': 'Sign a message',
  'signMessage.intro': 'Signing proves you hold this account. It costs nothing and sends nothing.',
  'signMessage.text': 'Message',
  'signMessage.notText': 'This message is not text. Sign it only if you trust the site. Its bytes:',
  'typedData.title': 'Sign data',
  'typedData.intro': 'Signing this data can authorise actions on your behalf.',
  'typedData.app': 'Contract',
  'typedData.type': 'Type',
  'typedData.permit': 'This signature lets {spender} spend {amount} of your tokens without asking you again.',
  'typedData.unlimited': 'an unlimited amount',
  'sendTransaction.title': 'Send a transaction',
  'sendTransaction.summary': 'Send {amount} {symbol} to {to}',
  'sendTransaction.deploy': 'Deploy a contract with {amount} {symbol}',
  'sendTransaction.to': 'To',
  'sendTransaction.amount': 'Amount',
  'sendTransaction.fee': 'Network fee (at most)',
  'sendTransaction.feeLabel': 'Network fee',
  'fee.sponsored': 'Paid by the app',
  'fee.sponsorUnreachable': 'The app’s gas sponsor could not be reached: your account pays the network fee.',
  'fee.notSponsored': 'The app does not pay the network fee for this: your account pays it.',
  'fee.dailyGasExhausted': 'This account has used the gas the app sponsors today: your account pays the network fee.',
  'sendTransaction.tokenTransfer': 'It transfers {amount} {symbol} (token {contract}) to {to}.',
  'sendTransaction.tokenApprove': 'It lets {to} spend {amount} {symbol} (token {contract}) from your account.',
  'sendTransaction.data': 'It also runs a contract with {n} bytes of data.',
  'sendCalls.title': 'Send {n} transactions',
  'sendCalls.call': '{n}. Send {amount} {symbol} to {to}',
  'sendCalls.callData': '{n}. Send {amount} {symbol} to {to} and run it with {bytes} bytes of data',
  'sendCalls.tokenTransfer': '{n}. Transfer {amount} {symbol} (token {contract}) to {to}',
  'sendCalls.tokenApprove': '{n}. Let {to} spend {amount} {symbol} (token {contract}) from your account',
  'sendCalls.titleAtomic': 'Send {n} calls at once',
  'sendCalls.atomic': 'They run together as one operation: all of them, or none.',
  'sendCalls.oneByOne': 'They are sent one after the other: one can succeed while another fails.',
  'solana.signMessage.title': 'Sign a message',
  'solana.transaction.title': 'Sign a transaction',
  'solana.transactions.title': 'Sign {n} transactions',
  'solana.transfer': 'Send {amount} SOL to {to}',
  'solana.tokenTransfer': 'Send {amount} of token {mint} to the token account {to}',
  'solana.tokenTransferUnknownMint': 'Send {amount} token units to the token account {to}',
  'solana.createTokenAccount': 'Create a token account for {owner}',
  'solana.feeSettings': 'Set the network fee',
  'solana.program': 'Run the program {program}',
  'solana.willSend': 'Once you approve, the transaction is sent to the network.',
  'solana.returns': 'Once you approve, the signed transaction goes back to {site}, which can send it.',
  'password.create.title': 'Choose a recovery password',
  'password.create.intro':
    'Your wallet is kept in three parts: one on this device, one with the sign-in service, and one locked by this password. On another device you need this password to open your wallet. Nobody can reset it: keep it safe.',
  'password.create.label': 'Recovery password',
  'password.create.confirm': 'Type it again',
  'password.create.submit': 'Create my wallet',
  'password.create.mismatch': 'The two passwords are not the same',
  'password.recover.title': 'Enter your recovery password',
  'password.recover.intro': 'This device does not hold your wallet yet. Enter the recovery password you chose when you created it.',
  'password.recover.label': 'Recovery password',
  'password.recover.submit': 'Open my wallet',
  'password.cancel': 'Cancel',
  'password.working': 'Opening your wallet…',
  'password.show': 'Show the password',
} as const

export type TextKey = keyof typeof en

const fr: Record<TextKey, string> = {
  'approval.from': '{site} demande',
  'approval.fromNamed': '{name} ({site}) demande',
  'approval.account': 'Compte',
  'approval.smartAccount': 'Compte intelligent',
  'approval.network': 'Réseau',
  'approval.approve': 'Approuver',
  'approval.reject': 'Refuser',
  'approval.sign': 'Signer',
  'approval.send': 'Envoyer',
  'approval.waitVisible': 'Les boutons fonctionnent une fois cette fenêtre entièrement affichée.',
  'signMessage.title': 'Signer un message',
  'signMessage.intro': 'Signer prouve que vous détenez ce compte. Cela ne coûte rien et n’envoie rien.',
  'signMessage.text': 'Message',
  'signMessage.notText': 'Ce message n’est pas du texte. Ne le signez que si vous faites confiance au site. Ses octets :',
  'typedData.title': 'Signer des données',
  'typedData.intro': 'Signer ces données peut autoriser des actions en votre nom.',
  'typedData.app': 'Contrat',
  'typedData.type': 'Type',
  'typedData.permit': 'Cette signature permet à {spender} de dépenser {amount} de vos jetons sans vous redemander.',
  'typedData.unlimited': 'un montant illimité',
  'sendTransaction.title': 'Envoyer une transaction',
  'sendTransaction.summary': 'Envoyer {amount} {symbol} à {to}',
  'sendTransaction.deploy': 'Déployer un contrat avec {amount} {symbol}',
  'sendTransaction.to': 'Destinataire',
  'sendTransaction.amount': 'Montant',
  'sendTransaction.fee': 'Frais de réseau (au plus)',
  'sendTransaction.feeLabel': 'Frais de réseau',
  'fee.sponsored': 'Payés par l’application',
  'fee.sponsorUnreachable': 'Le sponsor de l’application n’a pas pu être joint : votre compte paie les frais de réseau.',
  'fee.notSponsored': 'L’application ne paie pas les frais de réseau de cette opération : votre compte les paie.',
  'fee.dailyGasExhausted': 'Ce compte a utilisé les frais que l’application prend en charge aujourd’hui : votre compte paie les frais de réseau.',
  'sendTransaction.tokenTransfer': 'Elle transfère {amount} {symbol} (jeton {contract}) à {to}.',
  'sendTransaction.tokenApprove': 'Elle permet à {to} de dépenser {amount} {symbol} (jeton {contract}) depuis votre compte.',
  'sendTransaction.data': 'Elle exécute aussi un contrat avec {n} octets de données.',
  'sendCalls.title': 'Envoyer {n} transactions',
  'sendCalls.call': '{n}. Envoyer {amount} {symbol} à {to}',
  'sendCalls.callData': '{n}. Envoyer {amount} {symbol} à {to} et l’exécuter avec {bytes} octets de données',
  'sendCalls.tokenTransfer': '{n}. Transférer {amount} {symbol} (jeton {contract}) à {to}',
  'sendCalls.tokenApprove': '{n}. Autoriser {to} à dépenser {amount} {symbol} (jeton {contract}) depuis votre compte',
  'sendCalls.titleAtomic': 'Envoyer {n} appels d’un coup',
  'sendCalls.atomic': 'Ils s’exécutent ensemble en une seule opération : tous, ou aucun.',
  'sendCalls.oneByOne': 'Ils sont envoyés l’un après l’autre : l’un peut réussir et un autre échouer.',
  'solana.signMessage.title': 'Signer un message',
  'solana.transaction.title': 'Signer une transaction',
  'solana.transactions.title': 'Signer {n} transactions',
  'solana.transfer': 'Envoyer {amount} SOL à {to}',
  'solana.tokenTransfer': 'Envoyer {amount} du jeton {mint} au compte de jetons {to}',
  'solana.tokenTransferUnknownMint': 'Envoyer {amount} unités de jeton au compte de jetons {to}',
  'solana.createTokenAccount': 'Créer un compte de jetons pour {owner}',
  'solana.feeSettings': 'Régler les frais de réseau',
  'solana.program': 'Exécuter le programme {program}',
  'solana.willSend': 'Une fois approuvée, la transaction est envoyée au réseau.',
  'solana.returns': 'Une fois approuvée, la transaction signée est renvoyée à {site}, qui peut l’envoyer.',
  'password.create.title': 'Choisissez un mot de passe de récupération',
  'password.create.intro':
    'Votre portefeuille est conservé en trois parts : une sur cet appareil, une auprès du service de connexion et une protégée par ce mot de passe. Sur un autre appareil, ce mot de passe est nécessaire pour ouvrir votre portefeuille. Personne ne peut le réinitialiser : conservez-le bien.',
  'password.create.label': 'Mot de passe de récupération',
  'password.create.confirm': 'Saisissez-le à nouveau',
  'password.create.submit': 'Créer mon portefeuille',
  'password.create.mismatch': 'Les deux mots de passe ne sont pas identiques',
  'password.recover.title': 'Saisissez votre mot de passe de récupération',
  'password.recover.intro': 'Cet appareil ne contient pas encore votre portefeuille. Saisissez le mot de passe de récupération choisi lors de sa création.',
  'password.recover.label': 'Mot de passe de récupération',
  'password.recover.submit': 'Ouvrir mon portefeuille',
  'password.cancel': 'Annuler',
  'password.working': 'Ouverture de votre portefeuille…',
  'password.show': 'Afficher le mot de passe',
}

/** The error sentences the frame shows itself (the others travel to the widget by code). */
const errorTexts: Record<'en' | 'fr', Partial<Record<ErrorCode, string>>> = {
  en: {
    RECOVERY_PASSWORD_WRONG: 'The recovery password is not correct',
    RECOVERY_PASSWORD_TOO_SHORT: 'Choose a recovery password of at least {n} characters',
    KEY_COMMITMENT_MISMATCH: 'The wallet could not be unlocked: its key shares do not match',
    UNKNOWN: 'An error occurred',
  },
  fr: {
    RECOVERY_PASSWORD_WRONG: 'Le mot de passe de récupération n’est pas correct',
    RECOVERY_PASSWORD_TOO_SHORT: 'Choisissez un mot de passe de récupération d’au moins {n} caractères',
    KEY_COMMITMENT_MISMATCH: 'Le portefeuille n’a pas pu être déverrouillé : ses parts de clé ne correspondent pas',
    UNKNOWN: 'Une erreur s’est produite',
  },
}

export type FrameLocale = 'en' | 'fr'

/** The frame's language: the `locale` of its URL when it is one it speaks, else the browser's first language. */
export function pickLocale(requested: string | null | undefined, languages: readonly string[]): FrameLocale {
  for (const tag of [requested, ...languages]) {
    const base = tag?.toLowerCase().split('-')[0]
    if (base === 'fr' || base === 'en') return base
  }
  return 'en'
}

const fill = (template: string, params: Record<string, string | number>) => template.replace(/\{(\w+)\}/g, (match, name: string) => (name in params ? String(params[name]) : match))

/** The sentence of `key` in `locale`, placeholders filled. */
export const say = (locale: FrameLocale, key: TextKey, params: Record<string, string | number> = {}) => fill((locale === 'fr' ? fr : en)[key], params)

/** An error's sentence in `locale`, for the codes the frame shows; else 'An error occurred'. */
export const sayError = (locale: FrameLocale, code: string | undefined, params: Record<string, string | number> = {}) =>
  fill(errorTexts[locale][code as ErrorCode] ?? errorTexts[locale].UNKNOWN!, params)

export const frameTexts = { en, fr, errorTexts }
