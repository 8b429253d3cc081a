import { createRequire } from 'node:module'

/**
 * The part of LiteSVM's native (napi-rs) binding this server uses. We load the binding from
 * `litesvm-linux-x64-gnu` directly rather than through the `litesvm` wrapper: the wrapper lists
 * six per-platform packages, five of which are missing from our registry, and that breaks
 * `npm ci` ("Missing: litesvm-darwin-arm64@ from lock file"). Same fix as anvil's.
 * Types mirror `litesvm@1.5.0` `dist/internal.d.ts`.
 */
export type LiteSvmAccount = {
  lamports(): bigint
  data(): Uint8Array
  owner(): Uint8Array
  executable(): boolean
  rentEpoch(): bigint
}

export type LiteSvmCompiledInstruction = {
  programIdIndex(): number
  accounts(): Uint8Array
  data(): Uint8Array
}

export type LiteSvmTransactionMetadata = {
  signature(): Uint8Array
  logs(): string[]
  innerInstructions(): { instruction(): LiteSvmCompiledInstruction; stackHeight(): number }[][]
  computeUnitsConsumed(): bigint
  returnData(): { programId(): Uint8Array; data(): Uint8Array }
}

/** A fieldless error is a number (an index into the enum tables in transactionError.ts). */
export type LiteSvmInstructionError = number | { code: number } | { msg: string }
export type LiteSvmTransactionError =
  | number
  | { index: number; err(): LiteSvmInstructionError }
  | { index: number }
  | { accountIndex: number }

export type LiteSvmFailedTransaction = { err(): LiteSvmTransactionError; meta(): LiteSvmTransactionMetadata }

export type LiteSvmSimulation = {
  meta(): LiteSvmTransactionMetadata
  postAccounts(): { address: Uint8Array; account(): LiteSvmAccount }[]
}

export type LiteSvmClock = {
  slot: bigint
  epochStartTimestamp: bigint
  epoch: bigint
  leaderScheduleEpoch: bigint
  unixTimestamp: bigint
}

export type LiteSvm = {
  setSigverify(sigverify: boolean): void
  getSigverify(): boolean
  setBlockhashCheck(check: boolean): void
  setTransactionHistory(capacity: bigint): void
  setLogBytesLimit(limit?: bigint | null): void
  minimumBalanceForRentExemption(dataLen: bigint): bigint
  getAccount(pubkey: Uint8Array): LiteSvmAccount | null
  getProgramAccounts(programId: Uint8Array): { address: Uint8Array; account(): LiteSvmAccount }[]
  setAccount(pubkey: Uint8Array, account: LiteSvmAccount): void
  latestBlockhash(): string
  sendLegacyTransaction(txBytes: Uint8Array): LiteSvmTransactionMetadata | LiteSvmFailedTransaction
  sendVersionedTransaction(txBytes: Uint8Array): LiteSvmTransactionMetadata | LiteSvmFailedTransaction
  simulateLegacyTransaction(txBytes: Uint8Array): LiteSvmSimulation | LiteSvmFailedTransaction
  simulateVersionedTransaction(txBytes: Uint8Array): LiteSvmSimulation | LiteSvmFailedTransaction
  expireBlockhash(): void
  getClock(): LiteSvmClock
  setClock(clock: LiteSvmClock): void
  getEpochSchedule(): { slotsPerEpoch: bigint; firstNormalEpoch: bigint; firstNormalSlot: bigint }
}

export type LiteSvmBinding = {
  LiteSvm: new () => LiteSvm
  Account: new (lamports: bigint, data: Uint8Array, owner: Uint8Array, executable: boolean, rentEpoch: bigint) => LiteSvmAccount
  Clock: new (slot: bigint, epochStartTimestamp: bigint, epoch: bigint, leaderScheduleEpoch: bigint, unixTimestamp: bigint) => LiteSvmClock
  FailedTransactionMetadata: abstract new () => LiteSvmFailedTransaction
  TransactionErrorInstructionError: abstract new () => { index: number; err(): LiteSvmInstructionError }
  TransactionErrorDuplicateInstruction: abstract new () => { index: number }
  TransactionErrorInsufficientFundsForRent: abstract new () => { accountIndex: number }
  TransactionErrorProgramExecutionTemporarilyRestricted: abstract new () => { accountIndex: number }
  InstructionErrorCustom: abstract new () => { code: number }
  InstructionErrorBorshIo: abstract new () => { msg: string }
}

/** The native package whose version we pin in package.json (optionalDependencies). */
export const LITESVM_NATIVE_PACKAGE = 'litesvm-linux-x64-gnu'

/**
 * Loads LiteSVM's native binding: LITESVM_BINDING (a path to a `litesvm.*.node` file, for other
 * platforms), else the linux-x64 package.
 * @example const { LiteSvm } = loadLiteSvm(); const svm = new LiteSvm()
 */
export function loadLiteSvm(env: NodeJS.ProcessEnv = process.env): LiteSvmBinding {
  const require = createRequire(import.meta.url)
  const target = env.LITESVM_BINDING || LITESVM_NATIVE_PACKAGE
  try {
    return require(target) as LiteSvmBinding
  } catch (error) {
    throw new Error(
      `LiteSVM was not found: ${target} could not be loaded (the npm package exists for linux-x64 glibc only). ` +
        'Set LITESVM_BINDING to the litesvm.<platform>.node file of litesvm 1.5.0 for your platform.',
      { cause: error },
    )
  }
}
