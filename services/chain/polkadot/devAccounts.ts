import { Keyring } from '@polkadot/keyring'
import { cryptoWaitReady } from '@polkadot/util-crypto'

/** The Substrate dev accounts (`//Alice` …), the keys every Substrate tool and extension knows. */
export const POLKADOT_DEV_ACCOUNT_NAMES = ['Alice', 'Bob', 'Charlie', 'Dave', 'Eve', 'Ferdie'] as const

export type PolkadotDevAccountName = (typeof POLKADOT_DEV_ACCOUNT_NAMES)[number]

export type PolkadotDevAccount = {
  name: PolkadotDevAccountName
  /** The secret URI of the sr25519 key (the well-known dev phrase and a hard derivation). TEST-ONLY. */
  uri: `//${PolkadotDevAccountName}`
  /** SS58, in the chain's prefix. */
  address: string
  /** Hex, 32 bytes. */
  publicKey: `0x${string}`
}

const toHex = (bytes: Uint8Array) => `0x${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}` as const

/**
 * The six dev accounts' sr25519 keys with their addresses in `ss58Prefix`.
 * @example const [alice] = await derivePolkadotDevAccounts(2)
 */
export async function derivePolkadotDevAccounts(ss58Prefix: number): Promise<PolkadotDevAccount[]> {
  await cryptoWaitReady()
  const keyring = new Keyring({ type: 'sr25519', ss58Format: ss58Prefix })
  return POLKADOT_DEV_ACCOUNT_NAMES.map((name) => {
    const pair = keyring.addFromUri(`//${name}`)
    return { name, uri: `//${name}`, address: pair.address, publicKey: toHex(pair.publicKey) }
  })
}
