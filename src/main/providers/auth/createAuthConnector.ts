import { formatCaipNetworkId, parseCaipNetworkId } from '../../../shared/protocol/caip'
import { checkEmailLoginThrottle } from '../../../shared/protocol/emailThrottle'
import { createWidgetError } from '../../../shared/protocol/errors'
import { isSafeRpcMethod } from '../../../shared/protocol/rpcMethods'
import { utf8ToHex } from '../../../shared/protocol/eip1193'
import type { User } from '../../../shared/protocol/schemas/entities'
import type { NamespaceConnector, NamespaceConnectorEvents } from '../../namespaces/types'
import type { WidgetStorage } from '../../storage/createWidgetStorage'
import type { WidgetNetwork } from '../../widget/config'
import type { WalletRequest } from '../eip1193'
import { createFrameChannel, type CreateFrameChannelParameters, type FrameChannel } from './createFrameChannel'

/** The auth connector's id (SPEC §3 connector type AUTH): e-mail and social logins share it. */
export const AUTH_CONNECTOR_ID = 'auth'

export type SocialProvider = 'google' | 'github' | 'apple' | 'facebook' | 'x' | 'discord'
export type EmailConnectAction = 'VERIFY_DEVICE' | 'VERIFY_OTP' | 'CONNECT'

export type CreateAuthConnectorParameters = Omit<CreateFrameChannelParameters, 'onOpen' | 'onClose'> & {
  storage: WidgetStorage
  /** The app's theme and data, sent to the frame once it is ready (APP_SYNC_THEME, APP_SYNC_DAPP_DATA). */
  theme: () => { themeMode: 'light' | 'dark'; themeVariables?: Record<string, string | number> }
  dappData: { sdkType: string; metadata?: { name: string; description?: string; url?: string; icons?: string[] } }
  onOpen?: CreateFrameChannelParameters['onOpen']
  onClose?: CreateFrameChannelParameters['onClose']
  now?: () => number
}

const chainIdOf = (caipNetworkId: string) => Number(parseCaipNetworkId(caipNetworkId)?.reference)

/**
 * The auth connector (SPEC §1, §4, §6): e-mail and social login, and an EIP-1193 wallet whose every request goes to the
 * secure frame as APP_RPC_REQUEST (the frame asks the person itself for the unsafe ones). Its login-state rules:
 * - a second e-mail login within 30 s is 'Please try again after {n} seconds' (the last login time is stored);
 * - after a successful e-mail login the e-mail and the login-used flag are stored and the last login time removed;
 * - after sign-out, or an is-connected check that answers false or fails, the cached login data is cleared.
 * @example const auth = createAuthConnector({ frameUrl, params, window, storage, theme, dappData }); await auth.connectEmail('me@example.com')
 */
export function createAuthConnector({ storage, theme, dappData, now = Date.now, onOpen, onClose, ...channelParameters }: CreateAuthConnectorParameters) {
  const watchers = new Set<NamespaceConnectorEvents>()
  const channel: FrameChannel = createFrameChannel({ ...channelParameters, ...(onOpen && { onOpen }), ...(onClose && { onClose }) })
  let user: User | undefined
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
    user = undefined
  }

  const getUser = async (chainId?: number) => {
    user = (await request('APP_GET_USER', chainId === undefined ? {} : { chainId })) as User
    return user
  }

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
    return (await request('APP_RPC_REQUEST', { method, ...(params !== undefined && { params }), chainNamespace: 'eip155' }, isSafeRpcMethod(method) ? {} : { signal: rpcAborts.signal })) as T
  }
  // Open RPC requests other than the safe reads can be aborted (SPEC §6).
  let rpcAborts = new AbortController()

  async function switchTo(chainId: number) {
    await request('APP_SWITCH_NETWORK', { chainId })
    for (const watcher of watchers) watcher.onNetworkChanged?.(formatCaipNetworkId('eip155', chainId))
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
    async connect(network: WidgetNetwork) {
      const connected = await getUser(chainIdOf(network.caipNetworkId))
      return { accounts: [connected.address], caipNetworkId: formatCaipNetworkId('eip155', connected.chainId) }
    },
    async isAuthorized() {
      try {
        const { isConnected } = (await request('APP_IS_CONNECTED')) as { isConnected: boolean }
        if (!isConnected) clearLoginData()
        return isConnected
      } catch (error) {
        clearLoginData()
        throw error
      }
    },
    getAccounts: async () => [(user ?? (await getUser())).address],
    async getCaipNetworkId() {
      const { chainId } = (await request('APP_GET_CHAIN_ID')) as { chainId: string | number }
      return formatCaipNetworkId('eip155', chainId)
    },
    async disconnect() {
      rpcAborts.abort()
      rpcAborts = new AbortController()
      try {
        await request('APP_SIGN_OUT')
      } finally {
        clearLoginData()
      }
    },
    switchNetwork: (network) => switchTo(chainIdOf(network.caipNetworkId)),
    signMessage: async (message, address) => (await walletRequest({ method: 'personal_sign', params: [utf8ToHex(message), address] })) as string,
    watch(events) {
      watchers.add(events)
      return () => void watchers.delete(events)
    },
  }

  return {
    eip155,
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
      user = (await request('APP_CONNECT_SOCIAL', { uri, ...(chainId !== undefined && { chainId }) })) as User
      storage.set('connectedSocialProvider', provider)
      if (user.userName) storage.set('connectedSocialUsername', user.userName)
      return user
    },
    getUser,
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
      rpcAborts.abort()
      watchers.clear()
      channel.destroy()
    },
  }
}

export type AuthConnector = ReturnType<typeof createAuthConnector>
