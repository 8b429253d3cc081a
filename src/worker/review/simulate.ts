import { createClient, custom, ethAddress, getAddress, hexToBigInt, pad, size, type Address, type Hex } from 'viem'
import { simulateCalls } from 'viem/actions'
import type { ErrorCode } from '../../shared/protocol/errorTable'
import type { RevertReason } from '../../shared/protocol/review'
import { toWidgetError } from '../rpc-transport/toWidgetError'
import { decodeRevertReason } from './decodeRevertReason'

/** The worker's JSON-RPC to one network (Eip155Client.request): its transports, ranking and retries. */
export type RpcClient = { request: (method: string, params?: readonly unknown[]) => Promise<unknown> }

export type SimulateParameters = {
  client: RpcClient
  from: Address
  calls: readonly { to: Address; data?: Hex; value?: bigint }[]
}

/** A balance change of `from`, by asset: 'native' or an ERC-20's address. */
export type SimulatedChange = { asset: 'native' | Address; amount: bigint }

export type SimulateReturnType =
  | { status: 'simulated'; balanceChanges: SimulatedChange[]; calls: { gasUsed: bigint; revert?: RevertReason }[] }
  | { status: 'notSimulated'; why: 'unsupported' | 'failed'; errorCode: ErrorCode }

const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef'
type Log = { address: Address; topics: readonly Hex[]; data: Hex }

/**
 * The account's balance changes, from the simulated logs: ERC-20 Transfer events (from and to indexed, the amount in
 * the data; an ERC-721 Transfer indexes its token id as a fourth topic and is left out), and the Transfer logs that
 * `traceTransfers` makes for native value under the address 0xEeee…EEeE.
 */
function balanceChangesOf(account: Address, logs: readonly Log[]): SimulatedChange[] {
  const topic = pad(account, { size: 32 }).toLowerCase()
  const totals = new Map<'native' | Address, bigint>()
  for (const log of logs) {
    const [event, from, to] = log.topics.map((t) => t.toLowerCase())
    if (event !== TRANSFER_TOPIC || log.topics.length !== 3 || size(log.data) !== 32) continue
    const sign = (to === topic ? 1n : 0n) - (from === topic ? 1n : 0n)
    if (sign === 0n) continue
    const asset = log.address.toLowerCase() === ethAddress.toLowerCase() ? 'native' : getAddress(log.address)
    totals.set(asset, (totals.get(asset) ?? 0n) + sign * hexToBigInt(log.data))
  }
  return [...totals].filter(([, amount]) => amount !== 0n).map(([asset, amount]) => ({ asset, amount }))
}

/**
 * Simulates calls from an account, in order, on the latest block with eth_simulateV1 (`traceTransfers` on): the
 * account's native and ERC-20 balance changes, each call's gas and, for a call that would revert, why. A node
 * without eth_simulateV1 gives 'notSimulated'.
 *
 * viem's `traceAssetChanges` would read balances before and after instead of summing transfers, but it reads the
 * native balance with a call that has no `to` (deployless), which anvil refuses, and costs two more round trips.
 * @example const simulation = await simulate({ client, from, calls: [{ to: token, data }] })
 */
export async function simulate({ client, from, calls }: SimulateParameters): Promise<SimulateReturnType> {
  // The worker's client retries already; viem's own retries would multiply them.
  const transport = custom({ request: ({ method, params }) => client.request(method, params) }, { retryCount: 0 })
  try {
    const { results } = await simulateCalls(createClient({ transport }), { account: from, calls, traceTransfers: true })
    const logs = results.flatMap((result) => (result.status === 'success' ? (result.logs ?? []) : []))
    return {
      status: 'simulated',
      balanceChanges: balanceChangesOf(from, logs),
      calls: results.map((result) => (result.status === 'success' ? { gasUsed: result.gasUsed } : { gasUsed: result.gasUsed, revert: decodeRevertReason(result.data) })),
    }
  } catch (error) {
    const { code } = toWidgetError(error)
    const isUnsupported = code === 'METHOD_NOT_FOUND' || code === 'METHOD_NOT_SUPPORTED'
    return { status: 'notSimulated', why: isUnsupported ? 'unsupported' : 'failed', errorCode: code }
  }
}
