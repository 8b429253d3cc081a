/** English: the reference catalogue. Every user-visible string of the UI is here. */
export const en = {
  connectWallet: 'Connect Wallet',
  connecting: 'Connecting…',
  close: 'Close',
  back: 'Back',
  'view.Connect': 'Connect Wallet',
  'view.ConnectingExternal': 'Continue in {wallet}',
  'view.Account': 'Account',
  'view.Networks': 'Choose Network',
  'view.UnsupportedChain': 'Switch Network',
  'connect.installed': 'Installed',
  'connect.recent': 'Recent',
  'connect.noWallets': 'No wallet was found in this browser.',
  'connecting.prompt': 'Accept the connection request in {wallet}.',
  'connecting.retry': 'Try again',
  'account.copy': 'Copy address',
  'account.copied': 'Address copied',
  'account.disconnect': 'Disconnect',
  'account.explorer': 'View on explorer',
  'account.balance': 'Balance',
  'account.network': 'Network',
  'networks.current': 'current',
  'unsupported.explain': 'This app does not support the current network. Switch to one of these:',
  'error.userRejected': 'Connection declined',
  'error.generic': 'Something went wrong',
} as const

export type MessageKey = keyof typeof en
export type Catalogue = Record<MessageKey, string>
