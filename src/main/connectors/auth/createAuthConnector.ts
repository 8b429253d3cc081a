import { base58, base64 } from '@scure/base'
import { formatCaipNetworkId, parseCaipNetworkId, type CaipNetworkId } from '../../../shared/protocol/caip'
import { DISALLOWED_RPC_TOAST_DELAY_MS } from '../../../shared/protocol/constants'
import { checkEmailLoginThrottle } from '../../../shared/protocol/emailThrottle'
import { createWidgetError, isWidgetError } from '../../../shared/protocol/errors'
import { isFrameRpcMethodAllowed, isSafeRpcMethod } from '../../../shared/protocol/rpcMethods'
import { utf8ToHex } from '../../../shared/protocol/eip1193'
import type { User } from '../../../shared/protocol/schemas/entities'
import type { NamespaceConnector, NamespaceConnectorEvents } from '../../families/types'
import type { Notifications } from '../../state/createNotifications'
import { errorNotice } from '../../state/errorNotice'
import type { WidgetStorage } from '../../storage/createWidgetStorage'
import type { WidgetNetwork } from '../../widget/config'
import type { WalletRequest } from '../eip1193'
import { AUTH_CONNECTOR_ID } from './authConnectorId'
import { createFrameChannel, type CreateFrameChannelParameters, type FrameChannel } from './createFrameChannel'

export type SocialProvider = 'google' | 'github' | 'apple' | 'facebook' | 'x' | 'discord'
export type EmailConnectAction = 'VERIFY_DEVICE' | 'VERIFY_OTP' | 'CONNECT'
export type EmailUpdateAction = 'VERIFY_PRIMARY_OTP' | 'VERIFY_SECONDARY_OTP'

export type CreateAuthConnectorParameters = Omit<CreateFrameChannelParameters, 'onOpen' | 'onClose'> & {
  storage: WidgetStorage
  /** The app's theme and data, sent to the frame once it is ready (APP_SYNC_THEME, APP_SYNC_DAPP_DATA). */
  theme: () => { themeMode: 'light' | 'dark'; themeVariables?: Record<string, string | number> }
  dappData: { sdkType: string; metadata?: { name: string; description?: string; url?: string; icons?: string[] } }
  onOpen?: CreateFrameChannelParameters['onOpen']
  onClose?: CreateFrameChannelParameters['onClose']
  /** The Solana network the widget is on, for the Solana account's requests before one is connected or switched to (reconnect). */
  solanaCaipNetworkId?: () => CaipNetworkId | undefined
  /** Where a disallowed call's 'Action not allowed' toast shows (SPEC §6), 300 ms after the call fails. */
  notifications?: Pick<Notifications, 'show'>
  now?: () => number
}

type AuthNamespace = 'eip155' | 'solana'

/** The auth connector's Solana side: a NamespaceConnector that can also sign and send in the frame. */
export type AuthSolanaConnector = NamespaceConnector & {
  signTransaction: NonNullable<NamespaceConnector['signTransaction']>
  /** solana_signAndSendTransaction: the frame signs (after approval) and sends it to its cluster; resolves to the signature. */
  signAndSendTransaction(transaction: Uint8Array, address: string, caipNetworkId: CaipNetworkId): Promise<string>
}

const chainIdOf = (caipNetworkId: string) => Number(parseCaipNetworkId(caipNetworkId)?.reference)
/** The frame writes an eip155 chain as a number and a Solana cluster as its CAIP-2 id (APP_GET_USER, APP_GET_CHAIN_ID). */
const isSolanaChainId = (chainId: string | number) => typeof chainId === 'string' && chainId.startsWith('solana:')

/** A field of the frame's answer to an RPC request, checked: a string, or 'An error occurred'. */
function stringField(answer: unknown, field: string, method: string): string {
  const value = (answer as Record<string, unknown> | null)?.[field]
  if (typeof value !== 'string' || value.length === 0) throw createWidgetError('FRAME_ERROR', { details: `the frame's answer to ${method} has no ${field}` })
  return value
}

