import type { StoreApi } from 'zustand/vanilla'
import type { Address } from 'viem'
import { parseCaipNetworkId } from '../../shared/protocol/caip'
import { errorTable } from '../../shared/protocol/errorTable'
import { createWidgetError } from '../../shared/protocol/errors'
import type { NamespaceConnector } from '../namespaces/types'
import type { Modal } from '../state/createModal'
import type { Notifications } from '../state/createNotifications'
import type { Router } from '../state/createRouter'
import type { SIWXConfig } from './siwxConfig'
import type { WidgetState } from './widgetState'

export type SignInControllerParameters = {
  /** The site's SIWX, once loaded; undefined when sign-in is off. */
  siwx: Promise<SIWXConfig | undefined>
  store: StoreApi<WidgetState>
  router: Router
  modal: Modal
  notifications: Notifications
  connectedConnector: () => NamespaceConnector
  disconnect: () => Promise<void>
}

/**
 * Sign in with the wallet (SPEC §4): after connect, with no session for the account, the sign-message view opens;
 * signing stores a session and closes the modal; a failure keeps the view with the reason; cancel disconnects when
 * sign-in is required, otherwise just closes.
 */
export function createSignInController({ siwx: siwxReady, store, router, modal, notifications, connectedConnector, disconnect }: SignInControllerParameters) {
  const account = () => {
    const { address, activeCaipNetworkId, caipAddress } = store.getState()
    const parsed = parseCaipNetworkId(activeCaipNetworkId)
    return { address: address as Address | undefined, caipAddress, caipNetworkId: activeCaipNetworkId, chainId: parsed?.namespace === 'eip155' ? Number(parsed.reference) : 0 }
  }
  return {
    /** Opens the sign-message view when sign-in is on and the account has no session; resolves whether it did. */
    async requireSignIn() {
      const { address, chainId, caipNetworkId } = account()
      const siwx = await siwxReady
      if (!siwx || !address) return false
      const sessions = await siwx.getSessions({ accountAddress: address, chainId, caipNetworkId }).catch(() => [])
      if (sessions.length > 0) return false
      store.setState({ siwxError: undefined })
      router.reset('SIWXSignMessage')
      void modal.open({ namespace: store.getState().activeNamespace })
      return true
    },
    /** Signs the SIWX message and stores the session; success closes the modal, failure keeps the view. */
    async signIn() {
      const { address, caipAddress, chainId, caipNetworkId } = account()
      const siwx = await siwxReady
      if (!siwx) throw createWidgetError('SIWX_NOT_ENABLED')
      if (!address || !caipAddress) throw createWidgetError('NO_ACTIVE_CAIP_ADDRESS')
      store.setState({ siwxError: undefined })
      notifications.show(errorTable.AUTHENTICATING.message, { variant: 'loading', autoClose: false })
      try {
        const message = await siwx.createMessage({ accountAddress: address, chainId, caipNetworkId })
        const signature = await connectedConnector().signMessage(message, address)
        await siwx.addSession({ caipAddress, message, signature })
        notifications.close()
        modal.close()
        return true
      } catch (error) {
        notifications.close()
        const isDeclined = (error as { code?: string }).code === 'USER_REJECTED'
        store.setState({ siwxError: (isDeclined ? errorTable.SIGNATURE_DECLINED : errorTable.SIWX_INIT_FAILED).message })
        return false
      }
    },
    /** Declining to sign in: disconnects when sign-in is required, otherwise just closes. */
    async cancelSignIn() {
      if ((await siwxReady)?.getRequired()) await disconnect().catch(() => {})
      modal.close()
    },
  }
}
