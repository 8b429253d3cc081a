import type { Address } from 'viem'
import type { Database } from './db/createDatabase'

export type ServiceToken = { address: Address; name: string; symbol: string; decimals: number; iconUrl?: string }

export type ServiceChain = {
  chainId: number
  name: string
  rpcUrl: string
  multicall3: Address
  nativeCurrency: { name: string; symbol: string; decimals: number }
  tokens: readonly ServiceToken[]
}

export type WalletEntry = {
  id: string
  name: string
  image_id: string
  rdns: string | null
  chains: string[]
  mobile_link: string | null
  desktop_link: string | null
  webapp_link: string | null
  badge_type?: 'certified' | null
}

export type ApiConfig = {
  db: Database
  /** Projects and the browser origins each may call from. */
  projects: readonly { id: string; allowedOrigins: readonly string[] }[]
  chains: readonly ServiceChain[]
  /** USD prices by token symbol. */
  prices?: Readonly<Record<string, number>>
  /** Appended to registered names: alice → alice.tessera.id. */
  nameSuffix?: string
  wallets?: readonly WalletEntry[]
  /** The on-ramp provider whose URL /v1/generators/onrampurl builds; none → the spec's sample options and placeholder quote. */
  onramp?: { name: string; urlTemplate: string }
  now?: () => number
}

/** An error body naming what was wrong: the widget reads `reasons[0].description` for name-service errors. */
export const errorBody = (code: string, message: string, field?: string) => ({
  error: { code, message, ...(field ? { field } : {}), reasons: [{ description: message }] },
})
