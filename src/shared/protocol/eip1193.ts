import type { Address } from 'viem'
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils.js'
import { toChecksumAddress } from '../families/eip155/address'
import { createWidgetError, fromRpcError, WidgetError } from './errors'

// WalletConnect's own codes for a user saying no (USER_REJECTED, USER_REJECTED_CHAINS, USER_REJECTED_METHODS).
const walletConnectRejections = new Set([5000, 5001, 5002])

/** A wallet's error as a WidgetError: classified by its EIP-1193 code (never by its text), the original as cause. */
export const toWalletError = (error: unknown): WidgetError => {
  if (error instanceof WidgetError) return error
  const e = error as { code?: unknown; message?: unknown; data?: { originalError?: { code?: unknown } } } | null
  const code = typeof e?.code === 'number' ? e.code : typeof e?.data?.originalError?.code === 'number' ? e.data.originalError.code : undefined
  if (code !== undefined && walletConnectRejections.has(code)) return createWidgetError('USER_REJECTED', { details: typeof e?.message === 'string' ? e.message : undefined, cause: error })
  if (code !== undefined) return fromRpcError({ code, message: e?.message })
  return createWidgetError('UNKNOWN', { details: typeof e?.message === 'string' ? e.message : String(error), cause: error })
}

export const parseChainId = (value: unknown): number => {
  const id = typeof value === 'string' ? Number.parseInt(value, value.startsWith('0x') ? 16 : 10) : Number(value)
  if (!Number.isSafeInteger(id) || id <= 0) throw createWidgetError('WALLET_BAD_RESPONSE', { details: `The wallet reported an invalid chain id: ${String(value)}` })
  return id
}

export const parseAccounts = (value: unknown): Address[] => {
  if (!Array.isArray(value)) throw createWidgetError('WALLET_BAD_RESPONSE', { details: 'The wallet reported accounts that are not a list' })
  return value.map((a) => {
    if (typeof a !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(a)) throw createWidgetError('WALLET_BAD_RESPONSE', { details: `The wallet reported an invalid address: ${String(a)}` })
    return toChecksumAddress(a)
  })
}

/** A text as the 0x-hex of its UTF-8 bytes: the message parameter of personal_sign. */
export const utf8ToHex = (text: string): `0x${string}` => `0x${bytesToHex(utf8ToBytes(text))}`
