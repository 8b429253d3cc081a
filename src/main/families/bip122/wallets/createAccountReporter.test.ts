import { describe, expect, it } from 'vitest'
import type { BitcoinAccount } from './bitcoinConnector'
import { createAccountReporter } from './createAccountReporter'

const payment = (address: string): BitcoinAccount[] => [{ address, purpose: 'payment' }]
const flush = () => new Promise((resolve) => setTimeout(resolve, 0))

/** A promise and the function that settles it, to answer in any order. */
function deferred<T>() {
  let resolve!: (value: T) => void
  const promise = new Promise<T>((r) => (resolve = r))
  return { promise, resolve }
}

function setup(initial: BitcoinAccount[] = payment('a')) {
  const events: unknown[] = []
  const reporter = createAccountReporter({
    currentAccounts: async () => initial,
    onAccountsChanged: (accounts) => events.push(accounts),
    onDisconnect: () => events.push('disconnect'),
  })
  return { reporter, events }
}

describe('createAccountReporter', () => {
  it('reports changed accounts, skips unchanged ones, and an empty list is a disconnect', async () => {
    const { reporter, events } = setup()
    await flush()
    reporter.report(payment('a'))
    reporter.report(payment('b'))
    reporter.report(payment('b'))
    reporter.report([])
    expect(events).toEqual([payment('b'), 'disconnect'])
  })

  it('counts only the newest answer asked for', async () => {
    const { reporter, events } = setup()
    await flush()
    const older = deferred<BitcoinAccount[]>()
    const newer = deferred<BitcoinAccount[]>()
    reporter.reportNewest(older.promise)
    reporter.reportNewest(newer.promise)
    newer.resolve(payment('new'))
    older.resolve(payment('old'))
    await flush()
    expect(events).toEqual([payment('new')])
  })

  it('reports nothing once stopped', async () => {
    const { reporter, events } = setup()
    await flush()
    reporter.stop()
    reporter.report(payment('b'))
    reporter.reportNewest(Promise.resolve(payment('c')))
    await flush()
    expect(events).toEqual([])
  })
})
