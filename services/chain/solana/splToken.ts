import { base58 } from '@scure/base'

/** SPL Token account layouts (the base 165-byte account and 82-byte mint), read without a library. */

export const TOKEN_PROGRAM = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA'
export const TOKEN_2022_PROGRAM = 'TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb'
export const TOKEN_ACCOUNT_LENGTH = 165
const MINT_LENGTH = 82
// Token-2022 accounts with extensions: the base layout padded to 165 bytes, then an account-type byte.
const ACCOUNT_TYPE_MINT = 1
const ACCOUNT_TYPE_ACCOUNT = 2

export function isTokenProgram(program: string): boolean {
  return program === TOKEN_PROGRAM || program === TOKEN_2022_PROGRAM
}

export type TokenAccountState = 'uninitialized' | 'initialized' | 'frozen'

export type TokenAccount = {
  mint: string
  owner: string
  amount: bigint
  delegate: string | null
  state: TokenAccountState
  /** Rent-exempt reserve of a wrapped-SOL account, null for other mints. */
  nativeReserve: bigint | null
  delegatedAmount: bigint
  closeAuthority: string | null
}

export type Mint = {
  mintAuthority: string | null
  supply: bigint
  decimals: number
  isInitialized: boolean
  freezeAuthority: string | null
}

function view(data: Uint8Array): DataView {
  return new DataView(data.buffer, data.byteOffset, data.byteLength)
}

function readAddressAt(data: Uint8Array, offset: number): string {
  return base58.encode(data.subarray(offset, offset + 32))
}

/** A COption<Pubkey>: a u32 tag then 32 bytes. */
function readOptionalAddressAt(data: Uint8Array, offset: number): string | null {
  return view(data).getUint32(offset, true) === 1 ? readAddressAt(data, offset + 4) : null
}

function hasLayout(program: string, data: Uint8Array, baseLength: number, accountType: number): boolean {
  if (data.length === baseLength) return isTokenProgram(program)
  return program === TOKEN_2022_PROGRAM && data.length > TOKEN_ACCOUNT_LENGTH && data[TOKEN_ACCOUNT_LENGTH] === accountType
}

/** Reads an initialised token account owned by `program`; undefined for anything else. */
export function readTokenAccount(program: string, data: Uint8Array): TokenAccount | undefined {
  if (!hasLayout(program, data, TOKEN_ACCOUNT_LENGTH, ACCOUNT_TYPE_ACCOUNT)) return undefined
  const state = (['uninitialized', 'initialized', 'frozen'] as const)[data[108] ?? 0]
  if (!state || state === 'uninitialized') return undefined
  const dv = view(data)
  return {
    mint: readAddressAt(data, 0),
    owner: readAddressAt(data, 32),
    amount: dv.getBigUint64(64, true),
    delegate: readOptionalAddressAt(data, 72),
    state,
    nativeReserve: dv.getUint32(109, true) === 1 ? dv.getBigUint64(113, true) : null,
    delegatedAmount: dv.getBigUint64(121, true),
    closeAuthority: readOptionalAddressAt(data, 129),
  }
}

/** Reads a mint owned by `program`; undefined for anything else. */
export function readMint(program: string, data: Uint8Array): Mint | undefined {
  if (!hasLayout(program, data, MINT_LENGTH, ACCOUNT_TYPE_MINT)) return undefined
  return {
    mintAuthority: readOptionalAddressAt(data, 0),
    supply: view(data).getBigUint64(36, true),
    decimals: data[44] ?? 0,
    isInitialized: data[45] === 1,
    freezeAuthority: readOptionalAddressAt(data, 46),
  }
}

export type UiTokenAmount = { amount: string; decimals: number; uiAmount: number | null; uiAmountString: string }

/** The RPC's token amount: raw string, decimals, and the decimal string without trailing zeros. */
export function toUiTokenAmount(amount: bigint, decimals: number): UiTokenAmount {
  const digits = amount.toString()
  let uiAmountString = digits
  if (decimals > 0) {
    const padded = digits.padStart(decimals + 1, '0')
    const whole = padded.slice(0, -decimals)
    const fraction = padded.slice(-decimals).replace(/0+$/, '')
    uiAmountString = fraction ? `${whole}.${fraction}` : whole
  }
  return { amount: digits, decimals, uiAmount: Number(uiAmountString), uiAmountString }
}

/** `jsonParsed` data of a token account or mint, as agave's account decoder writes it (base layout; no extensions). */
export function parseTokenData(
  program: string,
  data: Uint8Array,
  decimalsOf: (mint: string) => number | undefined,
): { program: string; parsed: { info: Record<string, unknown>; type: 'account' | 'mint' }; space: number } | undefined {
  const programName = program === TOKEN_PROGRAM ? 'spl-token' : 'spl-token-2022'
  const account = readTokenAccount(program, data)
  if (account) {
    const decimals = decimalsOf(account.mint)
    if (decimals === undefined) return undefined
    const info: Record<string, unknown> = {
      isNative: account.nativeReserve !== null,
      mint: account.mint,
      owner: account.owner,
      state: account.state,
      tokenAmount: toUiTokenAmount(account.amount, decimals),
    }
    if (account.delegate) {
      info.delegate = account.delegate
      info.delegatedAmount = toUiTokenAmount(account.delegatedAmount, decimals)
    }
    if (account.nativeReserve !== null) info.rentExemptReserve = toUiTokenAmount(account.nativeReserve, decimals)
    if (account.closeAuthority) info.closeAuthority = account.closeAuthority
    return { program: programName, parsed: { info, type: 'account' }, space: data.length }
  }
  const mint = readMint(program, data)
  if (!mint) return undefined
  const info = {
    decimals: mint.decimals,
    freezeAuthority: mint.freezeAuthority,
    isInitialized: mint.isInitialized,
    mintAuthority: mint.mintAuthority,
    supply: mint.supply.toString(),
  }
  return { program: programName, parsed: { info, type: 'mint' }, space: data.length }
}
