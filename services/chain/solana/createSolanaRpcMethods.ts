import { base58 } from '@scure/base'
import type { LiteSvmChain, TransactionRecord } from './createLiteSvmChain'
import { computeFee, decodeMessage } from './decodeTransaction'
import { encodeAccount, readAccountEncoding } from './encodeAccount'
import { invalidParams, RpcError, rpcErrorCodes, type RpcMethod } from './jsonRpc'
import {
  readAddress,
  readArray,
  readBoolean,
  readConfig,
  readEncodedBytes,
  readEncoding,
  readInteger,
  readSignature,
  readString,
} from './rpcParams'
import { isTokenProgram, readMint, readTokenAccount, toUiTokenAmount } from './splToken'

/** The runtime crates litesvm@1.5.0's binary is built from (solana-program-runtime 4.3.0). */
export const SOLANA_CORE_VERSION = '4.3.0'

/** Solana's packet size: the largest wire transaction. */
const MAX_TRANSACTION_BYTES = 1_232
const MAX_AIRDROP_LAMPORTS = 1_000_000 * 1_000_000_000 // a million SOL
const MAX_ACCOUNT_DATA_BYTES = 10 * 1024 * 1024
const MAX_MULTIPLE_ACCOUNTS = 100
const MAX_SIGNATURE_STATUSES = 256
const MAX_SIGNATURES_FOR_ADDRESS = 1_000
const MAX_PROGRAM_ACCOUNT_FILTERS = 4

type RpcMethods = Record<string, RpcMethod>

function statusOf(record: TransactionRecord) {
  return record.err === null ? { Ok: null } : { Err: record.err }
}

/**
 * The JSON-RPC methods of the local Solana chain, each answering as agave's RPC does
 * (everything is final at once: commitment is accepted and ignored).
 * @example const methods = createSolanaRpcMethods(createLiteSvmChain())
 */
