import { base58 } from '@scure/base'
import type { ChainAccount } from './createLiteSvmChain'
import { invalidParams } from './jsonRpc'
import { readDataSlice, readEncoding } from './rpcParams'
import { parseTokenData } from './splToken'

export const accountEncodings = ['base64', 'base58', 'jsonParsed'] as const
export type AccountEncoding = (typeof accountEncodings)[number]
export type AccountEncodingOptions = { encoding: AccountEncoding; dataSlice?: { offset: number; length: number } }

/** Agave refuses base58 for larger data: it is slow to encode. */
const MAX_BASE58_BYTES = 128

/** Reads `encoding` and `dataSlice` from an account method's config. */
export function readAccountEncoding(config: Record<string, unknown>, fallback: AccountEncoding = 'base64'): AccountEncodingOptions {
  return { encoding: readEncoding(config, accountEncodings, fallback), dataSlice: readDataSlice(config) }
}

/**
 * An account as getAccountInfo returns it. `jsonParsed` parses SPL Token accounts and mints and,
 * as on agave, falls back to base64 for anything else (or when a dataSlice is asked for).
 */
export function encodeAccount(
  account: ChainAccount,
  { encoding, dataSlice }: AccountEncodingOptions,
  decimalsOf: (mint: string) => number | undefined,
): Record<string, unknown> {
  const base = { executable: account.executable, lamports: account.lamports, owner: account.owner, rentEpoch: account.rentEpoch, space: account.data.length }
  if (encoding === 'jsonParsed' && !dataSlice) {
    const parsed = parseTokenData(account.owner, account.data, decimalsOf)
    if (parsed) return { ...base, data: parsed }
  }
  const data = dataSlice ? account.data.subarray(dataSlice.offset, dataSlice.offset + dataSlice.length) : account.data
  if (encoding === 'base58') {
    if (data.length > MAX_BASE58_BYTES) {
      throw invalidParams(`base58 encoding is limited to ${MAX_BASE58_BYTES} bytes of account data (this account has ${data.length}); use base64`)
    }
    return { ...base, data: [base58.encode(data), 'base58'] }
  }
  return { ...base, data: [Buffer.from(data).toString('base64'), 'base64'] }
}
