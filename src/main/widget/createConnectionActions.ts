import type { StoreApi } from 'zustand/vanilla'
import { formatCaipAddress, parseCaipNetworkId, type CaipNetworkId, type ChainNamespace } from '../../shared/protocol/caip'
import { errorTable } from '../../shared/protocol/errorTable'
import { createWidgetError, type WidgetError } from '../../shared/protocol/errors'
import type { createNotifications } from '../state/createNotifications'
import type { createRouter } from '../state/createRouter'
import { errorNotice } from '../state/errorNotice'
import { namespacesToDisconnect } from '../state/namespacesToDisconnect'
import type { WidgetStorage } from '../storage/createWidgetStorage'
import type { ConnectionController } from './createConnectionController'
import type { WidgetState } from './widgetState'

/**
 * What a visitor does with connections: connect, disconnect, switch network or family (SPEC §4). Loaded on first use
 * (or with the modal's prefetch), so none of it is in the page's start-up JS.
 */
export function createConnectionActions(
  connection: ConnectionController,
  {
    store,
    storage,
    router,
    notifications,
    onConnectDone,
  }: {
    store: StoreApi<WidgetState>
    storage: WidgetStorage
    router: ReturnType<typeof createRouter>
    notifications: ReturnType<typeof createNotifications>
    /** A connection the visitor asked for is made: sign-in follows, or the modal closes on the account (as peers do). */
    onConnectDone: () => Promise<void>
  },
) {
  const { load, connectorFor, activeNetwork, rememberWallet, setConnected, checkUnsupportedChain, refreshBalance } = connection
  const { families, networkById, stateOf, patch, activate, clearConnection, onConnectSuccess } = connection
  const namespaceOf = (caipNetworkId: string) => parseCaipNetworkId(caipNetworkId)?.namespace
  return {
    /** Connects the wallet behind `connectorId` on its family (or `namespace`, for a wallet of several families). */
    async connect(connectorId: string, namespace?: ChainNamespace) {
      await load()
      const connector = connectorFor(connectorId, namespace)
      if (!connector) throw createWidgetError('WALLET_NOT_FOUND', { details: connectorId })
      const ns = connector.namespace
      activate(ns)
      patch(ns, { status: 'connecting' })
      store.setState({ error: undefined, isSwitchingNamespace: false })
      try {
        const { accounts, caipNetworkId } = await connector.connect(activeNetwork(ns))
        if (connection.isDestroyed()) throw createWidgetError('CORE_DESTROYED', { details: 'The widget was destroyed while the wallet was asked' })
        rememberWallet(connector)
        setConnected(connector, accounts, caipNetworkId)
        onConnectSuccess({ method: 'browser', name: connector.name })
        await onConnectDone()
      } catch (error) {
        const e = error as Partial<WidgetError>
        patch(ns, { status: 'disconnected' })
        store.setState({ error: { code: e.code ?? 'UNKNOWN', message: e.shortMessage ?? errorTable.SOMETHING_WENT_WRONG.message } })
        throw error
      }
    },
    /**
     * Disconnects a family (the active one by default; with a WalletConnect or auth connector, the families sharing its
     * session too), or every connected family with 'all'.
     */
    async disconnect(namespace: ChainNamespace | 'all' = store.getState().activeNamespace) {
      const connectorIds = storage.get('connectedConnectorIds') ?? {}
      const asked = namespace === 'all' ? (Object.keys(connectorIds) as ChainNamespace[]) : [namespace]
      if (namespace !== 'all' && !families.includes(namespace)) throw createWidgetError('CHAIN_ADAPTER_NOT_FOUND', { details: namespace })
      const ended = [...new Set(asked.flatMap((ns) => namespacesToDisconnect(ns, connectorIds, (id) => connectorFor(id)?.type) as ChainNamespace[]))]
      const failures: unknown[] = []
      for (const ns of ended) {
        const id = stateOf(ns)?.connectorId
        await (id ? connectorFor(id, ns)?.disconnect() : undefined)?.catch((error: unknown) => failures.push(error))
      }
      clearConnection(ended.length > 0 ? ended : asked)
      if (failures.length > 0) {
        notifications.show(errorNotice('DISCONNECT_FAILED'), { variant: 'error' })
        throw failures[0]
      }
      if (ended.includes(store.getState().activeNamespace) || asked.includes(store.getState().activeNamespace)) router.reset('Connect')
    },
    /**
     * Switches the active network; when its family is connected, asks the wallet (an EVM wallet adds the chain if it
     * does not know it). A network of another family makes that family active (SPEC §4).
     */
    async switchNetwork(caipNetworkId: string) {
      const network = networkById(caipNetworkId)
      const ns = namespaceOf(caipNetworkId)
      if (!network || !ns) throw createWidgetError('NETWORK_NOT_FOUND', { details: `${caipNetworkId} is not one of the widget's networks` })
      await load()
      activate(ns)
      try {
        const state = stateOf(ns)!
        const connector = state.connectorId ? connectorFor(state.connectorId, ns) : undefined
        if (state.status === 'connected' && connector) await connector.switchNetwork(network)
        const id = network.caipNetworkId as CaipNetworkId
        patch(ns, { activeCaipNetworkId: id, caipAddress: state.address ? formatCaipAddress(id, state.address) : undefined })
        storage.set('activeNamespace', ns)
        storage.set('activeCaipNetworkId', id)
      } finally {
        store.setState({ isSwitchingNamespace: false })
      }
      checkUnsupportedChain()
      await refreshBalance()
    },
  }
}

export type ConnectionActions = ReturnType<typeof createConnectionActions>
