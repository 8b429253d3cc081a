import type { LiteSvmBinding, LiteSvmInstructionError, LiteSvmTransactionError } from './loadLiteSvm'

/** A TransactionError as Solana's RPC serialises it: a variant name, or `{ Variant: fields }`. */
export type RpcTransactionError = string | Record<string, unknown>

// Order matches litesvm@1.5.0 `TransactionErrorFieldless` (the binding returns the index).
const transactionErrorNames = [
  'AccountInUse', 'AccountLoadedTwice', 'AccountNotFound', 'ProgramAccountNotFound', 'InsufficientFundsForFee',
  'InvalidAccountForFee', 'AlreadyProcessed', 'BlockhashNotFound', 'CallChainTooDeep', 'MissingSignatureForFee',
  'InvalidAccountIndex', 'SignatureFailure', 'InvalidProgramForExecution', 'SanitizeFailure', 'ClusterMaintenance',
  'AccountBorrowOutstanding', 'WouldExceedMaxBlockCostLimit', 'UnsupportedVersion', 'InvalidWritableAccount',
  'WouldExceedMaxAccountCostLimit', 'WouldExceedAccountDataBlockLimit', 'TooManyAccountLocks',
  'AddressLookupTableNotFound', 'InvalidAddressLookupTableOwner', 'InvalidAddressLookupTableData',
  'InvalidAddressLookupTableIndex', 'InvalidRentPayingAccount', 'WouldExceedMaxVoteCostLimit',
  'WouldExceedAccountDataTotalLimit', 'MaxLoadedAccountsDataSizeExceeded', 'ResanitizationNeeded',
  'InvalidLoadedAccountsDataSizeLimit', 'UnbalancedTransaction', 'ProgramCacheHitMaxLimit', 'CommitCancelled',
] as const

// Order matches litesvm@1.5.0 `InstructionErrorFieldless`.
const instructionErrorNames = [
  'GenericError', 'InvalidArgument', 'InvalidInstructionData', 'InvalidAccountData', 'AccountDataTooSmall',
  'InsufficientFunds', 'IncorrectProgramId', 'MissingRequiredSignature', 'AccountAlreadyInitialized',
  'UninitializedAccount', 'UnbalancedInstruction', 'ModifiedProgramId', 'ExternalAccountLamportSpend',
  'ExternalAccountDataModified', 'ReadonlyLamportChange', 'ReadonlyDataModified', 'DuplicateAccountIndex',
  'ExecutableModified', 'RentEpochModified', 'NotEnoughAccountKeys', 'AccountDataSizeChanged', 'AccountNotExecutable',
  'AccountBorrowFailed', 'AccountBorrowOutstanding', 'DuplicateAccountOutOfSync', 'InvalidError',
  'ExecutableDataModified', 'ExecutableLamportChange', 'ExecutableAccountNotRentExempt', 'UnsupportedProgramId',
  'CallDepth', 'MissingAccount', 'ReentrancyNotAllowed', 'MaxSeedLengthExceeded', 'InvalidSeeds', 'InvalidRealloc',
  'ComputationalBudgetExceeded', 'PrivilegeEscalation', 'ProgramEnvironmentSetupFailure', 'ProgramFailedToComplete',
  'ProgramFailedToCompile', 'Immutable', 'IncorrectAuthority', 'AccountNotRentExempt', 'InvalidAccountOwner',
  'ArithmeticOverflow', 'UnsupportedSysvar', 'IllegalOwner', 'MaxAccountsDataAllocationsExceeded',
  'MaxAccountsExceeded', 'MaxInstructionTraceLengthExceeded', 'BuiltinProgramsMustConsumeComputeUnits', 'BorshIoError',
] as const

function toRpcInstructionError(binding: LiteSvmBinding, error: LiteSvmInstructionError): RpcTransactionError {
  if (typeof error === 'number') return instructionErrorNames[error] ?? `InstructionError${error}`
  if (error instanceof binding.InstructionErrorCustom) return { Custom: error.code }
  if (error instanceof binding.InstructionErrorBorshIo) return { BorshIoError: error.msg }
  return 'GenericError'
}

/** Converts LiteSVM's error object to the JSON Solana's RPC returns in `err` fields. */
export function toRpcTransactionError(binding: LiteSvmBinding, error: LiteSvmTransactionError): RpcTransactionError {
  if (typeof error === 'number') return transactionErrorNames[error] ?? `TransactionError${error}`
  if (error instanceof binding.TransactionErrorInstructionError) {
    return { InstructionError: [error.index, toRpcInstructionError(binding, error.err())] }
  }
  if (error instanceof binding.TransactionErrorDuplicateInstruction) return { DuplicateInstruction: error.index }
  if (error instanceof binding.TransactionErrorInsufficientFundsForRent) {
    return { InsufficientFundsForRent: { account_index: error.accountIndex } }
  }
  if (error instanceof binding.TransactionErrorProgramExecutionTemporarilyRestricted) {
    return { ProgramExecutionTemporarilyRestricted: { account_index: error.accountIndex } }
  }
  return 'SanitizeFailure'
}

const transactionErrorSentences: Record<string, string> = {
  AccountNotFound: 'Attempt to debit an account but found no record of a prior credit.',
  InsufficientFundsForFee: 'Insufficient funds for fee',
  AlreadyProcessed: 'This transaction has already been processed',
  BlockhashNotFound: 'Blockhash not found',
  SignatureFailure: 'Transaction did not pass signature verification',
}

/** The human sentence Solana's validator puts in error messages, for the common variants. */
export function describeTransactionError(error: RpcTransactionError): string {
  if (typeof error === 'string') return transactionErrorSentences[error] ?? error
  const instruction = error.InstructionError
  if (Array.isArray(instruction)) {
    const [index, inner] = instruction as [number, RpcTransactionError]
    const custom = typeof inner === 'object' ? inner.Custom : undefined
    const what =
      typeof custom === 'number' ? `custom program error: 0x${custom.toString(16)}` : typeof inner === 'string' ? inner : JSON.stringify(inner)
    return `Error processing Instruction ${index}: ${what}`
  }
  const rent = error.InsufficientFundsForRent as { account_index?: number } | undefined
  if (rent) return `Transaction results in an account (${rent.account_index}) with insufficient funds for rent`
  return JSON.stringify(error)
}
