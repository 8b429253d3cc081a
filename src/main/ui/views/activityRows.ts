import { isAddress, zeroAddress } from 'viem'
import type { Transaction } from '../../../shared/protocol/schemas/entities'

export type ActivityDirection = 'out' | 'in' | 'self'
export type ActivityStatus = 'pending' | 'confirmed' | 'failed'

/** One row of the Activity view: what a person reads, taken from a history entry (the service's or a tracked send). */
export type ActivityRow = {
  id: string
  hash: string
  direction: ActivityDirection
  /** The other party; none when the account sent to itself. */
  counterparty: { address: string; name: string | undefined } | undefined
  /** A decimal string, as the entry has it. */
  amount: string
  symbol: string
  iconUrl: string | undefined
  /** A fungible token's transfer, its image found by its contract when the entry has none (no contract: the network's currency). */
  fungible: { address: string | undefined } | undefined
  status: ActivityStatus
  timeMs: number
  /** A purchase through an on-ramp provider (Buy): the provider's payment to the account. */
  isPurchase: boolean
  /** Tokens made for the account: a transfer in from the zero address, which no one holds. */
  isMint: boolean
}

/** Longest text of an entry a row shows (names, symbols, addresses): the rest of an absurd value is cut. */
export const MAX_SHOWN_LENGTH = 64

/** `text` cut to `max` characters (whole code points), with an ellipsis when cut. */
export const clip = (text: string, max = MAX_SHOWN_LENGTH) => {
  // A code point is at most two UTF-16 units: this many units hold max + 1 of them when the text has that many.
  const chars = [...text.slice(0, (max + 1) * 2)]
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : chars.join('')
}

/** The three statuses a row shows; whatever else a service says is not claimed as done. */
export function toActivityStatus(status: string): ActivityStatus {
  const lower = status.toLowerCase()
  if (lower === 'confirmed' || lower === 'success' || lower === 'mined') return 'confirmed'
  if (lower === 'failed' || lower === 'reverted' || lower === 'error') return 'failed'
  return 'pending'
}

const sameAddress = (a: string, b: string) => a.toLowerCase() === b.toLowerCase()

/**
 * A history entry as a row for `account`: its direction (the transfer's own, else from the parties), the other
 * party with its name when the entry carries one, its first transfer's amount and token, status and time. Undefined
 * for an entry without a readable time (as the spec's grouping by month drops it).
 */
export function toActivityRow(tx: Transaction, account: string): ActivityRow | undefined {
  const timeMs = Date.parse(tx.metadata.minedAt)
  if (Number.isNaN(timeMs)) return undefined
  const { sentFrom, sentTo, sentFromName, sentToName } = tx.metadata
  const transfer = tx.transfers[0]
  const direction: ActivityDirection =
    transfer?.direction ??
    (sameAddress(sentFrom, account) ? (sameAddress(sentTo, account) ? 'self' : 'out') : sameAddress(sentTo, account) ? 'in' : tx.metadata.operationType === 'send' ? 'out' : 'in')
  const isMint = direction === 'in' && sentFrom.toLowerCase() === zeroAddress
  const counterparty =
    direction === 'self' || isMint ? undefined : direction === 'out' ? { address: sentTo, name: sentToName ?? undefined } : { address: sentFrom, name: sentFromName ?? undefined }
  return {
    id: tx.id,
    hash: tx.metadata.hash,
    direction,
    counterparty: counterparty && { address: clip(counterparty.address), name: counterparty.name ? clip(counterparty.name) : undefined },
    amount: transfer?.quantity.numeric ?? '0',
    symbol: clip(transfer?.fungible_info?.symbol ?? transfer?.nft_info?.name ?? '', 16),
    iconUrl: transfer?.fungible_info?.icon?.url || transfer?.nft_info?.content?.preview?.url || undefined,
    fungible: transfer?.fungible_info && { address: transfer.fungible_info.implementations?.map((i) => i.address).find((address) => address && isAddress(address, { strict: false })) ?? undefined },
    status: toActivityStatus(tx.metadata.status),
    timeMs,
    isPurchase: tx.metadata.operationType === 'buy' && direction === 'in',
    isMint,
  }
}

