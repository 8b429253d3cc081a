/** Sign in with the wallet: the pluggable interface, small enough to load up front (the default one loads later). */
import type { Address } from 'viem'

export type SIWXSession = { caipAddress: string; message: string; signature: string; id?: string; expiresAt?: number }

/**
 * Who signs in: the account's address (0x hex on eip155, base58 on solana), its network's CAIP-2 id, and the EVM chain
 * id (eip155 only; 0 for other families, read `caipNetworkId` there).
 */
export type SIWXAccount = { accountAddress: Address; chainId: number; caipNetworkId: string }

/**
 * The pluggable sign-in-with-wallet interface: any backend can hold the sessions. A session is one address's on one
 * network (SPEC §4): the widget asks for one whenever the connected account or network changes (the network only when
 * sign-in is required), and signs the account out when it disconnects.
 */
export type SIWXConfig = {
  createMessage(input: SIWXAccount): Promise<string>
  addSession(session: SIWXSession): Promise<void>
  /** The valid sessions of this address on this network only: one on another network or of another address does not count. */
  getSessions(input: SIWXAccount): Promise<SIWXSession[]>
  /** Signs this address out on this network: its sessions are no longer valid, wherever they are kept. */
  revokeSession(input: SIWXAccount): Promise<void>
  /** When true, declining to sign disconnects, and a change of network asks to sign in as well. */
  getRequired(): boolean
}

export type DefaultSiwxOptions = { required?: boolean; statement?: string; expiresInMs?: number }

export const isSiwxConfig = (value: unknown): value is SIWXConfig =>
  typeof value === 'object' && value !== null && typeof (value as SIWXConfig).createMessage === 'function'
