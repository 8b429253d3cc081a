import { createWidgetError, isWidgetError } from '../shared/protocol/errors'
import { isFrameRpcMethodAllowed, isSafeRpcMethod } from '../shared/protocol/rpcMethods'
import type { AppEvent, AppRequest } from '../shared/protocol/schemas/frameMessages'
import type { AuthClient, AuthUser, OpenedSession } from './auth/createAuthClient'
import type { SessionStore } from './auth/createSessionStore'
import type { FrameParams } from './config/readFrameParams'
import { decodeAuthShareBundle, encodeAuthShareBundle } from './keys/authShareBundle'
import type { AuthShareBackend, KeyVault } from './keys/createKeyVault'
import type { FrameRequestHandler } from './messaging/createFrameMessenger'
import type { NetworkState } from './rpc/createNetworkState'
import type { RpcRequest } from './rpc/createRpcHandler'
import type { AccountType, SmartAccounts } from './smartAccount/createSmartAccounts'
import type { FrameScreens } from './ui/createFrameScreens'

export type CreateFrameHandlersParameters = {
  params: FrameParams
  /** Undefined when the frame config names no auth service: the login requests then fail with SERVICE_NOT_CONFIGURED. */
  auth: AuthClient | undefined
  session: SessionStore
  vault: KeyVault
  networks: NetworkState
  /** The wallet's ERC-4337 accounts and the account type the person prefers. */
  smartAccounts: SmartAccounts
  screens: FrameScreens
  handleRpc: (request: RpcRequest) => Promise<unknown>
  /** Reloads the frame (APP_RELOAD), after its reply has gone. */
  reload: () => void
  /** The dApp's name from APP_SYNC_DAPP_DATA, shown on the frame's screens. */
  setDappName: (name: string | undefined) => void
}

type Handlers = { [E in AppEvent]: (payload: never) => Promise<unknown> }

/** The widget may ask for any SPEC account type; the embedded wallet has eoa and smartAccount (payment is Bitcoin's). */
const toFrameAccountType = (type: AccountType | 'payment' | undefined): AccountType | undefined => (type === 'payment' ? undefined : type)

/**
 * What the frame does for each APP_* request of SPEC §7 (the messenger checks and answers; this acts):
 * - login: e-mail code (with device approval), social by OpenID Connect, Farcaster, all through the auth service; the
 *   session token stays in the frame;
 * - user and session: the wallet is opened (made, or rebuilt from two shares) when the user is asked for, inside the frame;
 * - network, RPC, e-mail change, theme and dApp data, smart-account questions, reload.
 * @example createFrameMessenger({ ..., handle: createFrameHandlers(deps) })
 */
