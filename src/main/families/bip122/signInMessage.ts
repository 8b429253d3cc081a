import { createBitcoinSignInMessage } from '../../../shared/families/bip122/signInMessage'
import type { SignInMessageFields } from '../types'

/**
 * Sign in with Bitcoin (CAIP-122): EIP-4361's text with "Bitcoin" in the header and the network's CAIP-2 reference
 * (`bip122:<reference>`) as Chain ID; the data service verifies the wallet's BIP-322 (or legacy) signature over it.
 */
export const createSignInMessage = ({ caipNetworkId, ...fields }: SignInMessageFields) =>
  createBitcoinSignInMessage({ ...fields, version: '1', chainId: caipNetworkId.replace(/^bip122:/, '') })
