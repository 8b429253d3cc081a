import type { Hex } from 'viem'

export type PendingTransaction = {
  chainId: number
  hash: Hex
  status: 'pending' | 'success' | 'reverted' | 'timeout'
  addedAt: number
  blockNumber?: bigint
}

export type TransportRank = { url: string; score: number; stability: number; latencyMs: number }

export type BalanceEntry = { caipNetworkId: string; owner: string; token: string | null; value: bigint; updatedAt: number }

/** What the worker knows about the chains, mirrored read-only on the main thread. Keys are strings. */
export type CoreState = {
  /** By chain id. */
  blockNumbers: Record<string, bigint>
  /** By balanceKey: `${caipNetworkId}:${owner}:${token ?? 'native'}`, for every chain family. */
  balances: Record<string, BalanceEntry>
  /** By transaction hash; at most PENDING_TRANSACTIONS_LIMIT. */
  pendingTransactions: Record<string, PendingTransaction>
  /** By chain id, best first. */
  transportRanks: Record<string, TransportRank[]>
}

export type CoreStateSlice = keyof CoreState

export const initialCoreState = (): CoreState => ({ blockNumbers: {}, balances: {}, pendingTransactions: {}, transportRanks: {} })

/** Where a balance sits in CoreState.balances. EVM addresses are case-free (lower-cased); base58 ones are not. */
export const balanceKey = (caipNetworkId: string, owner: string, token: string | null = null) => {
  const fold = (text: string) => (caipNetworkId.startsWith('eip155:') ? text.toLowerCase() : text)
  return `${caipNetworkId}:${fold(owner)}:${token === null ? 'native' : fold(token)}`
}

/** One slice's changes: entries set (new or changed) and keys removed. */
export type SlicePatch = { slice: CoreStateSlice; set: Record<string, unknown>; remove: string[] }

/** What the worker posts on the store's port: a snapshot first, then the changes of each tick. */
export type StoreMessage =
  | { kind: 'snapshot'; version: number; state: CoreState }
  | { kind: 'patch'; version: number; patches: SlicePatch[] }

export type MessageTarget = { postMessage(message: StoreMessage): void }