export function createFrameHandlers({ params, auth, session, vault, networks, smartAccounts, screens, handleRpc, reload, setDappName }: CreateFrameHandlersParameters): FrameRequestHandler {
  const flows: { email?: string; update?: string; social?: string; farcaster?: string } = {}

  const requireAuth = () => {
    if (!auth) throw createWidgetError('SERVICE_NOT_CONFIGURED', { details: 'the frame config has no authUrl' })
    return auth
  }
  const requireToken = () => {
    const token = session.token()
    if (!token) throw createWidgetError('AUTH_SESSION_EXPIRED')
    return token
  }
  const requireFlow = (id: string | undefined) => {
    if (!id) throw createWidgetError('AUTH_FLOW_EXPIRED')
    return id
  }
  /** A call with the session; a session the service says has ended is forgotten here too (and the wallet locked). */
  const withSession = async <T>(run: (token: string) => Promise<T>) => {
    try {
      return await run(requireToken())
    } catch (error) {
      if (isWidgetError(error) && error.code === 'AUTH_SESSION_EXPIRED') {
        session.clearToken()
        vault.lock()
      }
      throw error
    }
  }
  const keep = (opened: OpenedSession) => {
    vault.lock()
    session.setToken(opened.token, opened.expiresAt)
    return opened.user
  }

  const authShares = (token: string): AuthShareBackend => ({
    async get() {
      const blob = await requireAuth().getAuthShare(token)
      return blob === undefined ? undefined : decodeAuthShareBundle(blob)
    },
    async put(bundle) {
      await requireAuth().putAuthShare(encodeAuthShareBundle(bundle), token)
    },
  })

  /** The EVM network the frame is on, with its client: where the smart account questions are answered. */
  const activeEvmNetwork = () => {
    const resolved = networks.resolve('eip155', undefined)
    if (resolved.namespace !== 'eip155') throw createWidgetError('UNSUPPORTED_CHAIN_ID')
    return resolved
  }

  /**
   * The signed-in user's wallet, opened (the password screen may show), as SPEC §3's User: on an EVM network with a
   * smart account, both accounts with their types, the address being the preferred one's.
   */
  async function openUser(user: AuthUser, token: string, chainId?: string | number, preferredAccountType?: AccountType) {
    if (chainId !== undefined) networks.switchTo(chainId)
    if (preferredAccountType) smartAccounts.setPreferredType(preferredAccountType)
    const keys = await vault.unlock(user.id, authShares(token))
    const base = { email: user.email, chainId: networks.activeChainId(), userName: user.userName }
    if (networks.activeNamespace() === 'solana') return { ...base, address: keys.solana.address, accounts: [{ address: keys.solana.address, type: 'eoa' as const }], preferredAccountType: 'eoa' as const }
    const eoa = { address: keys.eip155.address, type: 'eoa' as const }
    const { network, client } = activeEvmNetwork()
    if (!smartAccounts.isEnabled(network)) return { ...base, address: eoa.address, accounts: [eoa], preferredAccountType: 'eoa' as const }
    const smart = await smartAccounts.describe(network, client)
    const preferred = smartAccounts.preferredType()
    return {
      ...base,
      address: preferred === 'smartAccount' ? smart.address : eoa.address,
      accounts: [eoa, { address: smart.address, type: 'smartAccount' as const }],
      smartAccountDeployed: smart.isDeployed,
      preferredAccountType: preferred,
    }
  }
  const currentUser = () => withSession(async (token) => ({ user: (await requireAuth().session(token)).user, token }))

  const handlers: Handlers = {
    async APP_CONNECT_EMAIL({ email }: { email: string }) {
      const answer = await requireAuth().emailStart(email, session.token())
      flows.email = answer.flowId
      return { action: answer.action }
    },
    async APP_CONNECT_DEVICE() {
      const answer = await requireAuth().deviceWait(requireFlow(flows.email))
      if (answer.action !== 'VERIFY_OTP') throw createWidgetError('AUTH_DEVICE_NOT_APPROVED')
      return {}
    },
    async APP_CONNECT_OTP({ otp }: { otp: string }) {
      keep(await requireAuth().emailVerify(requireFlow(flows.email), otp))
      flows.email = undefined
      return {}
    },
    async APP_GET_SOCIAL_REDIRECT_URI({ provider }: { provider: string }) {
      const { uri, flowId } = await requireAuth().socialStart(provider, params.parentOrigin)
      flows.social = flowId
      return { uri }
    },
    async APP_CONNECT_SOCIAL({ uri, chainId, preferredAccountType }: { uri: string; chainId?: string | number; preferredAccountType?: AccountType | 'payment' }) {
      const opened = await requireAuth().socialComplete(requireFlow(flows.social), uri)
      flows.social = undefined
      return openUser(keep(opened), opened.token, chainId, toFrameAccountType(preferredAccountType))
    },
    async APP_GET_FARCASTER_URI() {
      const { url, flowId } = await requireAuth().farcasterStart()
      flows.farcaster = flowId
      return { url }
    },
    async APP_CONNECT_FARCASTER() {
      const answer = await requireAuth().farcasterComplete(requireFlow(flows.farcaster))
      // Still waiting for the person's phone: a code of its own, so the page asks again (an expired flow is AUTH_FLOW_EXPIRED).
      if (answer.state === 'pending') throw createWidgetError('AUTH_FARCASTER_PENDING', { details: 'the Farcaster sign-in is still waiting: ask again' })
      flows.farcaster = undefined
      return openUser(keep(answer), answer.token)
    },
    async APP_GET_USER(payload: { chainId?: string | number; preferredAccountType?: AccountType | 'payment' } | undefined) {
      const { user, token } = await currentUser()
      return openUser(user, token, payload?.chainId, toFrameAccountType(payload?.preferredAccountType))
    },
    async APP_IS_CONNECTED() {
      if (!auth || !session.token()) return { isConnected: false }
      try {
        await currentUser()
        return { isConnected: true }
      } catch (error) {
        if (isWidgetError(error) && error.code === 'AUTH_SESSION_EXPIRED') return { isConnected: false }
        throw error
      }
    },
    async APP_SIGN_OUT() {
      const token = session.token()
      session.clearToken()
      vault.lock()
      screens.cancelAll()
      if (token && auth) await auth.signOut(token).catch(() => undefined)
      return {}
    },
    async APP_GET_CHAIN_ID() {
      return { chainId: networks.activeChainId() }
    },
    async APP_SWITCH_NETWORK({ chainId }: { chainId: string | number }) {
      networks.switchTo(chainId)
      return { chainId }
    },
    async APP_RPC_REQUEST(request: RpcRequest) {
      // The wallet is opened first for anything but eth_chainId and the chain reads (after a reload of the frame, say).
      const needsWallet = isFrameRpcMethodAllowed(request.method) && request.method !== 'eth_chainId' && (!isSafeRpcMethod(request.method) || request.method === 'eth_accounts')
      if (needsWallet && !vault.publicKeys() && session.token()) {
        const { user, token } = await currentUser()
        await vault.unlock(user.id, authShares(token))
      }
      return handleRpc(request)
    },
    async APP_UPDATE_EMAIL({ email }: { email: string }) {
      const answer = await withSession((token) => requireAuth().emailUpdate(email, token))
      flows.update = answer.flowId
      return { action: answer.action }
    },
    async APP_UPDATE_EMAIL_PRIMARY_OTP({ otp }: { otp: string }) {
      const answer = await withSession((token) => requireAuth().emailUpdatePrimary(requireFlow(flows.update), otp, token))
      return { action: answer.action }
    },
    async APP_UPDATE_EMAIL_SECONDARY_OTP({ otp }: { otp: string }) {
      const { newEmail } = await withSession((token) => requireAuth().emailUpdateSecondary(requireFlow(flows.update), otp, token))
      flows.update = undefined
      return { newEmail }
    },
    async APP_SYNC_THEME(theme: { themeMode?: 'light' | 'dark'; themeVariables?: Record<string, string | number> }) {
      screens.setTheme(theme)
      return {}
    },
    async APP_SYNC_DAPP_DATA({ projectId, metadata }: { projectId: string; metadata?: { name: string } }) {
      if (projectId !== params.projectId) throw createWidgetError('INVALID_PARAMS', { details: `the frame serves project ${params.projectId}` })
      setDappName(metadata?.name)
      return {}
    },
    async APP_GET_SMART_ACCOUNT_ENABLED_NETWORKS() {
      return { smartAccountEnabledNetworks: smartAccounts.enabledChainIds(networks.evmNetworks()) }
    },
    /** The smart account on the frame's EVM network: its address (known before it is deployed) and whether it is. */
    async APP_INIT_SMART_ACCOUNT() {
      if (!vault.publicKeys()) throw createWidgetError('AUTH_SESSION_EXPIRED')
      const { network, client } = activeEvmNetwork()
      return smartAccounts.describe(network, client)
    },
    /** Which account the EVM requests act as from now on; answers its address on the frame's EVM network. */
    async APP_SET_PREFERRED_ACCOUNT({ type }: { type: AccountType | 'payment' }) {
      if (type === 'payment') throw createWidgetError('SMART_ACCOUNT_UNSUPPORTED', { details: 'payment accounts are Bitcoin accounts: the embedded wallet has none' })
      const keys = vault.publicKeys()
      if (!keys) throw createWidgetError('AUTH_SESSION_EXPIRED')
      const { network, client } = activeEvmNetwork()
      if (type === 'smartAccount' && !smartAccounts.isEnabled(network)) throw createWidgetError('SMART_ACCOUNT_UNSUPPORTED', { details: `${network.name} has no smart accounts` })
      smartAccounts.setPreferredType(type)
      return { type, address: type === 'smartAccount' ? (await smartAccounts.describe(network, client)).address : keys.eip155.address }
    },
    async APP_RELOAD() {
      screens.cancelAll()
      vault.lock()
      setTimeout(reload, 0)
      return {}
    },
  }

  return (request: AppRequest) => (handlers[request.type] as (payload: unknown) => Promise<unknown>)(request.payload)
}