export function createSolanaRpcMethods(chain: LiteSvmChain): Map<string, RpcMethod> {
  const context = () => ({ apiVersion: SOLANA_CORE_VERSION, slot: chain.slot })
  const withContext = (value: unknown) => ({ context: context(), value })

  const decimalsOf = (mint: string) => {
    const account = chain.getAccount(mint)
    return account ? readMint(account.owner, account.data)?.decimals : undefined
  }

  function tokenAccountAt(params: unknown[]) {
    const { address } = readAddress(params, 0, 'token account')
    const account = chain.getAccount(address)
    const token = account && readTokenAccount(account.owner, account.data)
    if (!account || !token) throw invalidParams(`params[0] (token account) ${address} is not an SPL Token account`)
    return { account, token }
  }

  function encodeTransaction(record: TransactionRecord, encoding: 'json' | 'base64' | 'base58') {
    if (encoding === 'base64') return [Buffer.from(record.wire).toString('base64'), 'base64']
    if (encoding === 'base58') return [base58.encode(record.wire), 'base58']
    const { transaction } = record
    const message: Record<string, unknown> = {
      accountKeys: transaction.staticAccounts,
      header: {
        numRequiredSignatures: transaction.header.numSignerAccounts,
        numReadonlySignedAccounts: transaction.header.numReadonlySignerAccounts,
        numReadonlyUnsignedAccounts: transaction.header.numReadonlyNonSignerAccounts,
      },
      instructions: transaction.instructions.map((instruction) => ({
        programIdIndex: instruction.programAddressIndex,
        accounts: instruction.accountIndices,
        data: base58.encode(instruction.data),
        stackHeight: null,
      })),
      recentBlockhash: transaction.recentBlockhash,
    }
    if (transaction.version === 0) {
      message.addressTableLookups = transaction.addressTableLookups.map((lookup) => ({
        accountKey: lookup.lookupTableAddress,
        writableIndexes: lookup.writableIndexes,
        readonlyIndexes: lookup.readonlyIndexes,
      }))
    }
    return { signatures: transaction.signatures, message }
  }

  const methods: RpcMethods = {
    getHealth: () => 'ok',
    // feature-set is a hash of the active features on a validator; LiteSVM has no such number.
    getVersion: () => ({ 'solana-core': SOLANA_CORE_VERSION, 'feature-set': 0 }),
    getGenesisHash: () => chain.genesisHash,
    getSlot: () => chain.slot,
    getBlockHeight: () => chain.blockHeight(),
    getEpochInfo: () => chain.epochInfo(),
    getTransactionCount: () => chain.epochInfo().transactionCount,
    getLatestBlockhash: () => withContext(chain.latestBlockhash()),

    isBlockhashValid: (params) => withContext(chain.isBlockhashValid(readString(params, 0, 'blockhash', 44))),

    getBalance: (params) => {
      const { address } = readAddress(params, 0, 'address')
      readConfig(params, 1)
      return withContext(chain.getAccount(address)?.lamports ?? 0n)
    },

    getAccountInfo: (params) => {
      const { address } = readAddress(params, 0, 'address')
      const options = readAccountEncoding(readConfig(params, 1), 'base58')
      const account = chain.getAccount(address)
      return withContext(account ? encodeAccount(account, options, decimalsOf) : null)
    },

    getMultipleAccounts: (params) => {
      const addresses = readArray(params, 0, 'addresses', MAX_MULTIPLE_ACCOUNTS)
      const options = readAccountEncoding(readConfig(params, 1), 'base64')
      const accounts = addresses.map((_, index) => {
        const { address } = readAddress(addresses, index, 'addresses item')
        const account = chain.getAccount(address)
        return account ? encodeAccount(account, options, decimalsOf) : null
      })
      return withContext(accounts)
    },

    getProgramAccounts: (params) => {
      const { address: program } = readAddress(params, 0, 'program id')
      const config = readConfig(params, 1)
      const options = readAccountEncoding(config, 'base64')
      const filters = config.filters ?? []
      if (!Array.isArray(filters) || filters.length > MAX_PROGRAM_ACCOUNT_FILTERS) {
        throw invalidParams(`config.filters must be an array of at most ${MAX_PROGRAM_ACCOUNT_FILTERS} filters`)
      }
      const tests = filters.map((filter: unknown, index): ((data: Uint8Array) => boolean) => {
        const { dataSize, memcmp } = (filter ?? {}) as { dataSize?: unknown; memcmp?: { offset?: unknown; bytes?: unknown; encoding?: unknown } }
        if (typeof dataSize === 'number') return (data) => data.length === dataSize
        if (memcmp && typeof memcmp.offset === 'number' && typeof memcmp.bytes === 'string' && memcmp.bytes.length <= 176) {
          const { offset } = memcmp
          const bytes = readEncodedBytes([memcmp.bytes], 0, `config.filters[${index}].memcmp.bytes`, memcmp.encoding === 'base64' ? 'base64' : 'base58', 128)
          return (data) => bytes.every((byte, at) => data[offset + at] === byte)
        }
        throw invalidParams(`config.filters[${index}] must be { dataSize } or { memcmp: { offset, bytes } }`)
      })
      const value = chain
        .getProgramAccounts(program)
        .filter(({ account }) => tests.every((test) => test(account.data)))
        .map(({ address, account }) => ({ pubkey: address, account: encodeAccount(account, options, decimalsOf) }))
      return config.withContext === true ? withContext(value) : value
    },

    getMinimumBalanceForRentExemption: (params) =>
      chain.minimumBalanceForRentExemption(readInteger(params, 0, 'data length', { min: 0, max: MAX_ACCOUNT_DATA_BYTES })),

    getFeeForMessage: (params) => {
      const message = decodeMessage(readEncodedBytes(params, 0, 'message', 'base64', MAX_TRANSACTION_BYTES), 'params[0] (message)')
      return withContext(chain.isBlockhashValid(message.recentBlockhash) ? computeFee(message) : null)
    },

    requestAirdrop: (params) => {
      const { address } = readAddress(params, 0, 'address')
      const lamports = readInteger(params, 1, 'lamports', { min: 1, max: MAX_AIRDROP_LAMPORTS })
      readConfig(params, 2)
      return chain.airdrop(address, BigInt(lamports))
    },

    sendTransaction: (params) => {
      const config = readConfig(params, 1)
      const encoding = readEncoding(config, ['base58', 'base64'] as const, 'base58')
      const wire = readEncodedBytes(params, 0, 'transaction', encoding, MAX_TRANSACTION_BYTES)
      return chain.sendTransaction(wire, { skipPreflight: readBoolean(config, 'skipPreflight', false) })
    },

    simulateTransaction: (params) => {
      const config = readConfig(params, 1)
      const encoding = readEncoding(config, ['base58', 'base64'] as const, 'base58')
      const wire = readEncodedBytes(params, 0, 'transaction', encoding, MAX_TRANSACTION_BYTES)
      const sigVerify = readBoolean(config, 'sigVerify', false)
      const replaceRecentBlockhash = readBoolean(config, 'replaceRecentBlockhash', false)
      if (sigVerify && replaceRecentBlockhash) throw invalidParams('config.sigVerify may not be used with config.replaceRecentBlockhash')
      const accountsConfig = readConfig([config.accounts], 0)
      const addresses = config.accounts === undefined ? undefined : readArray([accountsConfig.addresses], 0, 'config.accounts.addresses', 64)
      const accountOptions = readAccountEncoding(accountsConfig, 'base64')
      const result = chain.simulateTransaction(wire, { sigVerify, replaceRecentBlockhash })
      const accounts = addresses?.map((_, index) => {
        const { address } = readAddress(addresses, index, 'config.accounts.addresses item')
        const account = result.err === null ? (result.postAccounts.get(address) ?? chain.getAccount(address)) : undefined
        return account ? encodeAccount(account, accountOptions, decimalsOf) : null
      })
      return withContext({
        err: result.err,
        logs: result.logs,
        accounts: accounts ?? null,
        unitsConsumed: result.unitsConsumed,
        returnData: result.returnData,
        innerInstructions: readBoolean(config, 'innerInstructions', false) ? result.innerInstructions : null,
        replacementBlockhash: replaceRecentBlockhash ? chain.latestBlockhash() : null,
      })
    },

    getSignatureStatuses: (params) => {
      const signatures = readArray(params, 0, 'signatures', MAX_SIGNATURE_STATUSES)
      readConfig(params, 1)
      const statuses = signatures.map((value, index) => {
        const record = chain.getTransaction(readSignature(value, `params[0][${index}] (signature)`))
        if (!record) return null
        return { slot: record.slot, confirmations: null, err: record.err, status: statusOf(record), confirmationStatus: 'finalized' }
      })
      return withContext(statuses)
    },

    getSignaturesForAddress: (params) => {
      const { address } = readAddress(params, 0, 'address')
      const config = readConfig(params, 1)
      const limit = config.limit === undefined ? MAX_SIGNATURES_FOR_ADDRESS : readInteger([config.limit], 0, 'config.limit', { min: 1, max: MAX_SIGNATURES_FOR_ADDRESS })
      const before = config.before === undefined ? undefined : readSignature(config.before, 'config.before')
      const until = config.until === undefined ? undefined : readSignature(config.until, 'config.until')
      return chain.signaturesForAddress(address, { limit, before, until }).map((record) => ({
        signature: record.signature,
        slot: record.slot,
        err: record.err,
        memo: null,
        blockTime: record.blockTime,
        confirmationStatus: 'finalized',
      }))
    },

    getTransaction: (params) => {
      const signature = readSignature(params[0], 'params[0] (signature)')
      const config = readConfig(params, 1)
      const encoding = readEncoding(config, ['json', 'base64', 'base58'] as const, 'json')
      const { maxSupportedTransactionVersion } = config
      if (maxSupportedTransactionVersion !== undefined && maxSupportedTransactionVersion !== 0) {
        throw invalidParams('config.maxSupportedTransactionVersion must be 0 when given')
      }
      const record = chain.getTransaction(signature)
      if (!record) return null
      const { version } = record.transaction
      if (version === 0 && maxSupportedTransactionVersion === undefined) {
        throw new RpcError(
          rpcErrorCodes.unsupportedTransactionVersion,
          'Transaction version (0) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": 0',
        )
      }
      return {
        slot: record.slot,
        blockTime: record.blockTime,
        version: maxSupportedTransactionVersion === undefined ? undefined : version,
        transaction: encodeTransaction(record, encoding),
        meta: {
          err: record.err,
          status: statusOf(record),
          fee: record.fee,
          preBalances: record.preBalances,
          postBalances: record.postBalances,
          innerInstructions: record.innerInstructions,
          logMessages: record.logs,
          preTokenBalances: record.preTokenBalances,
          postTokenBalances: record.postTokenBalances,
          rewards: [],
          loadedAddresses: record.loadedAddresses,
          returnData: record.returnData ?? undefined,
          computeUnitsConsumed: record.computeUnitsConsumed,
        },
      }
    },

    getTokenAccountsByOwner: (params) => {
      const { address: owner } = readAddress(params, 0, 'owner')
      const filter = readConfig(params, 1)
      const options = readAccountEncoding(readConfig(params, 2), 'base64')
      let program: string
      let mint: string | undefined
      if (filter.mint !== undefined && filter.programId === undefined) {
        mint = readAddress([filter.mint], 0, 'filter.mint').address
        const mintAccount = chain.getAccount(mint)
        if (!mintAccount || !readMint(mintAccount.owner, mintAccount.data)) throw invalidParams(`params[1].mint ${mint} is not an SPL Token mint`)
        program = mintAccount.owner
      } else if (filter.programId !== undefined && filter.mint === undefined) {
        program = readAddress([filter.programId], 0, 'filter.programId').address
        if (!isTokenProgram(program)) throw invalidParams('params[1].programId must be the SPL Token or Token-2022 program')
      } else {
        throw invalidParams('params[1] (filter) must be { mint } or { programId }')
      }
      const value = chain
        .getProgramAccounts(program)
        .filter(({ account }) => {
          const token = readTokenAccount(account.owner, account.data)
          return token !== undefined && token.owner === owner && (mint === undefined || token.mint === mint)
        })
        .map(({ address, account }) => ({ pubkey: address, account: encodeAccount(account, options, decimalsOf) }))
      return withContext(value)
    },

    getTokenAccountBalance: (params) => {
      const { token } = tokenAccountAt(params)
      const decimals = decimalsOf(token.mint)
      if (decimals === undefined) throw invalidParams(`the mint ${token.mint} of params[0] (token account) is not an SPL Token mint`)
      return withContext(toUiTokenAmount(token.amount, decimals))
    },

    getTokenSupply: (params) => {
      const { address } = readAddress(params, 0, 'mint')
      const account = chain.getAccount(address)
      const mint = account && readMint(account.owner, account.data)
      if (!mint) throw invalidParams(`params[0] (mint) ${address} is not an SPL Token mint`)
      return withContext(toUiTokenAmount(mint.supply, mint.decimals))
    },
  }
  return new Map(Object.entries(methods))
}
