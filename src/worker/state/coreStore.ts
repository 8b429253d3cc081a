import type { Hex } from 'viem'
import { createStore } from 'zustand/vanilla'

export type PendingTransaction = {
  chainId: number
  hash: Hex
  status: 'pending' | 'success' | 'reverted' | 'timeout'
  addedAt: number
  blockNumber?: bigint
}

export type TransportRank = { url: string; score: number; stability: number; latencyMs: number }

export type BalanceEntry = { chainId: number; owner: string; token: string | null; value: bigint; updatedAt: number }

/** What the worker knows about the chains, mirrored read-only on the main thread. Keys are strings. */
export type CoreState = {
  /** By chain id. */
  blockNumbers: Record<string, bigint>
  /** By `${chainId}:${owner}:${token ?? 'native'}`. */
  balances: Record<string, BalanceEntry>
  /** By transaction hash; at most PENDING_TRANSACTIONS_LIMIT. */
  pendingTransactions: Record<string, PendingTransaction>
  /** By chain id, best first. */
  transportRanks: Record<string, TransportRank[]>
}

export type CoreStateSlice = keyof CoreState

export const initialCoreState = (): CoreState => ({ blockNumbers: {}, balances: {}, pendingTransactions: {}, transportRanks: {} })

/** The worker's own zustand store. */
export function createCoreStore() {
  return createStore<CoreState>()(() => initialCoreState())
}

export type CoreStore = ReturnType<typeof createCoreStore>

export const balanceKey = (chainId: number, owner: string, token: string | null) =>
  `${chainId}:${owner.toLowerCase()}:${token?.toLowerCase() ?? 'native'}`
