import type { StoreApi } from 'zustand/vanilla'
import type { Address } from 'viem'
import { parseCaipAddress, parseCaipNetworkId } from '../../shared/protocol/caip'
import { errorTable } from '../../shared/protocol/errorTable'
import { errorNotice } from '../state/errorNotice'
import { createWidgetError } from '../../shared/protocol/errors'
import type { NamespaceConnector } from '../families/types'
import type { Modal } from '../state/createModal'
import type { Notifications } from '../state/createNotifications'
import type { Router } from '../state/createRouter'
import type { SIWXAccount, SIWXConfig } from './siwxConfig'
import type { NamespaceState, WidgetState } from './widgetState'

export type SignInControllerParameters = {
  /** The site's SIWX, once loaded; undefined when sign-in is off. */
  siwx: Promise<SIWXConfig | undefined>
  store: StoreApi<WidgetState>
  router: Router
  modal: Modal
  notifications: Notifications
  connectedConnector: () => NamespaceConnector
  disconnect: () => Promise<void>
  /** Whether the connected account is a smart account (ERC-4337), whose signature a site may not know how to check. */
  isSmartAccount?: () => boolean
}

/** The SIWX account of a CAIP-10 address: EVM chain id from an eip155 network, 0 for other families. */
const siwxAccount = (caipAddress: string): SIWXAccount | undefined => {
  const parsed = parseCaipAddress(caipAddress)
  if (!parsed) return undefined
  const { namespace, reference, address } = parsed
  return { accountAddress: address as Address, caipNetworkId: `${namespace}:${reference}`, chainId: namespace === 'eip155' ? Number(reference) : 0 }
}

/** Same CAIP-10 account: EVM addresses are case-free, base58 ones are not. */
const isSame = (a: string | undefined, b: string | undefined) =>
  a === b || (a !== undefined && b !== undefined && a.startsWith('eip155:') && a.toLowerCase() === b.toLowerCase())

/** The connected account of the active family, or undefined while it is not connected. */
const connectedCaipAddress = (s: Pick<WidgetState, 'status' | 'caipAddress'>) => (s.status === 'connected' ? s.caipAddress : undefined)

/**
 * Sign in with the wallet (SPEC §4): after connect, with no session for the account, the sign-message view opens;
 * signing stores a session and closes the modal; a failure keeps the view with the reason; cancel disconnects when
 * sign-in is required, otherwise just closes. Sign-in follows the account: a session is one address's on one network,
 * so when the wallet changes account (or, with sign-in required, network) to one without a session the view opens
 * again; disconnecting a family signs its account out on that family's networks. A smart account's signature the site
 * refuses says the site might not support smart accounts. stop() ends the watching.
 */
