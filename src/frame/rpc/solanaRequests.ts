import * as z from 'zod/mini'
import { ed25519 } from '@noble/curves/ed25519'
import { base58, base64 } from '@scure/base'
import { bytesToHex } from 'viem'
import { RPC_TIMEOUT_MS } from '../../shared/protocol/constants'
import { formatUnits } from '../../shared/protocol/display'
import { createWidgetError, fromRpcError } from '../../shared/protocol/errors'
import { parseOrThrow } from '../../shared/protocol/schemas/parse'
import type { FrameSolanaNetwork } from '../config/frameConfig'
import { clip, readableText, type ApprovalRequest, type SolanaAction } from './approvalRequest'
import { readSolanaInstruction, readSolanaTransaction, withSolanaSignature } from './solanaTransaction'

const LAMPORTS_DECIMALS = 9
// A wire transaction is at most 1232 bytes (1644 in base64); a message to sign at most 64 KiB.
const wireBase64 = z.string().check(z.minLength(4), z.maxLength(1_644))
const MAX_TRANSACTIONS = 20

const signMessageParams = z.object({ message: z.string().check(z.minLength(1), z.maxLength(90_000)), pubkey: z.optional(z.string()) })
const signTransactionParams = z.object({ transaction: wireBase64, pubkey: z.optional(z.string()) })
const signAllParams = z.object({ transactions: z.array(wireBase64).check(z.minLength(1), z.maxLength(MAX_TRANSACTIONS)), pubkey: z.optional(z.string()) })
const signAndSendParams = z.object({ transaction: wireBase64, pubkey: z.optional(z.string()), sendOptions: z.optional(z.record(z.string(), z.unknown())) })

export type SolanaRequestContext = {
  network: FrameSolanaNetwork
  secretKey: Uint8Array
  address: string
  approve: (request: ApprovalRequest) => Promise<void>
  fetch?: typeof fetch
}

const invalidParams = (details: string) => createWidgetError('INVALID_PARAMS', { details })

function requireOwnAccount(named: string | undefined, own: string) {
  if (named !== undefined && named !== own) throw createWidgetError('UNAUTHORIZED', { details: `${named} is not this wallet's account` })
}

function decode(text: string, codec: typeof base58 | typeof base64, what: string) {
  try {
    return codec.decode(text)
  } catch {
    throw invalidParams(`${what} is not ${codec === base58 ? 'base58' : 'base64'}`)
  }
}

/** Reads a transaction this wallet signs, in words: SOL and token transfers, token accounts made, programs called. */
function describeTransaction(wire: Uint8Array, address: string): SolanaAction[] {
  let transaction: ReturnType<typeof readSolanaTransaction>
  try {
    transaction = readSolanaTransaction(wire)
  } catch (error) {
    throw invalidParams(`not a Solana transaction: ${(error as Error).message}`)
  }
  if (!transaction.signers.includes(address)) throw createWidgetError('UNAUTHORIZED', { details: `${address} does not sign this transaction` })
  return transaction.instructions.slice(0, 30).map((instruction): SolanaAction => {
    const meaning = readSolanaInstruction(instruction)
    switch (meaning.kind) {
      case 'transfer':
        return { kind: 'transfer', to: meaning.to ?? '?', amount: formatUnits(meaning.lamports, LAMPORTS_DECIMALS) }
      case 'tokenTransfer':
        return { kind: 'tokenTransfer', to: meaning.to ?? '?', mint: meaning.mint, amount: meaning.decimals === undefined ? meaning.amount.toString() : formatUnits(meaning.amount, meaning.decimals) }
      case 'createTokenAccount':
        return { kind: 'createTokenAccount', owner: meaning.owner }
      case 'feeSettings':
        return { kind: 'feeSettings' }
      case 'program':
        return { kind: 'program', programId: meaning.programId }
    }
  })
}

/** The transaction signed in this wallet's slot (its message is what every signer signs), and the signature. */
function sign(wire: Uint8Array, { secretKey, address }: Pick<SolanaRequestContext, 'secretKey' | 'address'>) {
  const { messageOffset } = readSolanaTransaction(wire)
  const signature = ed25519.sign(wire.subarray(messageOffset), secretKey)
  return { signed: withSolanaSignature(wire, signature, address), signature }
}

/** solana_signMessage { message: base58, pubkey } → { signature: base58 }: the text shown (or hex), then an ed25519 signature. */
export async function solanaSignMessage(params: unknown, context: SolanaRequestContext) {
  const { message, pubkey } = parseOrThrow(signMessageParams, params, 'solana_signMessage params', ['params'])
  requireOwnAccount(pubkey, context.address)
  const bytes = decode(message, base58, 'the message')
  const text = readableText(bytes)
  await context.approve({ kind: 'solanaSignMessage', network: context.network.name, account: context.address, text: text === undefined ? undefined : clip(text), hex: clip(bytesToHex(bytes)) })
  return { signature: base58.encode(ed25519.sign(bytes, context.secretKey)) }
}

