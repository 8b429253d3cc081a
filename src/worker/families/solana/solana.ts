import {
  AccountRole,
  appendTransactionMessageInstructions,
  compileTransaction,
  createTransactionMessage,
  getAddressEncoder,
  getBase58Decoder,
  getBase58Encoder,
  getBase64Decoder,
  getBase64Encoder,
  getProgramDerivedAddress,
  getTransactionDecoder,
  getTransactionEncoder,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  type Address,
  type Blockhash,
  type Instruction,
  type Transaction,
} from '@solana/kit'
import { isSolanaAddress } from '../../../shared/families/solana/address'
import type { ErrorCode } from '../../../shared/protocol/errorTable'
import { createWidgetError, WidgetError } from '../../../shared/protocol/errors'
import { assertSolanaAmount } from '../../../shared/families/solana/amount'
import { createHttpEndpoints, httpStatusError, type CreateHttpEndpointsParameters, type HttpAnswer, type HttpClientParameters } from '../../rpc-transport/httpEndpoint'
import { describeIds } from '../../rpc-transport/describeIds'
import { guard } from '../../rpc-transport/guard'
import { rememberRetryAfter } from '../../rpc-transport/retryRead'
import { RETRY_HTTP_STATUSES, RETRY_RPC_CODES } from '../../rpc-transport/shouldRetry'
import type { SolanaCommitment, SolanaConfirmation, SolanaTokenBalance, SolanaTransfer, SolanaTransferParameters } from '../../../shared/families/solana/coreApi'

export type { SolanaCommitment, SolanaConfirmation, SolanaTokenBalance, SolanaTransfer, SolanaTransferParameters } from '../../../shared/families/solana/coreApi'


export type CreateSolanaClientParameters = {
  /** One endpoint; `rpcUrls` for several. */
  rpcUrl?: string
  /** The cluster's endpoints, asked in ranked order with fallback (rpc-transport/rankedFallback.ts). */
  rpcUrls?: readonly string[]
  /** The commitment reads, blockhashes and confirmations use. */
  commitment?: SolanaCommitment
} & HttpClientParameters




export type SolanaWaitForConfirmationParameters = {
  signature: string
  lastValidBlockHeight: bigint
  pollIntervalMs?: number
  /** A hard bound for a node whose block height stops moving; the blockhash normally expires within ~90 s. */
  maxWaitMs?: number
  signal?: AbortSignal
}


const SYSTEM_PROGRAM = '11111111111111111111111111111111' as Address
const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA' as Address
const TOKEN_2022_PROGRAM = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb' as Address
const ASSOCIATED_TOKEN_PROGRAM = 'ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL' as Address
const SOL_DECIMALS = 9
/** Mint layout (both token programs): decimals at byte 44, is_initialized at 45, 82 bytes before any extension. */
const MINT_BASE_BYTES = 82
const COMMITMENT_RANK: Record<SolanaCommitment, number> = { processed: 0, confirmed: 1, finalized: 2 }

const excerpt = (value: unknown) => (JSON.stringify(value, (_key, v: unknown) => (typeof v === 'bigint' ? v.toString() : v)) ?? String(value)).slice(0, 200)
const invalid = (field: string, details: string) => createWidgetError('SOLANA_SEND_INVALID', { field, details })
const sendFailed = (details: string, cause?: unknown) => createWidgetError('SOLANA_SEND_FAILED', { details, cause })

// 1. Integers past 2^53 (lamports of a large account, rentEpoch u64::MAX) are quoted with a marker before JSON.parse
//    sees them, 2. the reviver turns marked strings back into bigints, so no balance is ever rounded.
const BIGINT_MARKER = '\u0000bigint:'
const jsonToken = /"(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g
function parseJsonWithBigInts(text: string): unknown {
  // The marker goes in as the JSON escape \u0000: a raw control character is not allowed in a JSON string.
  const marked = text.replace(jsonToken, (token) => (/^-?\d{16,}$/.test(token) && !Number.isSafeInteger(Number(token)) ? `"\\u0000bigint:${token}"` : token))
  return JSON.parse(marked, (_key, value: unknown) =>
    typeof value === 'string' && value.startsWith(BIGINT_MARKER) && /^-?\d+$/.test(value.slice(BIGINT_MARKER.length)) ? BigInt(value.slice(BIGINT_MARKER.length)) : value,
  )
}

