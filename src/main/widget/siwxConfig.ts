/** Sign in with the wallet: the pluggable interface, small enough to load up front (the default one loads later). */
import type { Address } from 'viem'

export type SIWXSession = { caipAddress: string; message: string; signature: string; id?: string; expiresAt?: number }

/**
 * Who signs in: the account's address (0x hex on eip155, base58 on solana), its network's CAIP-2 id, and the EVM chain
 * id (eip155 only; 0 for other families, read `caipNetworkId` there).
 */
export type SIWXAccount = { accountAddress: Address; chainId: number; caipNetworkId: string }

/** The pluggable sign-in-with-wallet interface: any backend can hold the sessions. */
export type SIWXConfig = {
  createMessage(input: SIWXAccount): Promise<string>
  addSession(session: SIWXSession): Promise<void>
  getSessions(input: SIWXAccount): Promise<SIWXSession[]>
  revokeSession(input: SIWXAccount): Promise<void>
  /** When true, declining to sign disconnects. */
  getRequired(): boolean
}

export type DefaultSiwxOptions = { required?: boolean; statement?: string; expiresInMs?: number }

export const isSiwxConfig = (value: unknown): value is SIWXConfig =>
  typeof value === 'object' && value !== null && typeof (value as SIWXConfig).createMessage === 'function'
