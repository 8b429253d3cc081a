import { getBase58Decoder, getBase64Decoder } from '@solana/kit'
import type { SolanaAccountMeta, SolanaDecodedInstruction, SolanaProgram, SolanaReviewRow, SolanaReviewValue, SolanaReviewWarning } from '../../../shared/protocol/review'

export type DecodeInstructionParameters = {
  programAddress: string
  accounts: readonly SolanaAccountMeta[]
  data: Uint8Array
  /** Its place in the transaction, for the warnings. */
  index: number
}

export type DecodeInstructionReturnType = { instruction: SolanaDecodedInstruction; warnings: SolanaReviewWarning[] }

const U64_MAX = 2n ** 64n - 1n

/** The programs the review knows, by address (Memo v1 and v2 both). */
const programs: Record<string, SolanaProgram> = {
  '11111111111111111111111111111111': 'system',
  TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA: 'token',
  TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb: 'token2022',
  ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL: 'associatedToken',
  ComputeBudget111111111111111111111111111111: 'computeBudget',
  MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr: 'memo',
  Memo1UhkJRfHyvLMcVucJwxXeuD728EqVDDwQDxFMNo: 'memo',
}

/**
 * How a field is laid out: little-endian integers; `lamports` and `amount` are u64s shown as SOL or token amounts;
 * `seed` is bincode's String (u64 length, UTF-8); `optionKey` the token program's COption<Pubkey> (a tag byte, then the
 * key when it is 1); `optionLamports` kit's Option<u64> (the same tag, then the u64); `restText` the rest of the data
 * as UTF-8.
 */
type FieldKind = 'u8' | 'u32' | 'u64' | 'lamports' | 'amount' | 'key' | 'seed' | 'optionKey' | 'optionLamports' | 'restText'

/** One instruction's layout: its name, its data fields after the discriminator, then its accounts by name. */
type Layout = { name: string; fields?: readonly (readonly [string, FieldKind])[]; accounts?: readonly string[] }

// The System program's instructions (a u32 discriminator), as solana-program's SystemInstruction declares them.
const systemLayouts: readonly Layout[] = [
  { name: 'createAccount', fields: [['lamports', 'lamports'], ['space', 'u64'], ['owner', 'key']], accounts: ['payer', 'newAccount'] },
  { name: 'assign', fields: [['owner', 'key']], accounts: ['account'] },
  { name: 'transfer', fields: [['lamports', 'lamports']], accounts: ['source', 'destination'] },
  { name: 'createAccountWithSeed', fields: [['base', 'key'], ['seed', 'seed'], ['lamports', 'lamports'], ['space', 'u64'], ['owner', 'key']], accounts: ['payer', 'newAccount', 'baseAccount'] },
  { name: 'advanceNonceAccount', accounts: ['nonceAccount', 'recentBlockhashesSysvar', 'nonceAuthority'] },
  { name: 'withdrawNonceAccount', fields: [['lamports', 'lamports']], accounts: ['nonceAccount', 'recipient', 'recentBlockhashesSysvar', 'rentSysvar', 'nonceAuthority'] },
  { name: 'initializeNonceAccount', fields: [['nonceAuthority', 'key']], accounts: ['nonceAccount', 'recentBlockhashesSysvar', 'rentSysvar'] },
  { name: 'authorizeNonceAccount', fields: [['newNonceAuthority', 'key']], accounts: ['nonceAccount', 'nonceAuthority'] },
  { name: 'allocate', fields: [['space', 'u64']], accounts: ['account'] },
  { name: 'allocateWithSeed', fields: [['base', 'key'], ['seed', 'seed'], ['space', 'u64'], ['owner', 'key']], accounts: ['account', 'baseAccount'] },
  { name: 'assignWithSeed', fields: [['base', 'key'], ['seed', 'seed'], ['owner', 'key']], accounts: ['account', 'baseAccount'] },
  { name: 'transferWithSeed', fields: [['lamports', 'lamports'], ['fromSeed', 'seed'], ['fromOwner', 'key']], accounts: ['source', 'baseAccount', 'destination'] },
  { name: 'upgradeNonceAccount', accounts: ['nonceAccount'] },
  { name: 'createAccountAllowPrefund', fields: [['lamports', 'lamports'], ['space', 'u64'], ['owner', 'key']], accounts: ['newAccount', 'payer'] },
]