/** The standard JSON-RPC codes; Solana's own (-32001 … -32016) mean other things than EIP-1474's and stay RPC_REQUEST_FAILED. */
const standardRpcCodes: Record<number, ErrorCode> = { [-32700]: 'PARSE_ERROR', [-32600]: 'INVALID_REQUEST', [-32601]: 'METHOD_NOT_FOUND', [-32602]: 'INVALID_PARAMS', [-32603]: 'INTERNAL_ERROR' }

/** A node's JSON-RPC error; `data` keeps Solana's details (a failed preflight's `err` and logs). */
export type SolanaRpcErrorCause = { code: number; message: string; data?: unknown }

/** Whether a failed read is worth another try (SPEC §8), the same rules as the EVM transport's shouldRetry. */
function isRetryable(error: unknown): boolean {
  if (!(error instanceof WidgetError)) return false
  if (error.status !== undefined) return RETRY_HTTP_STATUSES.has(error.status)
  if (error.code === 'RPC_TIMEOUT') return true
  if (error.code === 'HTTP_REQUEST_FAILED') return true // no answer, or one that is not JSON-RPC
  const rpcCode = (error.cause as SolanaRpcErrorCause | undefined)?.code
  return typeof rpcCode === 'number' && RETRY_RPC_CODES.has(rpcCode)
}

/** The endpoints' failures as the ranked fallback reads them: no answer, a timeout or a retryable status moves on. */
const solanaFailureRules: CreateHttpEndpointsParameters<SolanaRpcCall>['rules'] = {
  shouldThrow: (error) => !(error instanceof WidgetError) || !(error.code === 'RPC_TIMEOUT' || error.code === 'HTTP_REQUEST_FAILED' || isRetryable(error)),
  shouldRetry: isRetryable,
  isHedgeable: ({ method }) => method !== 'sendTransaction',
  // A node's own JSON-RPC answer (with no HTTP error status) is reported over a later endpoint's reset or timeout.
  isAnswer: (error) => error instanceof WidgetError && error.status === undefined && typeof (error.cause as SolanaRpcErrorCause | undefined)?.code === 'number',
}

type SolanaRpcCall = { method: string; params: readonly unknown[] }

/**
 * A Solana node's answer to the JSON-RPC request `id`, its integers bigint-exact. Every failure is a WidgetError:
 * HTTP_REQUEST_FAILED (an HTTP status, not JSON-RPC, the answer to another id), or the node's error (standard codes by
 * code, Solana's as RPC_REQUEST_FAILED, its message in details).
 */
function readRpcAnswer(answer: HttpAnswer, id: number): unknown {
  const { what, response, text } = answer
  let reply: { jsonrpc?: unknown; id?: unknown; result?: unknown; error?: { code?: unknown; message?: unknown; data?: unknown } } | undefined
  try {
    reply = parseJsonWithBigInts(text) as typeof reply
  } catch {
    reply = undefined
  }
  const status = response.ok ? undefined : response.status
  const { code, message, data } = reply?.error ?? {}
  const rpcError: SolanaRpcErrorCause | undefined = typeof code === 'number' && typeof message === 'string' ? { code, message, data } : undefined
  // An error without an id is the whole request's (the node could not tell which request it answers).
  if (rpcError && (reply?.id == null || reply.id === id)) {
    const error = createWidgetError(standardRpcCodes[rpcError.code] ?? 'RPC_REQUEST_FAILED', { details: rpcError.message, cause: rpcError, status })
    if (status !== undefined) rememberRetryAfter(error, answer.retryAfterMs)
    throw error
  }
  if (status !== undefined) throw httpStatusError(answer)
  if (typeof reply !== 'object' || reply === null || reply.jsonrpc !== '2.0' || !('result' in reply || rpcError)) {
    throw createWidgetError('HTTP_REQUEST_FAILED', { details: `${what} answered with something that is not a JSON-RPC response: ${text.slice(0, 200)}` })
  }
  const mismatch = describeIds([id], [reply])
  if (mismatch) throw createWidgetError('HTTP_REQUEST_FAILED', { details: `${what}: ${mismatch}` })
  return reply.result
}

