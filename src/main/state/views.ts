/** The modal's named views (SPEC §2). There are no URL routes. */
export const views = [
  'Connect',
  'Account',
  'AllWallets',
  'ConnectingWalletConnectBasic',
  'ConnectingExternal',
  'ConnectingWalletConnect',
  'UnsupportedChain',
  'Networks',
  'RegisterAccountName',
  'RegisterAccountNameSuccess',
  'SIWXSignMessage',
  'ApproveTransaction',
  // What a site's request will do, before the wallet asks (issue #36).
  'ReviewRequest',
  'Send',
  'Activity',
  'Receive',
  // The account's tokens and their balances (SPEC: see token balances).
  'Tokens',
  'Swap',
  // Buy crypto with a card or a bank transfer through an on-ramp provider (SPEC §1).
  'Buy',
  // E-mail login (SPEC §1): approve this device from the e-mail, then the code.
  'EmailVerifyDevice',
  'EmailVerifyOtp',
  // Sign In With Farcaster: its QR code (SPEC §1); the e-mail change of an e-mail account (SPEC §7).
  'FarcasterLogin',
  'EmailChange',
] as const

export type View = (typeof views)[number]

export type ResolveOpenViewParameters = {
  /** A view the caller asked for; it wins. */
  requestedView?: View
  isConnected: boolean
  isMobile: boolean
  hasAdapters: boolean
}

/**
 * The view the modal opens on (SPEC §2): the caller's, else Account when connected on the namespace, else Connect;
 * with no adapters, AllWallets on mobile and ConnectingWalletConnectBasic on desktop.
 */
export function resolveOpenView({ requestedView, isConnected, isMobile, hasAdapters }: ResolveOpenViewParameters): View {
  if (requestedView) return requestedView
  if (isConnected) return 'Account'
  if (!hasAdapters) return isMobile ? 'AllWallets' : 'ConnectingWalletConnectBasic'
  return 'Connect'
}

/** Views that show a connected account; with the account gone, the modal goes back to Connect. */
export const accountViews: ReadonlySet<View> = new Set(['Account', 'Networks', 'UnsupportedChain', 'Send', 'ApproveTransaction', 'ReviewRequest', 'Receive', 'Activity', 'Tokens', 'Swap', 'Buy', 'RegisterAccountName', 'RegisterAccountNameSuccess', 'SIWXSignMessage', 'EmailChange'])

/** Where closing leads in embedded mode (SPEC §2): Account when connected, otherwise Connect. */
export const embeddedCloseView = (isConnected: boolean): View => (isConnected ? 'Account' : 'Connect')

export type UnsupportedChainParameters = {
  activeCaipNetworkId: string | undefined
  requestedCaipNetworkIds: readonly string[]
  enableNetworkSwitch: boolean
  allowUnsupportedChain: boolean
  isBasicWalletConnect: boolean
}

/**
 * UnsupportedChain opens when all hold (SPEC §2): the active network is not among the requested ones, network
 * switching is enabled, unsupported chains are not allowed, and no basic wallet connection is active.
 */
export function shouldShowUnsupportedChain({
  activeCaipNetworkId,
  requestedCaipNetworkIds,
  enableNetworkSwitch,
  allowUnsupportedChain,
  isBasicWalletConnect,
}: UnsupportedChainParameters): boolean {
  return (
    activeCaipNetworkId !== undefined &&
    !requestedCaipNetworkIds.includes(activeCaipNetworkId) &&
    enableNetworkSwitch &&
    !allowUnsupportedChain &&
    !isBasicWalletConnect
  )
}
