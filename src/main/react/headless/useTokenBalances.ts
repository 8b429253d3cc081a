import { useEffect, useMemo } from 'react'
import type { TokenBalance } from '../../../shared/protocol/schemas/entities'
import type { SendController } from '../../families/types'
import { useStoreSelector, useWidgetState } from '../WidgetProvider'

const noStore = { getState: () => undefined, subscribe: () => () => {} }
const noBalances: TokenBalance[] = []

/**
 * The account's token balances as the Tokens view lists them (the send form's list: what Send offers is what it
 * shows), the most valuable first; read again on each mount and when the account or its network changes.
 */
export function useTokenBalances(send: SendController | undefined) {
  const store = (send?.store ?? noStore) as typeof noStore
  const balances = useStoreSelector(store, () => send?.store.getState().tokenBalances ?? noBalances)
  // The most valuable first, as wallets list them; unpriced tokens keep the network's order (its currency first).
  const tokens = useMemo(() => [...balances].sort((a, b) => b.value - a.value), [balances])
  const hasLoaded = useStoreSelector(store, () => send?.store.getState().hasLoadedBalances ?? false)
  const isLoading = useStoreSelector(store, () => send?.store.getState().loading ?? false)
  // Read again on each visit, and when the account or its network changes under the view (the wallet switched).
  const address = useWidgetState((s) => s.address)
  const caipNetworkId = useWidgetState((s) => s.activeCaipNetworkId)
  useEffect(() => {
    void send?.loadTokenBalances({ force: true })
  }, [send, address, caipNetworkId])
  return { tokens, hasLoaded, isLoading, refresh: () => send?.loadTokenBalances({ force: true }) ?? Promise.resolve() }
}
