import { createSiweMessage } from 'viem/siwe'
import { parseCaipNetworkId } from '../../../shared/protocol/caip'
import type { SignInMessageFields } from '../types'

/** Sign In With Ethereum (EIP-4361), by viem: parseable by the `siwe` package the data service verifies with. */
export const createSignInMessage = ({ address, caipNetworkId, ...fields }: SignInMessageFields) =>
  createSiweMessage({ ...fields, address: address as `0x${string}`, chainId: Number(parseCaipNetworkId(caipNetworkId)?.reference), version: '1' })