/** A node's result that is JSON-RPC but not what the method returns. */
const badResult = (method: string, expected: string, value: unknown) =>
  createWidgetError('RPC_REQUEST_FAILED', { details: `The node answered ${method} with ${excerpt(value)}, not ${expected}` })

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)

function readU64(method: string, value: unknown): bigint {
  if (typeof value === 'bigint' && value >= 0n) return value
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return BigInt(value)
  throw badResult(method, 'a non-negative integer', value)
}

/** The `value` of a `{ context, value }` answer. */
function readValue(method: string, result: unknown): unknown {
  if (!isObject(result) || !('value' in result)) throw badResult(method, '{ context, value }', result)
  return result.value
}

function readBase64Account(method: string, value: unknown): { owner: string; data: Uint8Array } | null {
  if (value === null) return null
  const data = isObject(value) ? value.data : undefined
  if (!isObject(value) || typeof value.owner !== 'string' || !Array.isArray(data) || typeof data[0] !== 'string' || data[1] !== 'base64') {
    throw badResult(method, 'an account in base64', value)
  }
  return { owner: value.owner, data: new Uint8Array(getBase64Encoder().encode(data[0])) }
}

function readTokenAccounts(method: string, tokenProgram: string, result: unknown): SolanaTokenBalance[] {
  const value = readValue(method, result)
  if (!Array.isArray(value)) throw badResult(method, 'a list of token accounts', value)
  return value.map((entry: unknown) => {
    const info = (entry as { account?: { data?: { parsed?: { info?: { mint?: unknown; tokenAmount?: { amount?: unknown; decimals?: unknown } } } } } })?.account?.data?.parsed?.info
    const pubkey = (entry as { pubkey?: unknown })?.pubkey
    const amount = info?.tokenAmount?.amount
    const decimals = info?.tokenAmount?.decimals
    if (typeof pubkey !== 'string' || typeof info?.mint !== 'string' || typeof amount !== 'string' || !/^\d+$/.test(amount) || typeof decimals !== 'number' || !Number.isInteger(decimals)) {
      throw badResult(method, 'a jsonParsed token account', entry)
    }
    return { mint: info.mint, tokenAccount: pubkey, amount: BigInt(amount), decimals, tokenProgram }
  })
}

const u64Bytes = (value: bigint) => {
  const bytes = new Uint8Array(8)
  new DataView(bytes.buffer).setBigUint64(0, value, true)
  return bytes
}

/** System program Transfer (instruction 2): lamports from → to. */
const transferSolInstruction = (from: Address, to: Address, lamports: bigint): Instruction => ({
  programAddress: SYSTEM_PROGRAM,
  accounts: [
    { address: from, role: AccountRole.WRITABLE_SIGNER },
    { address: to, role: AccountRole.WRITABLE },
  ],
  data: new Uint8Array([2, 0, 0, 0, ...u64Bytes(lamports)]),
})

/** Associated Token Account program CreateIdempotent (instruction 1): a no-op when the account already exists. */
const createAssociatedTokenAccountInstruction = ({ payer, ata, owner, mint, tokenProgram }: { payer: Address; ata: Address; owner: Address; mint: Address; tokenProgram: Address }): Instruction => ({
  programAddress: ASSOCIATED_TOKEN_PROGRAM,
  accounts: [
    { address: payer, role: AccountRole.WRITABLE_SIGNER },
    { address: ata, role: AccountRole.WRITABLE },
    { address: owner, role: AccountRole.READONLY },
    { address: mint, role: AccountRole.READONLY },
    { address: SYSTEM_PROGRAM, role: AccountRole.READONLY },
    { address: tokenProgram, role: AccountRole.READONLY },
  ],
  data: new Uint8Array([1]),
})