/**
 * The auth connector (SPEC §1, §4, §6): e-mail and social login, and an EIP-1193 wallet whose every request goes to the
 * secure frame as APP_RPC_REQUEST (the frame asks the person itself for the unsafe ones). Its login-state rules:
 * - a second e-mail login within 30 s is 'Please try again after {n} seconds' (the last login time is stored);
 * - after a successful e-mail login the e-mail and the login-used flag are stored and the last login time removed;
 * - after sign-out, or an is-connected check that answers false or fails, the cached login data is cleared.
 * One login opens both of the frame's accounts (SPEC §6): `eip155` and `solana` are its two sides, and disconnecting
 * either signs out and ends both (SPEC §4). Requests of each side name their namespace (and the Solana cluster), so
 * neither depends on which side the frame last answered APP_GET_USER for.
 * @example const auth = createAuthConnector({ frameUrl, params, window, storage, theme, dappData }); await auth.connectEmail('me@example.com')
 */
export function createAuthConnector({ storage, theme, dappData, now = Date.now, onOpen, onClose, solanaCaipNetworkId, notifications, ...channelParameters }: CreateAuthConnectorParameters) {
  const watchers: Record<AuthNamespace, Set<NamespaceConnectorEvents>> = { eip155: new Set(), solana: new Set() }
  const channel: FrameChannel = createFrameChannel({ ...channelParameters, ...(onOpen && { onOpen }), ...(onClose && { onClose }) })
  /** The frame's user as each side last read it (its address is that side's account). */
  let users: Partial<Record<AuthNamespace, User>> = {}
  let synced: Promise<void> | undefined
  let pendingEmail: string | undefined

  /** The frame, ready and told the app's theme and data (once per load). */
  const frame = () =>
    (synced ??= (async () => {
      await channel.ready()
      await Promise.all([
        channel.request('APP_SYNC_THEME', theme()),
        channel.request('APP_SYNC_DAPP_DATA', { projectId: channelParameters.params.projectId, sdkVersion: channelParameters.params.version, ...dappData }),
      ])
    })().catch((error: unknown) => {
      synced = undefined
      throw error
    }))
  const request = async (...args: Parameters<FrameChannel['request']>) => {
    await frame()
    return channel.request(...args)
  }

  const clearLoginData = () => {
    for (const item of ['email', 'emailLoginUsed', 'lastEmailLoginTime', 'connectedSocialProvider', 'connectedSocialUsername'] as const) storage.remove(item)
    users = {}
  }

  /** The EVM account type the visitor prefers (SPEC §6: smartAccount unless they chose otherwise); stored per namespace. */
  const preferredAccountType = () => {
    const stored = storage.get('preferredAccountTypes')?.eip155
    return stored === 'eoa' ? 'eoa' : 'smartAccount'
  }

  /** The frame's user on `chainId` (its network becomes the frame's), or on the frame's network; kept for its side. */
  const getUser = async (chainId?: string | number) => {
    const user = (await request('APP_GET_USER', { ...(chainId !== undefined && { chainId }), preferredAccountType: preferredAccountType() })) as User
    users[isSolanaChainId(user.chainId) ? 'solana' : 'eip155'] = user
    return user
  }

  // What changes the frame's network (a switch, reading the user on a network) runs one at a time, so that reading the
  // Solana account and going back to the EVM network cannot interleave with an EVM switch.
  let networkTurn: Promise<unknown> = Promise.resolve()
  const inTurn = <T,>(work: () => Promise<T>): Promise<T> => {
    const run = networkTurn.then(work, work)
    networkTurn = run.catch(() => undefined)
    return run
  }

  /**
   * The Solana account: APP_GET_USER on the cluster (the frame answers with the address of the side it is on), then
   * the frame goes back to the EVM network it was on, for the requests that take the frame's side (Farcaster's user).
   */
  const readSolanaUser = (caipNetworkId: CaipNetworkId) =>
    inTurn(async () => {
      const { chainId: before } = (await request('APP_GET_CHAIN_ID')) as { chainId: string | number }
      const user = await getUser(caipNetworkId)
      if (!isSolanaChainId(before)) await request('APP_SWITCH_NETWORK', { chainId: before })
      return user
    })

  /** EIP-1193 requests (SPEC §6): chain switches are the frame's network; everything else is an RPC request to it. */
  const walletRequest: WalletRequest = async <T,>({ method, params }: { method: string; params?: unknown }): Promise<T> => {
    switch (method) {
      case 'eth_requestAccounts':
        return walletRequest<T>({ method: 'eth_accounts' })
      case 'wallet_switchEthereumChain': {
        const chainId = Number((params as [{ chainId?: string }] | undefined)?.[0]?.chainId)
        if (!Number.isSafeInteger(chainId) || chainId <= 0) throw createWidgetError('INVALID_PARAMS', { details: 'wallet_switchEthereumChain needs [{ chainId }]' })
        await switchTo(chainId)
        return null as T
      }
    }
    return (await request('APP_RPC_REQUEST', { method, ...(params !== undefined && { params }), chainNamespace: 'eip155' }, isSafeRpcMethod(method) ? {} : { signal: rpcAborts.signal }).catch(toastIfNotAllowed)) as T
  }
  let toastTimer: ReturnType<typeof setTimeout> | undefined
  /** SPEC §6: a disallowed call fails with 'Requested RPC call is not allowed'; the UI says 'Action not allowed' 300 ms later. */
  const toastIfNotAllowed = (error: unknown): never => {
    if (isWidgetError(error) && error.code === 'RPC_NOT_ALLOWED' && notifications) {
      clearTimeout(toastTimer)
      toastTimer = setTimeout(() => notifications.show(errorNotice('ACTION_NOT_ALLOWED'), { variant: 'error' }), DISALLOWED_RPC_TOAST_DELAY_MS)
    }
    throw error
  }
  // Open RPC requests other than the safe reads can be aborted (SPEC §6).
  let rpcAborts = new AbortController()

  async function switchTo(chainId: number) {
    await inTurn(() => request('APP_SWITCH_NETWORK', { chainId }))
    for (const watcher of watchers.eip155) watcher.onNetworkChanged?.(formatCaipNetworkId('eip155', chainId))
  }

  const isAuthorized = async () => {
    try {
      const { isConnected } = (await request('APP_IS_CONNECTED')) as { isConnected: boolean }
      if (!isConnected) clearLoginData()
      return isConnected
    } catch (error) {
      clearLoginData()
      throw error
    }
  }

  /**
   * Signs out (one sign-out for both sides when both ask at once); the other side is then told it is disconnected too
   * (SPEC §4: the auth connector's disconnect also disconnects its other namespace).
   */
  let signingOut: Promise<void> | undefined
  const signOut = async (from: AuthNamespace) => {
    rpcAborts.abort()
    rpcAborts = new AbortController()
    signingOut ??= request('APP_SIGN_OUT')
      .then(() => undefined)
      .finally(() => {
        clearLoginData()
        signingOut = undefined
      })
    try {
      await signingOut
    } finally {
      for (const watcher of [...watchers[from === 'eip155' ? 'solana' : 'eip155']]) watcher.onDisconnect?.()
    }
  }

  /** The eip155 side of the auth connector, as the connection layer drives a wallet. */
  const eip155: NamespaceConnector = {
    id: AUTH_CONNECTOR_ID,
    name: 'Embedded wallet',
    type: 'AUTH',
    namespace: 'eip155',
    imageUrl: undefined,
    info: { rdns: '' },
    request: walletRequest,
    /** What the frame does not allow (eth_sign, eth_signTransaction) it refuses at once. */
    refusesMethod: async (method: string) => !isFrameRpcMethodAllowed(method),
    async connect(network: WidgetNetwork) {
      const connected = await inTurn(() => getUser(chainIdOf(network.caipNetworkId)))
      return { accounts: [connected.address], caipNetworkId: formatCaipNetworkId('eip155', connected.chainId) }
    },
    isAuthorized,
    // The EVM account and network are asked as EVM requests: the frame may be answering for its Solana side.
    // After a reload the user is read again on the frame's EVM chain, with the account type the visitor prefers: the
    // frame acts as that account, and Account shows the type and both accounts again.
    async getAccounts() {
      if (users.eip155) return [users.eip155.address]
      const chainId = Number(await walletRequest<string>({ method: 'eth_chainId' }))
      return [(await inTurn(() => getUser(chainId))).address]
    },
    getCaipNetworkId: async () => formatCaipNetworkId('eip155', Number(await walletRequest<string>({ method: 'eth_chainId' }))),
    disconnect: () => signOut('eip155'),
    switchNetwork: (network) => switchTo(chainIdOf(network.caipNetworkId)),
    signMessage: async (message, address) => (await walletRequest({ method: 'personal_sign', params: [utf8ToHex(message), address] })) as string,
    embeddedWalletInfo() {
      const user = users.eip155
      if (!user?.accounts?.some((account) => account.type === 'smartAccount')) return undefined
      return { accountType: user.preferredAccountType === 'smartAccount' ? 'smartAccount' : 'eoa', accounts: user.accounts, isSmartAccountDeployed: user.smartAccountDeployed === true }
    },
    watch(events) {
      watchers.eip155.add(events)
      return () => void watchers.eip155.delete(events)
    },
  }

  // The Solana cluster the widget last connected or switched the Solana side to (else the widget's, for reconnect).
  let solanaNetworkId: CaipNetworkId | undefined
  const currentSolanaNetwork = () => {
    const id = solanaNetworkId ?? solanaCaipNetworkId?.()
    if (!id) throw createWidgetError('NETWORK_NOT_FOUND', { details: 'no Solana network for the embedded wallet' })
    return id
  }
  /** A Solana request to the frame on `chainId` (every Solana method signs: the person approves it in the frame, and it can be aborted). */
  const solanaRequest = (method: string, params: Record<string, unknown>, chainId: CaipNetworkId = currentSolanaNetwork()) =>
    request('APP_RPC_REQUEST', { method, params, chainNamespace: 'solana', chainId }, { signal: rpcAborts.signal })

  /** The solana side of the auth connector: the frame's ed25519 account, as the Solana adapter drives a wallet. */
  const solana: AuthSolanaConnector = {
    id: AUTH_CONNECTOR_ID,
    name: 'Embedded wallet',
    type: 'AUTH',
    namespace: 'solana',
    imageUrl: undefined,
    info: { rdns: '' },
    async connect(network: WidgetNetwork) {
      const caipNetworkId = network.caipNetworkId as CaipNetworkId
      const connected = await readSolanaUser(caipNetworkId)
      solanaNetworkId = caipNetworkId
      return { accounts: [connected.address], caipNetworkId }
    },
    isAuthorized,
    getAccounts: async () => [(users.solana ?? (await readSolanaUser(currentSolanaNetwork()))).address],
    // Solana wallets have no network of their own: the widget's is kept.
    getCaipNetworkId: async (fallback) => fallback,
    disconnect: () => signOut('solana'),
    // Each Solana request names its cluster (the frame refuses one it does not serve), so the frame's own network stays.
    switchNetwork: async (network) => void (solanaNetworkId = network.caipNetworkId as CaipNetworkId),
    async signMessage(message, address) {
      const answer = await solanaRequest('solana_signMessage', { message: base58.encode(new TextEncoder().encode(message)), pubkey: address })
      return stringField(answer, 'signature', 'solana_signMessage')
    },
    async signTransaction(transaction, address, caipNetworkId) {
      const answer = await solanaRequest('solana_signTransaction', { transaction: base64.encode(transaction), pubkey: address }, caipNetworkId)
      return base64.decode(stringField(answer, 'transaction', 'solana_signTransaction'))
    },
    async signAndSendTransaction(transaction, address, caipNetworkId) {
      const answer = await solanaRequest('solana_signAndSendTransaction', { transaction: base64.encode(transaction), pubkey: address }, caipNetworkId)
      return stringField(answer, 'signature', 'solana_signAndSendTransaction')
    },
    watch(events) {
      watchers.solana.add(events)
      return () => void watchers.solana.delete(events)
    },
  }

  return {
    eip155,
    solana,
    frameOrigin: channel.frameOrigin,
    /** Loads the frame ahead of the first login (the Connect view does it). */
    preload: () => frame(),
    /**
     * Starts an e-mail login: VERIFY_DEVICE (a link was mailed to approve this device), VERIFY_OTP (a code was mailed),
     * or CONNECT (the frame is already signed in with this address).
     */
    async connectEmail(email: string): Promise<EmailConnectAction> {
      checkEmailLoginThrottle({ lastLoginAtMs: storage.get('lastEmailLoginTime'), nowMs: now() })
      const { action } = (await request('APP_CONNECT_EMAIL', { email })) as { action: EmailConnectAction }
      storage.set('lastEmailLoginTime', now())
      pendingEmail = email
      return action
    },
    /** Waits (up to the service's long poll) for the device approval; AUTH_DEVICE_NOT_APPROVED when it has not come yet. */
    connectDevice: async () => void (await request('APP_CONNECT_DEVICE')),
    /** Checks the code; the login is complete once the user is read (connect()). */
    async connectOtp(otp: string) {
      await request('APP_CONNECT_OTP', { otp })
      if (pendingEmail) {
        storage.set('email', pendingEmail)
        storage.set('emailLoginUsed', true)
      }
      storage.remove('lastEmailLoginTime')
      pendingEmail = undefined
    },
    /** The provider's sign-in page for the popup. */
    getSocialRedirectUri: async (provider: SocialProvider) => ((await request('APP_GET_SOCIAL_REDIRECT_URI', { provider })) as { uri: string }).uri,
    /** Finishes a social login with the URL the provider sent the popup back to; resolves to the user. */
    async connectSocial(provider: SocialProvider, uri: string, chainId?: number) {
      const user = (await inTurn(() => request('APP_CONNECT_SOCIAL', { uri, ...(chainId !== undefined && { chainId }) }))) as User
      users[isSolanaChainId(user.chainId) ? 'solana' : 'eip155'] = user
      storage.set('connectedSocialProvider', provider)
      if (user.userName) storage.set('connectedSocialUsername', user.userName)
      return user
    },
    /** Sign In With Farcaster (SPEC §7 APP_GET_FARCASTER_URI): the URI the person's phone opens (shown as a QR code). */
    getFarcasterUri: async () => ((await request('APP_GET_FARCASTER_URI')) as { url: string }).url,
    /**
     * Waits (up to the service's long poll) for the phone's approval and resolves to the user (on the frame's network);
     * AUTH_FARCASTER_PENDING when it has not come yet (ask again).
     */
    async connectFarcaster() {
      // Not in the network turn: a long poll there would hold every switch; the frame answers on its network, switching none.
      const user = (await request('APP_CONNECT_FARCASTER')) as User
      users[isSolanaChainId(user.chainId) ? 'solana' : 'eip155'] = user
      storage.set('connectedSocialProvider', 'farcaster')
      if (user.userName) storage.set('connectedSocialUsername', user.userName)
      return user
    },
    /**
     * A login the person left before it finished (their phone approved the Farcaster sign-in after they went back):
     * the frame's session ends too, and nothing of it is stored, so what the person abandoned does not sign them in later.
     */
    async abandonLogin() {
      await request('APP_SIGN_OUT').catch(() => undefined)
      clearLoginData()
    },
    /** E-mail change (SPEC §7): a code goes to the current address (VERIFY_PRIMARY_OTP), or to the new one when the account has none. */
    updateEmail: async (email: string) => ((await request('APP_UPDATE_EMAIL', { email })) as { action: EmailUpdateAction }).action,
    /** The current address's code; a code then goes to the new address. */
    updateEmailPrimaryOtp: async (otp: string) => ((await request('APP_UPDATE_EMAIL_PRIMARY_OTP', { otp })) as { action: EmailUpdateAction }).action,
    /** The new address's code: the change is made, and the stored e-mail follows it. */
    async updateEmailSecondaryOtp(otp: string) {
      const { newEmail } = (await request('APP_UPDATE_EMAIL_SECONDARY_OTP', { otp })) as { newEmail: string }
      storage.set('email', newEmail)
      return newEmail
    },
    getUser,
    /**
     * Which EVM account acts from now on (SPEC §4 setPreferredAccountType): the frame switches, the choice is stored,
     * the user is read again (its accounts, the smart account's deployment) and the connection follows the new address;
     * the login and its session stay.
     */
    async setPreferredAccountType(type: 'eoa' | 'smartAccount') {
      const { address } = (await inTurn(() => request('APP_SET_PREFERRED_ACCOUNT', { type }))) as { address: string }
      storage.set('preferredAccountTypes', { ...storage.get('preferredAccountTypes'), eip155: type })
      const chainId = users.eip155?.chainId
      await inTurn(() => getUser(typeof chainId === 'number' ? chainId : undefined))
      for (const watcher of watchers.eip155) watcher.onAccountsChanged?.([address])
      return address
    },
    /** Tells the frame the widget's theme (after a theme change). */
    syncTheme: async () => void (await request('APP_SYNC_THEME', theme())),
    /** Aborts the open RPC requests that wait for the person ('Request was aborted'). */
    abortRpcRequests() {
      rpcAborts.abort()
      rpcAborts = new AbortController()
    },
    /** APP_RELOAD: the frame starts again (its keys locked); the next request waits for it to be ready. */
    async reload() {
      await channel.request('APP_RELOAD').catch(() => undefined)
      synced = undefined
      channel.unload()
    },
    isShown: channel.isShown,
    destroy() {
      clearTimeout(toastTimer)
      rpcAborts.abort()
      watchers.eip155.clear()
      watchers.solana.clear()
      channel.destroy()
    },
  }
}

export type AuthConnector = ReturnType<typeof createAuthConnector>
