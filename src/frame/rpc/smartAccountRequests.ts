import { formatEther, getAddress, numberToHex, type Address, type Client, type Hex } from 'viem'
import type { UserOperationReceipt } from 'viem/account-abstraction'
import { createWidgetError } from '../../shared/protocol/errors'
import { parseOrThrow } from '../../shared/protocol/schemas/parse'
import type { FrameEvmNetwork } from '../config/frameConfig'
import type { Call, FeePayer, SmartAccounts } from '../smartAccount/createSmartAccounts'
import type { ApprovalRequest, FeeShown } from './approvalRequest'
import { describeTokenCall, invalidParams, requireOwnAccount, sendCallsParams, sendTransactionParams } from './evmRequests'

export type SmartRequestContext = {
  network: FrameEvmNetwork
  client: Client
  smartAccounts: SmartAccounts
  approve: (request: ApprovalRequest) => Promise<void>
}

const feeShown = (payer: FeePayer): FeeShown =>
  payer.kind === 'sponsor'
    ? { payer: 'sponsor' }
    : { payer: 'account', sponsorRefused: payer.refusal?.reason === 'refused' ? { code: payer.refusal.code, message: payer.refusal.message } : undefined, sponsorUnreachable: payer.refusal?.reason === 'unreachable' }
const maxFeeOf = (payer: FeePayer) => (payer.kind === 'account' ? formatEther(payer.maxFeeWei) : undefined)
const dataBytes = (data: Hex | undefined) => (data ? (data.length - 2) / 2 : 0)

/**
 * eth_sendTransaction from the smart account: one UserOperation with the one call, prepared (estimated, sponsored or
 * not) before the person sees it, then signed and sent; resolves to the hash of the transaction that carried it, once
 * it landed (what a dApp waiting for a receipt needs). The fee fields are the bundler's, not the request's.
 */
export async function smartSendTransaction(params: unknown, { network, client, smartAccounts, approve }: SmartRequestContext): Promise<Hex> {
  const [tx] = parseOrThrow(sendTransactionParams, params, 'eth_sendTransaction params', ['params'])
  const { address } = await smartAccounts.accountFor(network, client)
  requireOwnAccount(tx.from, address)
  if (tx.chainId !== undefined && BigInt(tx.chainId) !== BigInt(network.chainId)) throw invalidParams(`the transaction is for chain ${BigInt(tx.chainId)}, the wallet is on ${network.chainId}`)
  if (!tx.to) throw invalidParams('a smart account does not deploy contracts with eth_sendTransaction: `to` is required')
  const call: Call = { to: getAddress(tx.to), value: tx.value === undefined ? 0n : BigInt(tx.value), data: (tx.data ?? tx.input) as Hex | undefined }
  const prepared = await smartAccounts.prepare(network, client, [call])
  await approve({
    kind: 'sendTransaction',
    network: network.name,
    account: address,
    accountType: 'smartAccount',
    to: call.to,
    amount: formatEther(call.value),
    symbol: network.nativeCurrency.symbol,
    maxFee: maxFeeOf(prepared.feePayer),
    fee: feeShown(prepared.feePayer),
    token: await describeTokenCall(client, call.to, call.data),
    dataBytes: dataBytes(call.data),
  })
  const hash = await smartAccounts.send(network, client, prepared)
  const { success, receipt } = await smartAccounts.waitForReceipt(network, client, hash)
  // The bundle's transaction succeeds when the operation in it reverts: its hash alone would say the call was made.
  if (!success) throw createWidgetError('EXECUTION_REVERTED', { details: `the operation landed in transaction ${receipt.transactionHash} and reverted: nothing of it was applied` })
  return receipt.transactionHash
}

/** wallet_sendCalls from the smart account: every call in one UserOperation (all or none), each shown before it is signed. */
export async function smartSendCalls(params: unknown, { network, client, smartAccounts, approve }: SmartRequestContext): Promise<{ id: Hex }> {
  const [request] = parseOrThrow(sendCallsParams, params, 'wallet_sendCalls params', ['params'])
  const { address } = await smartAccounts.accountFor(network, client)
  if (request.from !== undefined && getAddress(request.from) !== address) throw createWidgetError('UNAUTHORIZED', { details: `${request.from} is not this wallet's account` })
  if (request.chainId !== undefined && BigInt(request.chainId) !== BigInt(network.chainId)) throw createWidgetError('UNSUPPORTED_CHAIN_ID')
  const calls: Call[] = request.calls.map((call) => ({ to: getAddress(call.to), value: BigInt(call.value ?? '0x0'), data: call.data as Hex | undefined }))
  const prepared = await smartAccounts.prepare(network, client, calls)
  await approve({
    kind: 'sendCalls',
    network: network.name,
    account: address,
    accountType: 'smartAccount',
    symbol: network.nativeCurrency.symbol,
    atomic: true,
    maxFee: maxFeeOf(prepared.feePayer),
    fee: feeShown(prepared.feePayer),
    calls: await Promise.all(calls.map(async (call) => ({ to: call.to, amount: formatEther(call.value), dataBytes: dataBytes(call.data), token: await describeTokenCall(client, call.to as Address, call.data) }))),
  })
  return { id: await smartAccounts.send(network, client, prepared) }
}

/** wallet_getCallsStatus (EIP-5792 v2) of an operation: 100 pending, 200 landed and succeeded, 500 landed and reverted (nothing of it applied). */
export async function smartCallsStatus(id: Hex, { network, client, smartAccounts }: Omit<SmartRequestContext, 'approve'>) {
  const found: UserOperationReceipt | undefined = await smartAccounts.receipt(network, client, id)
  const base = { version: '2.0.0', id, chainId: numberToHex(network.chainId), atomic: true }
  if (!found) return { ...base, status: 100 }
  const { receipt } = found
  return {
    ...base,
    status: found.success ? 200 : 500,
    receipts: [
      {
        logs: receipt.logs.map(({ address, data, topics }) => ({ address, data, topics })),
        status: found.success ? '0x1' : '0x0',
        blockHash: receipt.blockHash,
        blockNumber: numberToHex(receipt.blockNumber),
        gasUsed: numberToHex(receipt.gasUsed),
        transactionHash: receipt.transactionHash,
      },
    ],
  }
}
