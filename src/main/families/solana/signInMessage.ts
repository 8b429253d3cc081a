import { createSolanaSignInMessage, type SolanaSignInChainId } from '../../../shared/families/solana/signInMessage'
import type { SignInMessageFields } from '../types'

/** The public clusters by CAIP-2 id, as Sign In With Solana names them. */
const clusterNames: Record<string, SolanaSignInChainId> = {
  'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp': 'mainnet',
  'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1': 'devnet',
  'solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z': 'testnet',
}

/** Sign In With Solana (CAIP-122): it names the cluster, and any other than the public three is the local one. */
export const createSignInMessage = ({ caipNetworkId, ...fields }: SignInMessageFields) =>
  createSolanaSignInMessage({ ...fields, version: '1', chainId: clusterNames[caipNetworkId] ?? 'localnet' })