const decimalPattern = /^-?(\d+)(?:\.(\d+))?$/
/** From here on (1e9) an amount is written compactly ("1.23B"), and from 1e15 in scientific notation ("1.234E60"). */
const COMPACT_DIGITS = 10
const SCIENTIFIC_DIGITS = 16

/**
 * An amount as the row shows it, without its sign (the direction gives it): at most 3 decimals (SPEC §5), cut not
 * rounded, without trailing zeros, in the locale's digits; "< 0.001" for less than shown (as the send form
 * writes dust); huge amounts compactly, so
 * none is wider than the row. Anything not a decimal string is cut to a few characters.
 * @example formatActivityAmount('fr', '1234.5678') // '1 234,567'
 */
export function formatActivityAmount(locale: string, value: string): string {
  const match = decimalPattern.exec(value.trim())
  if (!match) return clip(value, 16)
  const whole = match[1]!.replace(/^0+(?=\d)/, '')
  const fraction = (match[2] ?? '').slice(0, 3).replace(/0+$/, '')
  const format = (options: Intl.NumberFormatOptions, number: string) =>
    new Intl.NumberFormat(locale, { roundingMode: 'trunc', ...options }).format(number as Intl.StringNumericLiteral)
  if (whole.length >= SCIENTIFIC_DIGITS) return format({ notation: 'scientific', maximumFractionDigits: 3 }, whole)
  if (whole.length >= COMPACT_DIGITS) return format({ notation: 'compact', maximumFractionDigits: 2 }, whole)
  if (whole === '0' && fraction === '' && /[1-9]/.test(match[2] ?? '')) return `< ${format({ minimumFractionDigits: 3 }, '0.001')}`
  return format({ minimumFractionDigits: fraction.length, maximumFractionDigits: fraction.length }, fraction ? `${whole}.${fraction}` : whole)
}

/** A transaction's page on the network's explorer (`{url}/tx/{hash}`), or undefined without an explorer or a real hash. */
export function explorerTransactionUrl(explorerUrl: string | undefined, hash: string): string | undefined {
  if (!explorerUrl || !/^0x[0-9a-fA-F]{64}$/.test(hash)) return undefined
  return `${explorerUrl.replace(/\/+$/, '')}/tx/${hash}`
}

/** Rows by local calendar day, newest day first; `dayStartMs` is that day's local midnight. */
export function groupRowsByDay(rows: readonly ActivityRow[]): { dayStartMs: number; rows: ActivityRow[] }[] {
  const groups = new Map<number, ActivityRow[]>()
  for (const row of [...rows].sort((a, b) => b.timeMs - a.timeMs)) {
    const date = new Date(row.timeMs)
    const dayStartMs = new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime()
    const group = groups.get(dayStartMs)
    if (group) group.push(row)
    else groups.set(dayStartMs, [row])
  }
  return [...groups].map(([dayStartMs, grouped]) => ({ dayStartMs, rows: grouped }))
}

/** How many calendar days (local) `dayStartMs` is before the day of `nowMs`: 0 today, 1 yesterday. */
export function daysAgo(dayStartMs: number, nowMs: number): number {
  const now = new Date(nowMs)
  const today = new Date(now.getFullYear(), now.getMonth(), now.getDate())
  const day = new Date(dayStartMs)
  // Calendar dates, not 24-hour spans: a day with a DST change is 23 or 25 hours long.
  return Math.round((Date.UTC(today.getFullYear(), today.getMonth(), today.getDate()) - Date.UTC(day.getFullYear(), day.getMonth(), day.getDate())) / 86_400_000)
}

/**
 * The account's rows, newest first: this widget's own sends (tracked) on top until the service's history has them,
 * then the service's history.
 */
export function activityRowsOf({ transactions, trackedTransactions }: { transactions: readonly Transaction[]; trackedTransactions: readonly Transaction[] }, address: string | undefined): ActivityRow[] {
  if (!address) return []
  const known = new Set(transactions.map((tx) => tx.metadata.hash.toLowerCase()))
  const tracked = trackedTransactions.filter((tx) => !known.has(tx.metadata.hash.toLowerCase()))
  return [...tracked, ...transactions].map((tx) => toActivityRow(tx, address)).filter((row) => row !== undefined)
}
