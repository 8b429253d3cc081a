import { base58 } from '@scure/base'
import { invalidParams } from './jsonRpc'

/** Readers for positional JSON-RPC params: each throws -32602 naming the parameter it rejects. */

function describe(index: number, name: string): string {
  return `params[${index}] (${name})`
}

function decodeBase58(text: string): Uint8Array | undefined {
  try {
    return base58.decode(text)
  } catch {
    return undefined
  }
}

/** A base58 32-byte address; returns its bytes and its text. */
export function readAddress(params: unknown[], index: number, name: string): { address: string; bytes: Uint8Array } {
  const value = params[index]
  const bytes = typeof value === 'string' && value.length <= 44 ? decodeBase58(value) : undefined
  if (!bytes || bytes.length !== 32) throw invalidParams(`${describe(index, name)} must be a base58-encoded 32-byte address`)
  return { address: value as string, bytes }
}

/** A base58 64-byte transaction signature. */
export function readSignature(value: unknown, what: string): string {
  const bytes = typeof value === 'string' && value.length <= 88 ? decodeBase58(value) : undefined
  if (!bytes || bytes.length !== 64) throw invalidParams(`${what} must be a base58-encoded 64-byte signature`)
  return value as string
}

export function readString(params: unknown[], index: number, name: string, maxLength: number): string {
  const value = params[index]
  if (typeof value !== 'string' || value.length > maxLength) {
    throw invalidParams(`${describe(index, name)} must be a string of at most ${maxLength} characters`)
  }
  return value
}

export function readArray(params: unknown[], index: number, name: string, maxLength: number): unknown[] {
  const value = params[index]
  if (!Array.isArray(value) || value.length > maxLength) {
    throw invalidParams(`${describe(index, name)} must be an array of at most ${maxLength} items`)
  }
  return value
}

export function readInteger(params: unknown[], index: number, name: string, { min, max }: { min: number; max: number }): number {
  const value = params[index]
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min || value > max) {
    throw invalidParams(`${describe(index, name)} must be an integer from ${min} to ${max}`)
  }
  return value
}

/** The optional config object at `index` (commitment and the like are accepted and ignored: all is final). */
export function readConfig(params: unknown[], index: number): Record<string, unknown> {
  const value = params[index]
  if (value === undefined || value === null) return {}
  if (typeof value !== 'object' || Array.isArray(value)) throw invalidParams(`${describe(index, 'config')} must be an object`)
  return value as Record<string, unknown>
}

export function readEncoding<T extends string>(config: Record<string, unknown>, allowed: readonly T[], fallback: T): T {
  const value = config.encoding ?? fallback
  if (!allowed.includes(value as T)) {
    throw invalidParams(`config.encoding must be one of ${allowed.map((item) => `"${item}"`).join(', ')}`)
  }
  return value as T
}

export function readBoolean(config: Record<string, unknown>, key: string, fallback: boolean): boolean {
  const value = config[key] ?? fallback
  if (typeof value !== 'boolean') throw invalidParams(`config.${key} must be a boolean`)
  return value
}

export type DataSlice = { offset: number; length: number }

export function readDataSlice(config: Record<string, unknown>): DataSlice | undefined {
  const value = config.dataSlice
  if (value === undefined || value === null) return undefined
  const { offset, length } = (typeof value === 'object' ? value : {}) as Record<string, unknown>
  const isCount = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0
  if (!isCount(offset) || !isCount(length)) throw invalidParams('config.dataSlice must be { offset, length } with non-negative integers')
  return { offset, length }
}

/** Decodes an encoded transaction or message (base64 or base58) with a byte limit. */
export function readEncodedBytes(
  params: unknown[],
  index: number,
  name: string,
  encoding: 'base58' | 'base64',
  maxBytes: number,
): Uint8Array {
  const value = params[index]
  const maxChars = encoding === 'base64' ? Math.ceil(maxBytes / 3) * 4 : Math.ceil(maxBytes * 1.37) + 1
  if (typeof value !== 'string' || value.length === 0 || value.length > maxChars) {
    throw invalidParams(`${describe(index, name)} must be a non-empty ${encoding} string of at most ${maxBytes} bytes`)
  }
  let bytes: Uint8Array | undefined
  if (encoding === 'base58') bytes = decodeBase58(value)
  else if (/^[A-Za-z0-9+/]+={0,2}$/.test(value) && value.length % 4 === 0) bytes = new Uint8Array(Buffer.from(value, 'base64'))
  if (!bytes) throw invalidParams(`${describe(index, name)} is not valid ${encoding}`)
  if (bytes.length > maxBytes) throw invalidParams(`${describe(index, name)} is ${bytes.length} bytes, more than ${maxBytes}`)
  return bytes
}
