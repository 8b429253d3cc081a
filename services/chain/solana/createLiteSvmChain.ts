import { ed25519 } from '@noble/curves/ed25519.js'
import { base58 } from '@scure/base'
import {
  computeFee,
  decodeTransaction,
  isDurableNonceTransaction,
  isStaticAccountWritable,
  SYSTEM_PROGRAM,
  type DecodedTransaction,
} from './decodeTransaction'
import { solanaFaucetKey } from './devKeys'
import { RpcError, rpcErrorCodes } from './jsonRpc'
import { loadLiteSvm, type LiteSvmAccount, type LiteSvmBinding, type LiteSvmSimulation, type LiteSvmTransactionMetadata } from './loadLiteSvm'
import { readMint, readTokenAccount, toUiTokenAmount, type UiTokenAmount } from './splToken'
import { describeTransactionError, toRpcTransactionError, type RpcTransactionError } from './transactionError'

export type ChainAccount = { lamports: bigint; data: Uint8Array; owner: string; executable: boolean; rentEpoch: bigint }

export type TokenBalance = { accountIndex: number; mint: string; owner: string; programId: string; uiTokenAmount: UiTokenAmount }

export type InnerInstructions = {
  index: number
  instructions: { programIdIndex: number; accounts: number[]; data: string; stackHeight: number }[]
}[]

export type ReturnData = { programId: string; data: [string, 'base64'] } | null

export type TransactionRecord = {
  signature: string
  slot: bigint
  blockTime: number
  wire: Uint8Array
  transaction: DecodedTransaction
  loadedAddresses: { writable: string[]; readonly: string[] }
  /** Distinct addresses the transaction named, static then loaded. */
  accountKeys: string[]
  err: RpcTransactionError | null
  fee: bigint
  preBalances: bigint[]
  postBalances: bigint[]
  preTokenBalances: TokenBalance[]
  postTokenBalances: TokenBalance[]
  logs: string[]
  innerInstructions: InnerInstructions
  computeUnitsConsumed: bigint
  returnData: ReturnData
}

export type SimulationResult = {
  err: RpcTransactionError | null
  logs: string[]
  unitsConsumed: bigint
  returnData: ReturnData
  innerInstructions: InnerInstructions
  postAccounts: Map<string, ChainAccount>
}

export type SlotEvent = { slot: bigint; parent: bigint }
export type TransactionEvent = { record: TransactionRecord; writableAccounts: string[] }

export type LiteSvmChainParameters = {
  /** Wall clock in ms, for block times. */
  now?: () => number
  /** Also advance one slot per interval; omit to advance only per transaction. */
  slotIntervalMs?: number
  maxTransactionRecords?: number
  maxSignaturesPerAddress?: number
  maxIndexedAddresses?: number
  binding?: LiteSvmBinding
}

export type LiteSvmChain = ReturnType<typeof createLiteSvmChain>

/** A blockhash stays valid for this many blocks, as on Solana. */
const BLOCKHASH_VALIDITY_BLOCKS = 150n
const FAUCET_LAMPORTS = 10n ** 18n
/** Lookup table accounts start with a 56-byte header, then 32-byte addresses. */
const LOOKUP_TABLE_HEADER_LENGTH = 56

function toChainAccount(account: LiteSvmAccount): ChainAccount {
  return {
    lamports: account.lamports(),
    data: account.data(),
    owner: base58.encode(account.owner()),
    executable: account.executable(),
    rentEpoch: account.rentEpoch(),
  }
}

function shortVec(length: number): number[] {
  const bytes: number[] = []
  let rest = length
  do {
    let byte = rest & 0x7f
    rest >>= 7
    if (rest > 0) byte |= 0x80
    bytes.push(byte)
  } while (rest > 0)
  return bytes
}

function toInnerInstructions(meta: LiteSvmTransactionMetadata): InnerInstructions {
  const result: InnerInstructions = []
  meta.innerInstructions().forEach((inner, index) => {
    if (inner.length === 0) return
    result.push({
      index,
      instructions: inner.map((item) => {
        const instruction = item.instruction()
        return {
          programIdIndex: instruction.programIdIndex(),
          accounts: [...instruction.accounts()],
          data: base58.encode(instruction.data()),
          stackHeight: item.stackHeight(),
        }
      }),
    })
  })
  return result
}

