import type { Catalogue } from './en'

/** French. */
export const fr: Catalogue = {
  connectWallet: 'Connecter un portefeuille',
  connecting: 'Connexion…',
  close: 'Fermer',
  back: 'Retour',
  'view.Connect': 'Connecter un portefeuille',
  'view.ConnectingExternal': 'Continuer dans {wallet}',
  'view.Account': 'Compte',
  'view.Networks': 'Choisir un réseau',
  'view.UnsupportedChain': 'Changer de réseau',
  'connect.installed': 'Installé',
  'connect.recent': 'Récent',
  'connect.noWallets': 'Aucun portefeuille n’a été trouvé dans ce navigateur.',
  'connecting.prompt': 'Acceptez la demande de connexion dans {wallet}.',
  'connecting.retry': 'Réessayer',
  'account.copy': 'Copier l’adresse',
  'account.copied': 'Adresse copiée',
  'account.disconnect': 'Se déconnecter',
  'account.explorer': 'Voir dans l’explorateur',
  'account.balance': 'Solde',
  'account.network': 'Réseau',
  'networks.current': 'actuel',
  'unsupported.explain': 'Cette application ne prend pas en charge le réseau actuel. Passez à l’un de ceux-ci :',
  'error.userRejected': 'Connexion refusée',
  'error.generic': 'Une erreur est survenue',
}
