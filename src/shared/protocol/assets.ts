import { isHexString } from './rules'

/** An asset as wallet_getAssets returns it (SPEC §3). */
export type WalletAsset = {
  address: string
  balance: string
  type: 'ERC20' | 'NATIVE'
  metadata: { name: string; symbol: string; decimals: number | string; price?: number; iconUrl?: string }
}

/**
 * Whether a wallet_getAssets entry is usable: address and balance are strings, type is ERC20 or NATIVE, and the
 * metadata's fields have their types (SPEC §5).
 */
export function isValidAsset(value: unknown): value is WalletAsset {
  const asset = value as Partial<WalletAsset> | null
  if (typeof asset !== 'object' || asset === null) return false
  if (typeof asset.address !== 'string' || typeof asset.balance !== 'string') return false
  if (asset.type !== 'ERC20' && asset.type !== 'NATIVE') return false
  const metadata = asset.metadata as Partial<WalletAsset['metadata']> | undefined
  if (typeof metadata !== 'object' || metadata === null) return false
  if (typeof metadata.name !== 'string' || typeof metadata.symbol !== 'string') return false
  if (typeof metadata.decimals !== 'number' && typeof metadata.decimals !== 'string') return false
  if (metadata.price !== undefined && typeof metadata.price !== 'number') return false
  if (metadata.iconUrl !== undefined && typeof metadata.iconUrl !== 'string') return false
  return true
}

/** Keeps the valid assets and drops tokens whose decimals are '0' (SPEC §5). */
export const usableAssets = (assets: readonly unknown[]): WalletAsset[] =>
  assets.filter(isValidAsset).filter((asset) => String(asset.metadata.decimals) !== '0')

/** One call of wallet_sendCalls: `to` starts with 0x, and `data`, when present, too (SPEC §5). */
export type SendCall = { to: string; data?: string; value?: string }

/** The index and reason of the first invalid call, or undefined when all calls are valid. */
export function checkSendCalls(calls: readonly unknown[]): { index: number; field: 'to' | 'data'; message: string } | undefined {
  for (const [index, call] of calls.entries()) {
    const { to, data } = (call ?? {}) as Partial<SendCall>
    if (typeof to !== 'string' || !to.startsWith('0x')) return { index, field: 'to', message: `calls.${index}.to must start with 0x` }
    if (data !== undefined && (typeof data !== 'string' || !(data === '0x' || isHexString(data)))) {
      return { index, field: 'data', message: `calls.${index}.data must start with 0x` }
    }
  }
  return undefined
}