function toReturnData(meta: LiteSvmTransactionMetadata): ReturnData {
  const returnData = meta.returnData()
  const data = returnData.data()
  // As agave: return data is reported only when the last setter left some.
  if (data.length === 0) return null
  return { programId: base58.encode(returnData.programId()), data: [Buffer.from(data).toString('base64'), 'base64'] }
}

/**
 * One LiteSVM instance plus what a validator adds around it: slots and recent blockhashes, a faucet,
 * signature statuses, per-address history and change events. Everything is synchronous.
 *
 * Slots: LiteSVM's clock starts near slot 447,552,000 and never moves by itself; every transaction
 * lands in the current slot, then the slot advances and a new blockhash is issued, so two identical
 * transfers sent one after the other get different blockhashes and both land.
 * @example const chain = createLiteSvmChain(); chain.airdrop(address, 1_000_000_000n)
 */
export function createLiteSvmChain({
  now = Date.now,
  slotIntervalMs,
  maxTransactionRecords = 10_000,
  maxSignaturesPerAddress = 1_000,
  maxIndexedAddresses = 10_000,
  binding = loadLiteSvm(),
}: LiteSvmChainParameters = {}) {
  const svm = new binding.LiteSvm()
  // Blockhash ages are checked here (LiteSVM accepts only its latest one); duplicates it still rejects.
  svm.setBlockhashCheck(false)
  svm.setLogBytesLimit(10_000n)

  const genesisSlot = svm.getClock().slot
  // The first blockhash names the chain (getGenesisHash); transactions use the ones after it.
  const genesisHash = svm.latestBlockhash()
  svm.expireBlockhash()
  const genesisSeconds = BigInt(Math.floor(now() / 1000))
  const epochSchedule = svm.getEpochSchedule()
  let slot = genesisSlot
  let transactionCount = 0n

  const recentBlockhashes = new Map<string, { slot: bigint; lastValidBlockHeight: bigint }>()
  const records = new Map<string, TransactionRecord>()
  const signaturesByAddress = new Map<string, string[]>()
  const slotListeners = new Set<(event: SlotEvent) => void>()
  const transactionListeners = new Set<(event: TransactionEvent) => void>()

  const faucet = solanaFaucetKey()
  svm.setAccount(base58.decode(faucet.address), new binding.Account(FAUCET_LAMPORTS, new Uint8Array(0), base58.decode(SYSTEM_PROGRAM), false, 0n))

  const blockHeight = () => slot - genesisSlot

  function epochOf(at: bigint): { epoch: bigint; slotIndex: bigint } {
    const { slotsPerEpoch, firstNormalEpoch, firstNormalSlot } = epochSchedule
    if (at < firstNormalSlot) return { epoch: 0n, slotIndex: at }
    const sinceNormal = at - firstNormalSlot
    return { epoch: firstNormalEpoch + sinceNormal / slotsPerEpoch, slotIndex: sinceNormal % slotsPerEpoch }
  }

  function setClock() {
    const { epoch } = epochOf(slot)
    svm.setClock(new binding.Clock(slot, genesisSeconds, epoch, epoch + 1n, BigInt(Math.floor(now() / 1000))))
  }

  function issueBlockhash() {
    recentBlockhashes.set(svm.latestBlockhash(), { slot, lastValidBlockHeight: blockHeight() + BLOCKHASH_VALIDITY_BLOCKS })
    for (const [hash, entry] of recentBlockhashes) {
      if (entry.lastValidBlockHeight >= blockHeight()) break
      recentBlockhashes.delete(hash)
    }
  }

  /** Closes the current slot: a new slot, clock and blockhash. */
  function advanceSlot() {
    const parent = slot
    slot += 1n
    svm.expireBlockhash()
    setClock()
    issueBlockhash()
    for (const listener of slotListeners) listener({ slot, parent })
  }

  setClock()
  issueBlockhash()
  const slotTimer = slotIntervalMs === undefined ? undefined : setInterval(advanceSlot, slotIntervalMs)
  slotTimer?.unref()

  function getAccount(address: string): ChainAccount | undefined {
    const account = svm.getAccount(base58.decode(address))
    return account ? toChainAccount(account) : undefined
  }

  function isBlockhashValid(blockhash: string): boolean {
    const entry = recentBlockhashes.get(blockhash)
    return entry !== undefined && entry.lastValidBlockHeight >= blockHeight()
  }

  function resolveLookups(transaction: DecodedTransaction): { writable: string[]; readonly: string[] } {
    const loaded = { writable: [] as string[], readonly: [] as string[] }
    for (const lookup of transaction.addressTableLookups) {
      const table = getAccount(lookup.lookupTableAddress)
      const at = (index: number) => {
        const offset = LOOKUP_TABLE_HEADER_LENGTH + index * 32
        return table && offset + 32 <= table.data.length ? base58.encode(table.data.subarray(offset, offset + 32)) : undefined
      }
      for (const index of lookup.writableIndexes) loaded.writable.push(at(index) ?? '')
      for (const index of lookup.readonlyIndexes) loaded.readonly.push(at(index) ?? '')
    }
    return loaded
  }

  function tokenBalances(accountKeys: string[]): TokenBalance[] {
    const balances: TokenBalance[] = []
    accountKeys.forEach((address, accountIndex) => {
      const account = address ? getAccount(address) : undefined
      const token = account && readTokenAccount(account.owner, account.data)
      if (!account || !token) return
      const mintAccount = getAccount(token.mint)
      const mint = mintAccount && readMint(mintAccount.owner, mintAccount.data)
      if (!mint) return
      balances.push({ accountIndex, mint: token.mint, owner: token.owner, programId: account.owner, uiTokenAmount: toUiTokenAmount(token.amount, mint.decimals) })
    })
    return balances
  }

  function checkLifetime(transaction: DecodedTransaction) {
    if (isBlockhashValid(transaction.recentBlockhash) || isDurableNonceTransaction(transaction)) return
    throw preflightError('BlockhashNotFound', { logs: [], unitsConsumed: 0n })
  }

  function preflightError(err: RpcTransactionError, { logs, unitsConsumed }: { logs: string[]; unitsConsumed: bigint }) {
    if (err === 'SignatureFailure') {
      return new RpcError(rpcErrorCodes.transactionSignatureVerificationFailure, 'Transaction signature verification failure')
    }
    const data = { err, logs, accounts: null, unitsConsumed, returnData: null, innerInstructions: null, replacementBlockhash: null }
    return new RpcError(rpcErrorCodes.sendTransactionPreflightFailure, `Transaction simulation failed: ${describeTransactionError(err)}`, data)
  }

  function simulateWire(wire: Uint8Array, transaction: DecodedTransaction, { sigVerify }: { sigVerify: boolean }): SimulationResult {
    const wasVerifying = svm.getSigverify()
    svm.setSigverify(sigVerify)
    try {
      const result =
        transaction.version === 'legacy' ? svm.simulateLegacyTransaction(wire) : svm.simulateVersionedTransaction(wire)
      if (result instanceof binding.FailedTransactionMetadata) {
        const meta = result.meta()
        const err = toRpcTransactionError(binding, result.err())
        return { err, logs: meta.logs(), unitsConsumed: meta.computeUnitsConsumed(), returnData: toReturnData(meta), innerInstructions: toInnerInstructions(meta), postAccounts: new Map() }
      }
      const simulation = result as LiteSvmSimulation
      const meta = simulation.meta()
      const postAccounts = new Map<string, ChainAccount>()
      for (const entry of simulation.postAccounts()) postAccounts.set(base58.encode(entry.address), toChainAccount(entry.account()))
      return { err: null, logs: meta.logs(), unitsConsumed: meta.computeUnitsConsumed(), returnData: toReturnData(meta), innerInstructions: toInnerInstructions(meta), postAccounts }
    } finally {
      svm.setSigverify(wasVerifying)
    }
  }

  /** Drops the oldest record, and its signature from the front of each of its addresses' lists. */
  function forgetOldest() {
    const oldest = records.values().next().value
    if (!oldest) return
    records.delete(oldest.signature)
    for (const address of oldest.accountKeys) {
      const signatures = signaturesByAddress.get(address)
      if (signatures?.[0] === oldest.signature) signatures.shift()
      if (signatures?.length === 0) signaturesByAddress.delete(address)
    }
  }

  function remember(record: TransactionRecord) {
    records.set(record.signature, record)
    if (records.size > maxTransactionRecords) forgetOldest()
    for (const address of record.accountKeys) {
      const signatures = signaturesByAddress.get(address) ?? []
      signaturesByAddress.delete(address) // re-inserted last: the map is kept in least-recently-used order
      signatures.push(record.signature)
      if (signatures.length > maxSignaturesPerAddress) signatures.shift()
      signaturesByAddress.set(address, signatures)
      if (signaturesByAddress.size > maxIndexedAddresses) {
        const stalest = signaturesByAddress.keys().next().value
        if (stalest !== undefined) signaturesByAddress.delete(stalest)
      }
    }
  }

  /**
   * Runs a wire transaction the way a validator's sendTransaction does:
   * 1. decode it, refuse a known signature and an unknown or expired blockhash;
   * 2. unless skipPreflight, simulate it and refuse it when it would fail;
   * 3. execute it; a failed transaction that was charged its fee is recorded with its error,
   *    one that was not (bad signature, no funds for the fee) is refused;
   * 4. record status, balances and logs, close the slot, tell the listeners.
   */
  function sendTransaction(wire: Uint8Array, { skipPreflight = false }: { skipPreflight?: boolean } = {}): string {
    const transaction = decodeTransaction(wire, 'params[0] (transaction)')
    const signature = transaction.signatures[0] as string
    if (records.has(signature)) throw preflightError('AlreadyProcessed', { logs: [], unitsConsumed: 0n })
    checkLifetime(transaction)
    if (!skipPreflight) {
      const simulation = simulateWire(wire, transaction, { sigVerify: true })
      if (simulation.err !== null) throw preflightError(simulation.err, simulation)
    }

    const loadedAddresses = resolveLookups(transaction)
    const accountKeys = [...transaction.staticAccounts, ...loadedAddresses.writable, ...loadedAddresses.readonly]
    const balanceOf = (address: string) => (address ? (getAccount(address)?.lamports ?? 0n) : 0n)
    const preBalances = accountKeys.map(balanceOf)
    const preTokenBalances = tokenBalances(accountKeys)

    const result = transaction.version === 'legacy' ? svm.sendLegacyTransaction(wire) : svm.sendVersionedTransaction(wire)
    const failed = result instanceof binding.FailedTransactionMetadata ? result : undefined
    const meta = failed ? failed.meta() : (result as LiteSvmTransactionMetadata)
    const err = failed ? toRpcTransactionError(binding, failed.err()) : null
    const postBalances = accountKeys.map(balanceOf)
    if (err !== null && postBalances[0] === preBalances[0]) throw preflightError(err, { logs: meta.logs(), unitsConsumed: meta.computeUnitsConsumed() })

    const record: TransactionRecord = {
      signature,
      slot,
      blockTime: Math.floor(now() / 1000),
      wire,
      transaction,
      loadedAddresses,
      accountKeys: [...new Set(accountKeys.filter(Boolean))],
      err,
      fee: computeFee(transaction),
      preBalances,
      postBalances,
      preTokenBalances,
      postTokenBalances: tokenBalances(accountKeys),
      logs: meta.logs(),
      innerInstructions: toInnerInstructions(meta),
      computeUnitsConsumed: meta.computeUnitsConsumed(),
      returnData: toReturnData(meta),
    }
    remember(record)
    transactionCount += 1n
    const writableAccounts = [
      ...transaction.staticAccounts.filter((_, index) => isStaticAccountWritable(transaction, index)),
      ...loadedAddresses.writable,
    ]
    advanceSlot()
    for (const listener of transactionListeners) listener({ record, writableAccounts })
    return signature
  }

  /** Sends `lamports` from the faucet in a real, signed system transfer (so it has history like any other). */
  function airdrop(recipient: string, lamports: bigint): string {
    const recipientBytes = base58.decode(recipient)
    const data = new Uint8Array(12)
    const view = new DataView(data.buffer)
    view.setUint32(0, 2, true) // SystemInstruction::Transfer
    view.setBigUint64(4, lamports, true)
    const message = Uint8Array.from([
      1, 0, 1, // header: one signer, the system program read-only
      ...shortVec(3),
      ...base58.decode(faucet.address),
      ...recipientBytes,
      ...base58.decode(SYSTEM_PROGRAM),
      ...base58.decode(svm.latestBlockhash()),
      ...shortVec(1),
      2, ...shortVec(2), 0, 1, ...shortVec(data.length), ...data,
    ])
    const signature = ed25519.sign(message, faucet.privateKey)
    return sendTransaction(Uint8Array.from([...shortVec(1), ...signature, ...message]))
  }

  return {
    binding,
    svm,
    genesisHash,
    get slot() {
      return slot
    },
    blockHeight,
    epochInfo() {
      const { epoch, slotIndex } = epochOf(slot)
      return { absoluteSlot: slot, blockHeight: blockHeight(), epoch, slotIndex, slotsInEpoch: epochSchedule.slotsPerEpoch, transactionCount }
    },
    latestBlockhash() {
      const blockhash = svm.latestBlockhash()
      return { blockhash, lastValidBlockHeight: recentBlockhashes.get(blockhash)?.lastValidBlockHeight ?? blockHeight() }
    },
    isBlockhashValid,
    getAccount,
    getProgramAccounts(program: string): { address: string; account: ChainAccount }[] {
      return svm.getProgramAccounts(base58.decode(program)).map((entry) => ({ address: base58.encode(entry.address), account: toChainAccount(entry.account()) }))
    },
    minimumBalanceForRentExemption: (dataLength: number) => svm.minimumBalanceForRentExemption(BigInt(dataLength)),
    sendTransaction,
    /** Simulates without recording; blockhash checked unless replaceRecentBlockhash (LiteSVM ignores it either way). */
    simulateTransaction(wire: Uint8Array, { sigVerify = false, replaceRecentBlockhash = false } = {}): SimulationResult {
      const transaction = decodeTransaction(wire, 'params[0] (transaction)')
      if (!replaceRecentBlockhash && !isBlockhashValid(transaction.recentBlockhash) && !isDurableNonceTransaction(transaction)) {
        return { err: 'BlockhashNotFound', logs: [], unitsConsumed: 0n, returnData: null, innerInstructions: [], postAccounts: new Map() }
      }
      return simulateWire(wire, transaction, { sigVerify })
    },
    airdrop,
    getTransaction: (signature: string) => records.get(signature),
    /** Newest first, like getSignaturesForAddress; `before`/`until` are exclusive bounds. */
    signaturesForAddress(address: string, { limit, before, until }: { limit: number; before?: string; until?: string }): TransactionRecord[] {
      const signatures = signaturesByAddress.get(address) ?? []
      const result: TransactionRecord[] = []
      let isBeforeSeen = before === undefined
      for (let index = signatures.length - 1; index >= 0 && result.length < limit; index -= 1) {
        const signature = signatures[index] as string
        if (signature === until) break
        if (!isBeforeSeen) {
          isBeforeSeen = signature === before
          continue
        }
        const record = records.get(signature)
        if (record) result.push(record)
      }
      return result
    },
    advanceSlot,
    onSlot(listener: (event: SlotEvent) => void) {
      slotListeners.add(listener)
      return () => void slotListeners.delete(listener)
    },
    onTransaction(listener: (event: TransactionEvent) => void) {
      transactionListeners.add(listener)
      return () => void transactionListeners.delete(listener)
    },
    stop() {
      if (slotTimer) clearInterval(slotTimer)
      slotListeners.clear()
      transactionListeners.clear()
    },
  }
}