export function createSignInController({ siwx: siwxReady, store, router, modal, notifications, connectedConnector, disconnect, isSmartAccount = () => false }: SignInControllerParameters) {
  const account = () => {
    const { address, activeCaipNetworkId, caipAddress } = store.getState()
    const parsed = parseCaipNetworkId(activeCaipNetworkId)
    return { address: address as Address | undefined, caipAddress, caipNetworkId: activeCaipNetworkId, chainId: parsed?.namespace === 'eip155' ? Number(parsed.reference) : 0 }
  }
  /** Whether the active family is still connected to this account on this network. */
  const isCurrent = (caipAddress: string | undefined) => caipAddress !== undefined && isSame(connectedCaipAddress(store.getState()), caipAddress)
  const isOnView = (view: string) => modal.store.getState().open && router.store.getState().view === view

  /** Opens the sign-message view when sign-in is on and the account has no session; resolves whether it did. */
  const requireSignIn = async (): Promise<boolean> => {
    const { address, caipAddress, chainId, caipNetworkId } = account()
    const siwx = await siwxReady
    if (!siwx || !address || !isCurrent(caipAddress)) return false
    const sessions = await siwx.getSessions({ accountAddress: address, chainId, caipNetworkId }).catch(() => [])
    // The wallet moved on while we asked: what counts is the account it is on now.
    if (!isCurrent(caipAddress)) return store.getState().status === 'connected' ? requireSignIn() : false
    if (sessions.length > 0) {
      // Back to an account that is signed in: the question asked for the previous one goes.
      if (isOnView('SIWXSignMessage')) modal.close()
      return false
    }
    // A network the site does not offer is answered first (Switch Network); the switch asks again.
    if (isOnView('UnsupportedChain')) return false
    store.setState({ siwxError: undefined })
    router.reset('SIWXSignMessage')
    void modal.open({ namespace: store.getState().activeNamespace })
    return true
  }

  /** The wallet changed account (or network) within the active family: ask when sign-in is required, or the address changed. */
  const follow = async (previous: string, next: string) => {
    const siwx = await siwxReady
    // Another address, rather than the same one on another network.
    const isNewAddress = !isSame(`${siwxAccount(next)?.caipNetworkId}:${siwxAccount(previous)?.accountAddress}`, next)
    if (siwx && (isNewAddress || siwx.getRequired())) await requireSignIn()
  }

  /** Disconnecting signs out: the account's sessions on every network of its family the site offers, and the one it was on. */
  const signOut = async (caipAddress: string) => {
    const siwx = await siwxReady
    const signedOut = siwxAccount(caipAddress)
    if (!siwx || !signedOut) return
    const family = signedOut.caipNetworkId.split(':')[0]
    const networkIds = new Set([signedOut.caipNetworkId, ...store.getState().requestedCaipNetworkIds.filter((id) => id.startsWith(`${family}:`))])
    await Promise.allSettled([...networkIds].map((id) => siwx.revokeSession(siwxAccount(`${id}:${signedOut.accountAddress}`)!)))
  }

  const stop = store.subscribe((state, previous) => {
    const [now, before] = [connectedCaipAddress(state), connectedCaipAddress(previous)]
    // Connecting goes through requireSignIn from the connection itself; only a change while connected is followed.
    if (state.activeNamespace === previous.activeNamespace && now && before && !isSame(now, before)) void follow(before, now)
    if (state.namespaces === previous.namespaces) return
    for (const [ns, was] of Object.entries(previous.namespaces) as [string, NamespaceState][]) {
      const is = state.namespaces[ns as keyof WidgetState['namespaces']]
      if (was.status === 'connected' && was.caipAddress && is?.status === 'disconnected') void signOut(was.caipAddress)
    }
  })

  return {
    requireSignIn,
    /** Signs the SIWX message and stores the session; success closes the modal, failure keeps the view. */
    async signIn() {
      const { address, caipAddress, chainId, caipNetworkId } = account()
      const siwx = await siwxReady
      if (!siwx) throw createWidgetError('SIWX_NOT_ENABLED')
      if (!address || !caipAddress) throw createWidgetError('NO_ACTIVE_CAIP_ADDRESS')
      store.setState({ siwxError: undefined })
      notifications.show(errorNotice('AUTHENTICATING'), { variant: 'loading', autoClose: false })
      let isSigned = false
      try {
        const message = await siwx.createMessage({ accountAddress: address, chainId, caipNetworkId })
        const signature = await connectedConnector().signMessage(message, address)
        isSigned = true
        await siwx.addSession({ caipAddress, message, signature })
        notifications.close()
        // Signed in as the account asked about; if the wallet has moved on meanwhile, the question is about the new one.
        if (isCurrent(caipAddress) || !(await requireSignIn())) modal.close()
        return true
      } catch (error) {
        notifications.close()
        const isDeclined = (error as { code?: string } | null)?.code === 'USER_REJECTED'
        // Signed, yet the site would not take it: a smart account's signature needs ERC-1271/6492, which it may not check.
        const failure = isDeclined ? errorTable.SIGNATURE_DECLINED : isSigned && isSmartAccount() ? errorTable.SMART_ACCOUNT_UNSUPPORTED : errorTable.SIWX_INIT_FAILED
        store.setState({ siwxError: failure.message })
        return false
      }
    },
    /** Declining to sign in: disconnects when sign-in is required, otherwise just closes. */
    async cancelSignIn() {
      if ((await siwxReady)?.getRequired()) await disconnect().catch(() => {})
      modal.close()
    },
    /** Stops following the account (the widget's destroy()). */
    stop,
  }
}
