import { createPolkadotSignInMessage } from '../../../shared/families/polkadot/signInMessage'
import type { SignInMessageFields } from '../types'

/**
 * Sign in with Polkadot (CAIP-122): EIP-4361's text with "Polkadot" in the header and the network's CAIP-2 reference
 * (`polkadot:<reference>`) as Chain ID; the extension signs it with signRaw and the data service verifies the signature.
 */
export const createSignInMessage = ({ caipNetworkId, ...fields }: SignInMessageFields) =>
  createPolkadotSignInMessage({ ...fields, version: '1', chainId: caipNetworkId.replace(/^polkadot:/, '') })
