import type { TokenBalance } from '../../../shared/protocol/schemas/entities'
import type { ErrorNotice } from '../../state/errorNotice'
import { useWidgetState } from '../WidgetProvider'
import { loadSend } from './loadFeatures'
import { useLoaded } from './useLoaded'
import { useTokenBalances } from './useTokenBalances'

export type UseTokensReturnType = {
  /** The network's currency and the site's tokens the account holds, the most valuable first (`value` in USD, 0 unpriced). */
  tokens: TokenBalance[]
  /** The first read has ended (with balances, or none: the network did not answer). */
  hasLoaded: boolean
  /** A read is under way. */
  isLoading: boolean
  /** Why the balances' code could not load. */
  error: ErrorNotice | undefined
  /** Reads the balances again. */
  refresh: () => Promise<void>
}

/**
 * The connected account's tokens on the active network, as the Tokens view lists them.
 * @example const { tokens } = useTokens(); tokens.map((t) => <li key={t.symbol}>{t.quantity.numeric} {t.symbol}</li>)
 */
export function useTokens(): UseTokensReturnType {
  const namespace = useWidgetState((s) => s.activeNamespace)
  const isConnected = useWidgetState((s) => s.status === 'connected')
  const loaded = useLoaded(isConnected ? namespace : undefined, loadSend)
  const { tokens, hasLoaded, isLoading, refresh } = useTokenBalances(loaded?.value)
  return { tokens, hasLoaded, isLoading: isLoading || (isConnected && !loaded), error: loaded?.error, refresh }
}
