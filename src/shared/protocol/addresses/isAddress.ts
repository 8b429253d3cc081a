import { parseCaipAddress, type ChainNamespace } from '../caip'
import { ADDRESS_VALIDITY_CACHE_ENTRIES } from '../constants'
import { createLruCache } from '../lruCache'
import { getBitcoinNetwork, isBitcoinAddress, type BitcoinNetwork } from '../../families/bip122/address'
import { isEvmAddress } from '../../families/eip155/address'
import { isPolkadotAddress } from '../../families/polkadot/address'
import { isSolanaAddress } from '../../families/solana/address'

export type IsAddressOptions = { strict?: boolean; bitcoinNetwork?: BitcoinNetwork; ss58Prefix?: number }

const cache = createLruCache<string, boolean>(ADDRESS_VALIDITY_CACHE_ENTRIES)

/** Whether `address` is valid in `namespace`; answers are kept in an LRU cache of 8,192 entries (SPEC §5). */
export function isAddress(namespace: ChainNamespace, address: string, options: IsAddressOptions = {}): boolean {
  const key = `${namespace}|${options.strict ? 1 : 0}|${options.bitcoinNetwork ?? ''}|${options.ss58Prefix ?? ''}|${address}`
  const cached = cache.get(key)
  if (cached !== undefined) return cached
  const valid =
    namespace === 'eip155'
      ? isEvmAddress(address, options)
      : namespace === 'solana'
        ? isSolanaAddress(address)
        : namespace === 'bip122'
          ? isBitcoinAddress(address, options.bitcoinNetwork)
          : isPolkadotAddress(address, { prefix: options.ss58Prefix })
  cache.set(key, valid)
  return valid
}

/** How many answers the validity cache holds (for tests of its bound). */
export const addressCacheSize = () => cache.size

/** The BIP-122 chain ids of Bitcoin mainnet and testnet (first 32 hex digits of the genesis hash). */
export const BITCOIN_MAINNET_REFERENCE = '000000000019d6689c085ae165831e93'
export const BITCOIN_TESTNET_REFERENCE = '000000000933ea01ad0ee984209779ba'

/** A CAIP-10 account id whose address is valid for its namespace (and, for bip122, its network). */
export function isValidCaipAddress(value: string): boolean {
  const parsed = parseCaipAddress(value)
  if (!parsed) return false
  // A bip122 reference that is none of the four known networks is taken as a local (regtest) chain.
  const bitcoinNetwork: BitcoinNetwork | undefined = parsed.namespace !== 'bip122' ? undefined : (getBitcoinNetwork(`bip122:${parsed.reference}`) ?? 'regtest')
  return isAddress(parsed.namespace, parsed.address, { bitcoinNetwork })
}