/** Token program TransferChecked (instruction 12): the program checks the mint and its decimals. */
const transferCheckedInstruction = ({ source, mint, destination, authority, amount, decimals, tokenProgram }: { source: Address; mint: Address; destination: Address; authority: Address; amount: bigint; decimals: number; tokenProgram: Address }): Instruction => ({
  programAddress: tokenProgram,
  accounts: [
    { address: source, role: AccountRole.WRITABLE },
    { address: mint, role: AccountRole.READONLY },
    { address: destination, role: AccountRole.WRITABLE },
    { address: authority, role: AccountRole.READONLY_SIGNER },
  ],
  data: new Uint8Array([12, ...u64Bytes(amount), decimals]),
})

/** The owner's associated token account for a mint of `tokenProgram`. */
async function findAssociatedTokenAddress({ owner, mint, tokenProgram }: { owner: Address; mint: Address; tokenProgram: Address }): Promise<Address> {
  const encoder = getAddressEncoder()
  const [ata] = await getProgramDerivedAddress({ programAddress: ASSOCIATED_TOKEN_PROGRAM, seeds: [encoder.encode(owner), encoder.encode(tokenProgram), encoder.encode(mint)] })
  return ata
}

function decodeTransaction(bytes: Uint8Array): Transaction {
  if (!(bytes instanceof Uint8Array) || bytes.length === 0) throw new Error('expected the wire transaction as a non-empty Uint8Array')
  return getTransactionDecoder().decode(bytes)
}

/**
 * The worker's client for one Solana cluster: balances, unsigned transfers for a wallet to sign, fees, sends and
 * bounded confirmation. Values are bigint and Uint8Array (structured-cloneable); every error is a WidgetError.
 * @example const solana = createSolanaClient({ rpcUrl: 'http://127.0.0.1:8899' }); await solana.getBalance(address)
 */
