import { sameAccounts, type BitcoinAccount, type BitcoinConnectorEvents } from './bitcoinConnector'

export type CreateAccountReporterParameters = BitcoinConnectorEvents & {
  /** The accounts the wallet gives the site now: what later changes are compared with until the first one is reported. */
  currentAccounts: () => Promise<BitcoinAccount[]>
}

/**
 * Turns a wallet's account answers into a connector's watch events: an unchanged list is not reported, a non-empty one
 * is onAccountsChanged, an empty one onDisconnect, and nothing is reported once stopped.
 * @example
 * const reporter = createAccountReporter({ currentAccounts, onAccountsChanged, onDisconnect })
 * provider.on('networkChanged', () => reporter.reportNewest(currentAccounts()))
 */
export function createAccountReporter({ currentAccounts, onAccountsChanged, onDisconnect }: CreateAccountReporterParameters) {
  let last: BitcoinAccount[] | undefined
  let isStopped = false
  let sequence = 0
  void currentAccounts().then((accounts) => (last ??= accounts))

  const report = (next: BitcoinAccount[]) => {
    if (isStopped || (last && sameAccounts(next, last))) return
    last = next
    if (next.length > 0) onAccountsChanged?.(next)
    else onDisconnect?.()
  }

  return {
    /** Reports accounts the wallet gave with its event. */
    report,
    /** Reports the accounts `answer` brings, unless a newer answer was asked for meanwhile: only the newest counts. */
    reportNewest(answer: Promise<BitcoinAccount[]>) {
      const seq = ++sequence
      void answer.then((next) => seq === sequence && report(next))
    },
    stop() {
      isStopped = true
    },
  }
}