// SPL Token's instructions (a u8 discriminator); Token-2022 shares 0 to 24 and adds extensions after.
const tokenLayouts: readonly Layout[] = [
  { name: 'initializeMint', fields: [['decimals', 'u8'], ['mintAuthority', 'key'], ['freezeAuthority', 'optionKey']], accounts: ['mint', 'rentSysvar'] },
  { name: 'initializeAccount', accounts: ['account', 'mint', 'owner', 'rentSysvar'] },
  { name: 'initializeMultisig', fields: [['m', 'u8']], accounts: ['multisig', 'rentSysvar'] },
  { name: 'transfer', fields: [['amount', 'amount']], accounts: ['source', 'destination', 'authority'] },
  { name: 'approve', fields: [['amount', 'amount']], accounts: ['source', 'delegate', 'owner'] },
  { name: 'revoke', accounts: ['source', 'owner'] },
  { name: 'setAuthority', fields: [['authorityType', 'u8'], ['newAuthority', 'optionKey']], accounts: ['owned', 'owner'] },
  { name: 'mintTo', fields: [['amount', 'amount']], accounts: ['mint', 'token', 'mintAuthority'] },
  { name: 'burn', fields: [['amount', 'amount']], accounts: ['account', 'mint', 'authority'] },
  { name: 'closeAccount', accounts: ['account', 'destination', 'owner'] },
  { name: 'freezeAccount', accounts: ['account', 'mint', 'owner'] },
  { name: 'thawAccount', accounts: ['account', 'mint', 'owner'] },
  { name: 'transferChecked', fields: [['amount', 'amount'], ['decimals', 'u8']], accounts: ['source', 'mint', 'destination', 'authority'] },
  { name: 'approveChecked', fields: [['amount', 'amount'], ['decimals', 'u8']], accounts: ['source', 'mint', 'delegate', 'owner'] },
  { name: 'mintToChecked', fields: [['amount', 'amount'], ['decimals', 'u8']], accounts: ['mint', 'token', 'mintAuthority'] },
  { name: 'burnChecked', fields: [['amount', 'amount'], ['decimals', 'u8']], accounts: ['account', 'mint', 'authority'] },
  { name: 'initializeAccount2', fields: [['owner', 'key']], accounts: ['account', 'mint', 'rentSysvar'] },
  { name: 'syncNative', accounts: ['account', 'rentSysvar'] },
  { name: 'initializeAccount3', fields: [['owner', 'key']], accounts: ['account', 'mint'] },
  { name: 'initializeMultisig2', fields: [['m', 'u8']], accounts: ['multisig'] },
  { name: 'initializeMint2', fields: [['decimals', 'u8'], ['mintAuthority', 'key'], ['freezeAuthority', 'optionKey']], accounts: ['mint'] },
  { name: 'getAccountDataSize', accounts: ['mint'] },
  { name: 'initializeImmutableOwner', accounts: ['account'] },
  { name: 'amountToUiAmount', fields: [['amount', 'amount']], accounts: ['mint'] },
  { name: 'uiAmountToAmount', fields: [['uiAmount', 'restText']], accounts: ['mint'] },
]

const lamportsOut = ['source', 'destination', 'authority']
/** Later instructions of both token programs (p-token's), and Token-2022's own the review decodes (the extensions' many others stay unknown). */
const laterTokenLayouts: Readonly<Record<number, Layout>> = {
  38: { name: 'withdrawExcessLamports', accounts: lamportsOut },
  45: { name: 'unwrapLamports', fields: [['lamports', 'optionLamports']], accounts: lamportsOut },
}
const token2022Layouts: Readonly<Record<number, Layout>> = {
  25: { name: 'initializeMintCloseAuthority', fields: [['closeAuthority', 'optionKey']], accounts: ['mint'] },
  35: { name: 'initializePermanentDelegate', fields: [['delegate', 'key']], accounts: ['mint'] },
}

// The Compute Budget program (a u8 discriminator); 0 is the deprecated RequestUnits.
const computeBudgetLayouts: readonly Layout[] = [
  { name: 'requestUnits', fields: [['units', 'u32'], ['additionalFee', 'u32']] },
  { name: 'requestHeapFrame', fields: [['bytes', 'u32']] },
  { name: 'setComputeUnitLimit', fields: [['units', 'u32']] },
  { name: 'setComputeUnitPrice', fields: [['microLamports', 'u64']] },
  { name: 'setLoadedAccountsDataSizeLimit', fields: [['bytes', 'u32']] },
]

