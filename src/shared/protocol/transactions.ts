import { createWidgetError } from './errors'
import type { Transaction } from './schemas/entities'

/**
 * History filtering (SPEC §5): drop transactions whose transfers are all spam-flagged NFTs, then keep only those on
 * the connected chain.
 */
export function filterTransactions(transactions: readonly Transaction[], caipNetworkId: string): Transaction[] {
  return transactions
    .filter((tx) => !(tx.transfers.length > 0 && tx.transfers.every((t) => t.nft_info?.flags?.is_spam === true)))
    .filter((tx) => tx.metadata.chain === caipNetworkId)
}

/** Transactions by year, then month (1–12), newest first within each, as the transactions state keeps them. */
export function groupTransactionsByYearMonth(transactions: readonly Transaction[]): Record<number, Record<number, Transaction[]>> {
  const grouped: Record<number, Record<number, Transaction[]>> = {}
  const sorted = [...transactions].sort((a, b) => Date.parse(b.metadata.minedAt) - Date.parse(a.metadata.minedAt))
  for (const tx of sorted) {
    const date = new Date(tx.metadata.minedAt)
    if (Number.isNaN(date.getTime())) continue
    const year = date.getUTCFullYear()
    const month = date.getUTCMonth() + 1
    ;((grouped[year] ??= {})[month] ??= []).push(tx)
  }
  return grouped
}

/** Fetching history needs an account ("Transactions can't be fetched without an accountAddress"). */
export function requireAccountAddress(accountAddress: string | undefined): string {
  if (!accountAddress) throw createWidgetError('TRANSACTIONS_NO_ACCOUNT')
  return accountAddress
}
