import type { StoreApi } from 'zustand/vanilla'
import { PAIRING_EXPIRED_THRESHOLD_MS, PAIRING_EXPIRY_MS, PAIRING_RETRY_AFTER_MS } from '../../shared/protocol/constants'
import { errorTable } from '../../shared/protocol/errorTable'
import type { WidgetError } from '../../shared/protocol/errors'
import { isPairingExpired } from '../../shared/protocol/walletLinks'
import type { Pairing } from '../connectors/createWalletConnectConnector'

/** The connection state of a WalletConnect pairing (SPEC §3: wcUri, wcPairingExpiry, wcLinking, recentWallet, wcError). */
export type PairingState = {
  wcUri: string | undefined
  wcPairingExpiry: number | undefined
  /** The deep link the visitor followed, kept on success as the deep-link choice. */
  wcLinking: { name: string; href: string } | undefined
  /** The registry wallet the pairing is for, if the visitor picked one. */
  wcWallet: { id: string; name: string } | undefined
  wcError: { code: string; message: string } | undefined
}

export const initialPairingState: PairingState = { wcUri: undefined, wcPairingExpiry: undefined, wcLinking: undefined, wcWallet: undefined, wcError: undefined }

const describe = (error: unknown) => {
  const e = error as Partial<WidgetError>
  return { code: e.code ?? 'UNKNOWN', message: e.shortMessage ?? errorTable.SOMETHING_WENT_WRONG.message }
}

export type WalletConnectPairingParameters = {
  pair: () => Promise<Pairing>
  store: StoreApi<PairingState>
  onApproved: (result: Awaited<Pairing['approval']>) => void
  now?: () => number
}

/**
 * Keeps a live pairing URI while a WalletConnect view shows (SPEC §4): a pairing lasts 4 minutes and counts as
 * expired with 10 s left, then a fresh one is made, never sooner than 1 s after the last attempt. A wallet that
 * declines leaves an error and no URI until the visitor retries.
 */
export function createWalletConnectPairing({ pair, store, onApproved, now = Date.now }: WalletConnectPairingParameters) {
  let generation = 0
  let lastAttempt = -Infinity
  let timer: ReturnType<typeof setTimeout> | undefined

  const scheduleRefresh = (expiry: number, id: number) => {
    clearTimeout(timer)
    timer = setTimeout(() => {
      if (id !== generation) return
      store.setState({ wcUri: undefined, wcPairingExpiry: undefined })
      void start()
    }, Math.max(0, expiry - PAIRING_EXPIRED_THRESHOLD_MS - now()))
  }

  async function start(wallet?: { id: string; name: string }): Promise<void> {
    const id = ++generation
    clearTimeout(timer)
    if (wallet) store.setState({ wcWallet: wallet })
    const { wcUri, wcPairingExpiry } = store.getState()
    if (wcUri && wcPairingExpiry && !isPairingExpired(wcPairingExpiry, now())) return scheduleRefresh(wcPairingExpiry, id)
    const wait = lastAttempt + PAIRING_RETRY_AFTER_MS - now()
    if (wait > 0) {
      timer = setTimeout(() => id === generation && void start(), wait)
      return
    }
    lastAttempt = now()
    store.setState({ wcUri: undefined, wcPairingExpiry: undefined, wcError: undefined })
    let pairing: Pairing
    try {
      pairing = await pair()
    } catch (error) {
      if (id === generation) store.setState({ wcError: describe(error) })
      return
    }
    pairing.approval.then(onApproved, (error: unknown) => {
      if (id !== generation || store.getState().wcUri !== pairing.uri) return
      store.setState({ wcUri: undefined, wcPairingExpiry: undefined, wcError: describe(error) })
    })
    if (id !== generation) return
    const expiry = now() + PAIRING_EXPIRY_MS
    store.setState({ wcUri: pairing.uri, wcPairingExpiry: expiry })
    scheduleRefresh(expiry, id)
  }

  return {
    start,
    /** Stops refreshing; the URI stays for the next start while it is live (the view may come back). */
    pause() {
      generation++
      clearTimeout(timer)
    },
    /** Reset of connection (SPEC §4): no URI, expiry, linking, wallet or error. */
    reset() {
      generation++
      clearTimeout(timer)
      store.setState(initialPairingState)
    },
  }
}

export type WalletConnectPairing = ReturnType<typeof createWalletConnectPairing>
