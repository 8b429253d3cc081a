import { createStore } from 'zustand/vanilla'
import { errorNotice, type ErrorNotice } from '../state/errorNotice'
import { TOKEN_BALANCE_RETRY_GAP_MS } from '../../shared/protocol/constants'
import type { TokenBalance } from '../../shared/protocol/schemas/entities'
import type { Notifications } from '../state/createNotifications'

/** The send form's state (SPEC §3). */
export type SendState = {
  token: TokenBalance | undefined
  sendTokenAmount: string | undefined
  receiverAddress: string | undefined
  receiverProfileName: string | undefined
  gasPrice: bigint | undefined
  gasPriceInUSD: number | undefined
  networkBalanceInUSD: string | undefined
  tokenBalances: TokenBalance[]
  loading: boolean
  lastRetry: number | undefined
  isInsufficientGas: boolean
  /** The network fee in the native currency, where the family's fee is not priced in USD (Solana). */
  networkFee: { amount: string; symbol: string } | undefined
  /** What is wrong, by error code: the view says it in the widget's locale. */
  error: ErrorNotice | undefined
}

export const initialSendState = (): SendState => ({
  token: undefined,
  sendTokenAmount: undefined,
  receiverAddress: undefined,
  receiverProfileName: undefined,
  gasPrice: undefined,
  gasPriceInUSD: undefined,
  networkBalanceInUSD: undefined,
  tokenBalances: [],
  loading: false,
  lastRetry: undefined,
  isInsufficientGas: false,
  networkFee: undefined,
  error: undefined,
})

/**
 * What every family's send form shares: its store, its fields, its reset, and the token-balance rule of SPEC §8–9
 * ('Token Balance Unavailable' on failure, and no new attempt for 30 s unless forced).
 */
export function createSendForm({ notifications, now }: { notifications: Notifications; now: () => number }) {
  const store = createStore<SendState>()(initialSendState)
  return {
    store,
    setToken: (token: TokenBalance | undefined) => store.setState({ token, error: undefined }),
    setAmount: (sendTokenAmount: string) => store.setState({ sendTokenAmount, error: undefined }),
    setReceiver: (receiverAddress: string) => store.setState({ receiverAddress, receiverProfileName: undefined, error: undefined }),
    reset: ({ keepBalances = true } = {}) =>
      store.setState({ ...initialSendState(), tokenBalances: keepBalances ? store.getState().tokenBalances : [], lastRetry: store.getState().lastRetry }),
    /** Fills the token list with what `read` answers, unless a failure is less than the retry gap ago. */
    async loadBalances(read: () => Promise<TokenBalance[]>, { force = false } = {}) {
      const { lastRetry } = store.getState()
      if (lastRetry !== undefined && now() - lastRetry < TOKEN_BALANCE_RETRY_GAP_MS && !force) return
      store.setState({ loading: true })
      try {
        store.setState({ tokenBalances: await read(), loading: false, lastRetry: undefined })
      } catch {
        store.setState({ loading: false, lastRetry: now() })
        notifications.show(errorNotice('TOKEN_BALANCE_UNAVAILABLE'), { variant: 'error' })
      }
    },
  }
}