const associatedAccounts = ['payer', 'associatedAccount', 'owner', 'mint', 'systemProgram', 'tokenProgram']
// The Associated Token Account program: no data (the first version) or a u8 discriminator.
const associatedTokenLayouts: readonly Layout[] = [
  { name: 'create', accounts: associatedAccounts },
  { name: 'createIdempotent', accounts: associatedAccounts },
  { name: 'recoverNested', accounts: ['nestedAccount', 'nestedMint', 'destination', 'ownerAccount', 'ownerMint', 'wallet', 'tokenProgram'] },
]

/** Data shorter than its layout (or a bad option tag): the program would refuse it, so the review calls it unknown. */
class ShortData extends Error {}

function createReader(data: Uint8Array) {
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength)
  let offset = 0
  const take = (bytes: number) => {
    if (offset + bytes > data.length) throw new ShortData()
    offset += bytes
    return offset - bytes
  }
  const key = () => getBase58Decoder().decode(data.subarray(take(32), offset))
  return {
    u8: () => data[take(1)]!,
    u32: () => view.getUint32(take(4), true),
    u64: () => view.getBigUint64(take(8), true),
    key,
    bytes: (length: number) => data.subarray(take(length), offset),
    rest: () => data.subarray(take(data.length - offset), offset),
    tag: () => {
      const tag = data[take(1)]
      if (tag !== 0 && tag !== 1) throw new ShortData()
      return tag === 1
    },
  }
}

/** UTF-8 text when the bytes are valid UTF-8, else base64. */
function textOrBytes(bytes: Uint8Array): SolanaReviewValue {
  try {
    return { kind: 'text', value: new TextDecoder('utf-8', { fatal: true }).decode(bytes) }
  } catch {
    return { kind: 'bytes', value: getBase64Decoder().decode(bytes) }
  }
}

function readField(reader: ReturnType<typeof createReader>, kind: FieldKind): SolanaReviewValue | undefined {
  switch (kind) {
    case 'u8':
      return { kind: 'number', value: BigInt(reader.u8()) }
    case 'u32':
      return { kind: 'number', value: BigInt(reader.u32()) }
    case 'u64':
      return { kind: 'number', value: reader.u64() }
    case 'lamports':
      return { kind: 'lamports', amount: reader.u64() }
    case 'amount': {
      const amount = reader.u64()
      return { kind: 'tokenAmount', amount, isUnlimited: amount === U64_MAX }
    }
    case 'key':
      return { kind: 'address', address: reader.key() }
    case 'optionKey':
      return reader.tag() ? { kind: 'address', address: reader.key() } : undefined
    case 'optionLamports':
      return reader.tag() ? { kind: 'lamports', amount: reader.u64() } : undefined
    case 'restText':
      return textOrBytes(reader.rest())
    case 'seed': {
      const length = reader.u64()
      if (length > 32n) throw new ShortData() // a seed is at most 32 bytes (MAX_SEED_LEN)
      return textOrBytes(reader.bytes(Number(length)))
    }
  }
}

/**
 * Reads one layout: its fields, then its accounts by name. A token amount learns its mint (the `mint` account) and
 * decimals (the `decimals` field) when the instruction names them.
 */
function applyLayout(layout: Layout, reader: ReturnType<typeof createReader>, accounts: readonly SolanaAccountMeta[]): SolanaReviewRow[] {
  const fields = (layout.fields ?? []).flatMap(([name, kind]) => {
    const value = readField(reader, kind)
    return value ? [{ name, value }] : []
  })
  const named = (layout.accounts ?? []).flatMap((name, index) => {
    const address = accounts[index]?.address
    return address === undefined ? [] : [{ name, value: { kind: 'address', address } as const }]
  })
  const mint = named.find((row) => row.name === 'mint')?.value.address
  const decimals = fields.find((row) => row.name === 'decimals')?.value
  return [
    ...fields.map((row): SolanaReviewRow =>
      row.value.kind === 'tokenAmount'
        ? { ...row, value: { ...row.value, ...(mint !== undefined && { mint }), ...(decimals?.kind === 'number' && { decimals: Number(decimals.value) }) } }
        : row,
    ),
    ...named,
  ]
}

