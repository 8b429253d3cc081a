/** Sign in with the wallet: the pluggable interface, small enough to load up front (the default one loads later). */
import type { Address } from 'viem'

export type SIWXSession = { caipAddress: string; message: string; signature: string; id?: string; expiresAt?: number }

/** The pluggable sign-in-with-wallet interface: any backend can hold the sessions. */
export type SIWXConfig = {
  createMessage(input: { accountAddress: Address; chainId: number }): Promise<string>
  addSession(session: SIWXSession): Promise<void>
  getSessions(input: { accountAddress: Address; chainId: number }): Promise<SIWXSession[]>
  revokeSession(input: { accountAddress: Address; chainId: number }): Promise<void>
  /** When true, declining to sign disconnects. */
  getRequired(): boolean
}

export type DefaultSiwxOptions = { required?: boolean; statement?: string; expiresInMs?: number }

export const isSiwxConfig = (value: unknown): value is SIWXConfig =>
  typeof value === 'object' && value !== null && typeof (value as SIWXConfig).createMessage === 'function'