export function createSolanaClient({ rpcUrl, rpcUrls = rpcUrl === undefined ? [] : [rpcUrl], commitment = 'confirmed', ...httpParameters }: CreateSolanaClientParameters) {
  let nextId = 0
  const endpoints = createHttpEndpoints<SolanaRpcCall>({
    ...httpParameters,
    urls: rpcUrls,
    noUrlDetails: 'A Solana cluster needs at least one RPC URL',
    notAUrlDetails: 'The Solana RPC URL is not a URL',
    describe: ({ method }) => method,
    call: async (send, { method, params }) => {
      const id = ++nextId
      const body = JSON.stringify({ jsonrpc: '2.0', id, method, params })
      return readRpcAnswer(await send({ method: 'POST', headers: { 'content-type': 'application/json' }, body }), id)
    },
    ping: { method: 'getSlot', params: [] },
    rules: solanaFailureRules,
  })

  /** One try on the best endpoint, the next ones when it fails (sends, confirmation polls). */
  const request = (method: string, params: readonly unknown[], signal?: AbortSignal): Promise<unknown> => endpoints.request({ method, params }, { signal, retryCount: 0 })
  /** A read, retried by SPEC §8's rules: rounds over the endpoints from `retryDelayMs`, or the node's Retry-After. */
  const read = (method: string, params: readonly unknown[]): Promise<unknown> => endpoints.request({ method, params })

  const assertAddress = (value: string, field: string) => {
    if (typeof value !== 'string' || !isSolanaAddress(value)) throw createWidgetError('INVALID_ADDRESS', { field, details: `${field} "${String(value).slice(0, 60)}" is not a Solana address` })
    return value as Address
  }

  async function getLatestBlockhash() {
    const value = readValue('getLatestBlockhash', await read('getLatestBlockhash', [{ commitment }]))
    if (!isObject(value) || typeof value.blockhash !== 'string' || !isSolanaAddress(value.blockhash)) throw badResult('getLatestBlockhash', '{ blockhash, lastValidBlockHeight }', value)
    return { blockhash: value.blockhash as Blockhash, lastValidBlockHeight: readU64('getLatestBlockhash', value.lastValidBlockHeight) }
  }

  async function getSignatureStatus(signature: string, signal?: AbortSignal) {
    const value = readValue('getSignatureStatuses', await request('getSignatureStatuses', [[signature]], signal))
    if (!Array.isArray(value) || value.length !== 1) throw badResult('getSignatureStatuses', 'one status or null', value)
    const status: unknown = value[0]
    if (status === null) return null
    if (!isObject(status) || !(status.confirmationStatus === null || (typeof status.confirmationStatus === 'string' && status.confirmationStatus in COMMITMENT_RANK))) {
      throw badResult('getSignatureStatuses', 'one status or null', value)
    }
    return { slot: readU64('getSignatureStatuses', status.slot), err: status.err ?? null, confirmationStatus: (status.confirmationStatus ?? 'processed') as SolanaCommitment }
  }

  async function buildSplInstructions({ from, to, amount, mint, decimals }: { from: Address; to: Address; amount: bigint; mint: Address; decimals?: number }) {
    const mintAccount = readBase64Account('getAccountInfo', readValue('getAccountInfo', await read('getAccountInfo', [mint, { encoding: 'base64', commitment }])))
    const tokenProgram = mintAccount?.owner as Address | undefined
    if (!mintAccount || (tokenProgram !== TOKEN_PROGRAM && tokenProgram !== TOKEN_2022_PROGRAM) || mintAccount.data.length < MINT_BASE_BYTES || mintAccount.data[45] !== 1) {
      throw invalid('mint', `${mint} is not an SPL Token or Token-2022 mint`)
    }
    const mintDecimals = mintAccount.data[44]!
    if (decimals !== undefined && decimals !== mintDecimals) throw invalid('decimals', `The amount was given with ${decimals} decimals; the mint ${mint} has ${mintDecimals}`)
    const [source, destination] = await Promise.all([
      findAssociatedTokenAddress({ owner: from, mint, tokenProgram }),
      findAssociatedTokenAddress({ owner: to, mint, tokenProgram }),
    ])
    const accounts = readValue('getMultipleAccounts', await read('getMultipleAccounts', [[source, destination], { encoding: 'base64', commitment }]))
    if (!Array.isArray(accounts) || accounts.length !== 2) throw badResult('getMultipleAccounts', 'two accounts', accounts)
    const [sourceAccount, destinationAccount] = accounts.map((account) => readBase64Account('getMultipleAccounts', account))
    if (!sourceAccount) throw invalid('from', `${from} holds no ${mint}: it has no associated token account for it`)
    const instructions: Instruction[] = []
    if (!destinationAccount) instructions.push(createAssociatedTokenAccountInstruction({ payer: from, ata: destination, owner: to, mint, tokenProgram }))
    instructions.push(transferCheckedInstruction({ source, mint, destination, authority: from, amount, decimals: mintDecimals, tokenProgram }))
    return instructions
  }

  return {
    rpcUrls,
    commitment,
    /** Stops the endpoints' ranking pings. */
    close: () => endpoints.stop(),
    /** A JSON-RPC read, retried by SPEC §8's rules: the review's lookup tables, fee and simulation (review.ts). */
    read,

    /** The address's SOL balance in lamports. */
    getBalance: (address: string): Promise<bigint> =>
      guard('UNKNOWN', async () => {
        assertAddress(address, 'address')
        return readU64('getBalance', readValue('getBalance', await read('getBalance', [address, { commitment }])))
      }),

    /** The owner's SPL Token and Token-2022 accounts; tokens with 0 decimals (NFTs) are dropped, as SPEC §5 says. */
    getTokenBalances: (owner: string): Promise<SolanaTokenBalance[]> =>
      guard('UNKNOWN', async () => {
        assertAddress(owner, 'owner')
        const lists = await Promise.all(
          [TOKEN_PROGRAM, TOKEN_2022_PROGRAM].map(async (programId) =>
            readTokenAccounts('getTokenAccountsByOwner', programId, await read('getTokenAccountsByOwner', [owner, { programId }, { encoding: 'jsonParsed', commitment }])),
          ),
        )
        return lists.flat().filter((balance) => balance.decimals !== 0)
      }),

    /**
     * An unsigned transfer of SOL, or of an SPL token when `mint` is given: from the sender's associated token account
     * to the receiver's, created in the same transaction when missing; fee payer `from`, a recent blockhash set.
     */
    buildTransfer: ({ from, to, amount, mint, decimals, version = 'legacy' }: SolanaTransferParameters): Promise<SolanaTransfer> =>
      guard('UNKNOWN', async () => {
        if (typeof from !== 'string' || !isSolanaAddress(from)) throw invalid('from', `The sender "${String(from).slice(0, 60)}" is not a Solana address`)
        if (typeof to !== 'string' || !isSolanaAddress(to)) throw invalid('to', `The receiver "${String(to).slice(0, 60)}" is not a Solana address`)
        if (mint !== undefined && (typeof mint !== 'string' || !isSolanaAddress(mint))) throw invalid('mint', `The mint "${String(mint).slice(0, 60)}" is not a Solana address`)
        assertSolanaAmount(amount)
        if (version !== 'legacy' && version !== 0) throw createWidgetError('INVALID_PARAMS', { field: 'version', details: `Transaction version ${String(version)} is not legacy or 0` })
        if (mint === undefined && decimals !== undefined && decimals !== SOL_DECIMALS) throw invalid('decimals', `The amount was given with ${decimals} decimals; SOL has ${SOL_DECIMALS}`)
        const [lifetime, instructions] = await Promise.all([
          getLatestBlockhash(),
          mint === undefined
            ? [transferSolInstruction(from as Address, to as Address, amount)]
            : buildSplInstructions({ from: from as Address, to: to as Address, amount, mint: mint as Address, decimals }),
        ])
        const message = appendTransactionMessageInstructions(
          instructions,
          setTransactionMessageLifetimeUsingBlockhash(lifetime, setTransactionMessageFeePayer(from as Address, createTransactionMessage({ version }))),
        )
        return { transaction: new Uint8Array(getTransactionEncoder().encode(compileTransaction(message))), lastValidBlockHeight: lifetime.lastValidBlockHeight }
      }),

    /** The fee in lamports the node charges for a wire transaction's message (signed or not). */
    estimateFee: (transaction: Uint8Array): Promise<bigint> =>
      guard('UNKNOWN', async () => {
        let messageBytes: Uint8Array
        try {
          messageBytes = new Uint8Array(decodeTransaction(transaction).messageBytes)
        } catch (error) {
          throw createWidgetError('INVALID_PARAMS', { field: 'transaction', details: `Not a Solana wire transaction: ${(error as Error).message}`, cause: error })
        }
        const fee = readValue('getFeeForMessage', await read('getFeeForMessage', [getBase64Decoder().decode(messageBytes), { commitment }]))
        if (fee === null) throw createWidgetError('RPC_REQUEST_FAILED', { details: 'The node cannot price this transaction: its blockhash is no longer valid, so build it again' })
        return readU64('getFeeForMessage', fee)
      }),

    /**
     * Sends a signed wire transaction (as the wallet returned it) and answers its base58 signature. Any failure is
     * 'Failed to send transaction. Please try again.', the node's reason in details (a failed preflight's `err` too).
     */
    sendTransaction: (signedWireTransaction: Uint8Array): Promise<string> =>
      guard('SOLANA_SEND_FAILED', async () => {
        let signature: string
        try {
          const decoded = decodeTransaction(signedWireTransaction)
          const unsigned = Object.entries(decoded.signatures).filter(([, bytes]) => !bytes).map(([signer]) => signer)
          if (unsigned.length > 0) throw new Error(`the transaction is not signed by ${unsigned.join(', ')}`)
          signature = getBase58Decoder().decode(Object.values(decoded.signatures)[0]!)
        } catch (error) {
          throw sendFailed(`Not a signed Solana transaction: ${(error as Error).message}`, error)
        }
        let answer: unknown
        try {
          answer = await request('sendTransaction', [getBase64Decoder().decode(signedWireTransaction), { encoding: 'base64', preflightCommitment: commitment }])
        } catch (error) {
          const { details, cause } = error as WidgetError & { cause?: SolanaRpcErrorCause }
          const err = isObject(cause?.data) ? cause.data.err : undefined
          throw sendFailed([details, err === undefined ? '' : `(err: ${excerpt(err)})`].filter(Boolean).join(' '), error)
        }
        if (answer !== signature) throw sendFailed(`The node answered sendTransaction with ${excerpt(answer)}, not the transaction's signature ${signature}`)
        return signature
      }),

    /**
     * Polls getSignatureStatuses (and getBlockHeight while the transaction is unseen) every `pollIntervalMs` until it
     * reaches the client's commitment (resolves), failed on chain or its blockhash expired (SOLANA_SEND_FAILED with the
     * reason), or `maxWaitMs` passed (RPC_TIMEOUT: the outcome is unknown, do not send again blindly). A poll that
     * fails as a read would be retried (SPEC §8) is tried again at the next interval, up to `retryCount` times in a row;
     * then, or for any other failure, the node's error is thrown (the outcome is unknown then too).
     */
    waitForConfirmation: ({ signature, lastValidBlockHeight, pollIntervalMs = 500, maxWaitMs = 120_000, signal }: SolanaWaitForConfirmationParameters): Promise<SolanaConfirmation> =>
      guard('UNKNOWN', async () => {
        // The alphabet first: kit's decoder throws a SolanaError on other characters, whose message reads process.env.
        const isSignature = typeof signature === 'string' && /^[1-9A-HJ-NP-Za-km-z]{64,88}$/.test(signature) && getBase58Encoder().encode(signature).length === 64
        if (!isSignature) throw createWidgetError('INVALID_PARAMS', { field: 'signature', details: `"${String(signature).slice(0, 100)}" is not a base58 transaction signature` })
        if (typeof lastValidBlockHeight !== 'bigint') throw createWidgetError('INVALID_PARAMS', { field: 'lastValidBlockHeight', details: 'lastValidBlockHeight must be a bigint' })
        const confirmation = async (): Promise<SolanaConfirmation | undefined> => {
          let status = await getSignatureStatus(signature, signal)
          let blockHeight: bigint | undefined
          if (!status) {
            blockHeight = readU64('getBlockHeight', await request('getBlockHeight', [{ commitment }], signal))
            // It may have landed in the last block before the expiry: look once more before calling it expired.
            if (blockHeight > lastValidBlockHeight) status = await getSignatureStatus(signature, signal)
          }
          if (status && COMMITMENT_RANK[status.confirmationStatus] >= COMMITMENT_RANK[commitment]) {
            if (status.err !== null) throw sendFailed(`The transaction failed on chain: ${excerpt(status.err)}`)
            return { signature, slot: status.slot, confirmationStatus: status.confirmationStatus }
          }
          if (!status && blockHeight !== undefined && blockHeight > lastValidBlockHeight) {
            throw sendFailed(`The transaction expired: block height ${blockHeight} passed its last valid block height ${lastValidBlockHeight} before it was confirmed`)
          }
          return undefined
        }
        return endpoints.waitForConfirmation({ id: signature, poll: confirmation, pollIntervalMs, maxWaitMs, signal })
      }),
  }
}

export type SolanaClient = ReturnType<typeof createSolanaClient>