/** The layout of a known program's instruction and the reader past its discriminator; undefined when none fits. */
function findLayout(program: SolanaProgram, data: Uint8Array): { layout: Layout; reader: ReturnType<typeof createReader> } | undefined {
  const reader = createReader(data)
  switch (program) {
    case 'system': {
      const layout = systemLayouts[reader.u32()]
      return layout && { layout, reader }
    }
    case 'token':
    case 'token2022': {
      const discriminator = reader.u8()
      const layout = tokenLayouts[discriminator] ?? laterTokenLayouts[discriminator] ?? (program === 'token2022' ? token2022Layouts[discriminator] : undefined)
      return layout && { layout, reader }
    }
    case 'computeBudget': {
      const layout = computeBudgetLayouts[reader.u8()]
      return layout && { layout, reader }
    }
    case 'associatedToken': {
      const layout = associatedTokenLayouts[data.length === 0 ? 0 : reader.u8()]
      return layout && { layout, reader }
    }
    case 'memo':
      return { layout: { name: 'memo' }, reader }
  }
}

/** What an instruction grants: an allowance (approve), a new authority, a new owner program. */
function warningsOf(program: SolanaProgram, name: string, args: readonly SolanaReviewRow[], index: number): SolanaReviewWarning[] {
  const arg = (rowName: string) => args.find((row) => row.name === rowName)?.value
  const addressOf = (rowName: string) => {
    const value = arg(rowName)
    return value?.kind === 'address' ? value.address : undefined
  }
  if ((program === 'token' || program === 'token2022') && (name === 'approve' || name === 'approveChecked')) {
    const amount = arg('amount')
    const [source, delegate] = [addressOf('source'), addressOf('delegate')]
    if (amount?.kind !== 'tokenAmount' || source === undefined || delegate === undefined) return []
    const { mint, decimals } = amount
    return [{ kind: amount.isUnlimited ? 'unlimitedApproval' : 'approval', instructionIndex: index, source, delegate, amount: amount.amount, ...(mint !== undefined && { mint }), ...(decimals !== undefined && { decimals }) }]
  }
  if ((program === 'token' || program === 'token2022') && name === 'setAuthority') {
    const [account, authorityType, newAuthority] = [addressOf('owned'), arg('authorityType'), addressOf('newAuthority')]
    if (account === undefined || authorityType?.kind !== 'number') return []
    return [{ kind: 'authorityChange', instructionIndex: index, account, authorityType: Number(authorityType.value), ...(newAuthority !== undefined && { newAuthority }) }]
  }
  if (program === 'system' && (name === 'assign' || name === 'assignWithSeed')) {
    const [account, owner] = [addressOf('account'), addressOf('owner')]
    return account === undefined || owner === undefined ? [] : [{ kind: 'ownerChange', instructionIndex: index, account, owner }]
  }
  return []
}

/**
 * One instruction decoded for review: the System, SPL Token, Token-2022 (its base instructions and a few of its own),
 * Associated Token Account, Compute Budget and Memo programs by their layouts; anything else, a discriminator no
 * layout knows, data too short for its layout or an account a lookup table did not give is `unknown`, with its
 * program, accounts and data length.
 * @example decodeInstruction({ programAddress: '11111111111111111111111111111111', accounts, data, index: 0 }) // { instruction: { kind: 'instruction', program: 'system', instruction: 'transfer', … } }
 */
export function decodeInstruction({ programAddress, accounts, data, index }: DecodeInstructionParameters): DecodeInstructionReturnType {
  const program = programs[programAddress] as SolanaProgram | undefined
  const unknown = (): DecodeInstructionReturnType => ({
    instruction: {
      kind: 'unknown',
      programAddress,
      ...(program && { program }),
      dataBytes: data.length,
      accounts: [...accounts],
    },
    warnings: [],
  })
  if (!program || accounts.some((account) => account.address === undefined)) return unknown()
  try {
    const found = findLayout(program, data)
    if (!found) return unknown()
    const { layout, reader } = found
    const args = program === 'memo' ? [{ name: 'text', value: textOrBytes(data) }] : applyLayout(layout, reader, accounts)
    return { instruction: { kind: 'instruction', program, programAddress, instruction: layout.name, args }, warnings: warningsOf(program, layout.name, args, index) }
  } catch (error) {
    if (error instanceof ShortData) return unknown()
    throw error
  }
}