/** solana_signTransaction { transaction: base64 } → { signature: base58, transaction: base64 }, signed in this wallet's slot. */
export async function solanaSignTransaction(params: unknown, context: SolanaRequestContext) {
  const { transaction, pubkey } = parseOrThrow(signTransactionParams, params, 'solana_signTransaction params', ['params'])
  requireOwnAccount(pubkey, context.address)
  const wire = decode(transaction, base64, 'the transaction')
  const actions = describeTransaction(wire, context.address)
  await context.approve({ kind: 'solanaTransaction', network: context.network.name, account: context.address, willSend: false, count: 1, actions })
  const { signed, signature } = sign(wire, context)
  return { signature: base58.encode(signature), transaction: base64.encode(signed) }
}

/** solana_signAllTransactions { transactions: base64[] } → { transactions: base64[] }: one approval for all of them. */
export async function solanaSignAllTransactions(params: unknown, context: SolanaRequestContext) {
  const { transactions, pubkey } = parseOrThrow(signAllParams, params, 'solana_signAllTransactions params', ['params'])
  requireOwnAccount(pubkey, context.address)
  const wires = transactions.map((transaction) => decode(transaction, base64, 'a transaction'))
  const actions = wires.flatMap((wire) => describeTransaction(wire, context.address)).slice(0, 60)
  await context.approve({ kind: 'solanaTransaction', network: context.network.name, account: context.address, willSend: false, count: wires.length, actions })
  return { transactions: wires.map((wire) => base64.encode(sign(wire, context).signed)) }
}

/**
 * solana_signAndSendTransaction { transaction: base64, sendOptions? } → { signature: base58 }: signed here, then sent with
 * the chain's sendTransaction (base64); the node's refusal is classified, never passed on as raw text.
 */
export async function solanaSignAndSendTransaction(params: unknown, context: SolanaRequestContext) {
  const { transaction, pubkey, sendOptions } = parseOrThrow(signAndSendParams, params, 'solana_signAndSendTransaction params', ['params'])
  requireOwnAccount(pubkey, context.address)
  const wire = decode(transaction, base64, 'the transaction')
  const actions = describeTransaction(wire, context.address)
  await context.approve({ kind: 'solanaTransaction', network: context.network.name, account: context.address, willSend: true, count: 1, actions })
  const { signed } = sign(wire, context)
  const options = { encoding: 'base64', preflightCommitment: typeof sendOptions?.preflightCommitment === 'string' ? sendOptions.preflightCommitment : 'confirmed', skipPreflight: sendOptions?.skipPreflight === true }
  const result = await solanaRpc(context.network.rpcUrl, 'sendTransaction', [base64.encode(signed), options], context.fetch)
  if (typeof result !== 'string') throw createWidgetError('SOLANA_SEND_FAILED', { details: 'the node answered no signature' })
  return { signature: result }
}

/** One JSON-RPC call to the Solana node, with the spec's RPC timeout. */
export async function solanaRpc(rpcUrl: string, method: string, params: unknown[], fetchFn: typeof fetch = fetch): Promise<unknown> {
  let response: Response
  try {
    response = await fetchFn(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      signal: AbortSignal.timeout(RPC_TIMEOUT_MS),
    })
  } catch (error) {
    throw createWidgetError((error as Error)?.name === 'TimeoutError' ? 'RPC_TIMEOUT' : 'HTTP_REQUEST_FAILED', { details: `${method}: ${(error as Error)?.message}`, cause: error })
  }
  if (!response.ok) throw createWidgetError('HTTP_REQUEST_FAILED', { status: response.status, details: `${method}: HTTP ${response.status}` })
  let body: { result?: unknown; error?: { code?: unknown; message?: unknown } }
  try {
    body = (await response.json()) as typeof body
  } catch (error) {
    throw createWidgetError('RPC_REQUEST_FAILED', { details: `${method}: the answer is not JSON`, cause: error })
  }
  if (body.error) {
    const error = fromRpcError(body.error)
    // A refused send is said as the spec says it, unless the node's reason is one the table knows.
    if (method === 'sendTransaction' && error.code === 'UNKNOWN_RPC_ERROR') throw createWidgetError('SOLANA_SEND_FAILED', { details: error.details, cause: error })
    throw error
  }
  return body.result
}
