/** The chain namespaces Tessera knows (SPEC §1). */
export const namespaces = ['eip155', 'solana', 'polkadot', 'bip122'] as const
export type ChainNamespace = (typeof namespaces)[number]

export type CaipNetworkId = `${ChainNamespace}:${string}`
export type CaipAddress = `${ChainNamespace}:${string}:${string}`

export type ParsedCaipNetworkId = { namespace: ChainNamespace; reference: string }
export type ParsedCaipAddress = ParsedCaipNetworkId & { address: string }

export const isChainNamespace = (value: unknown): value is ChainNamespace => namespaces.includes(value as ChainNamespace)

// CAIP-2: namespace [-a-z0-9]{3,8}, reference [-_a-zA-Z0-9]{1,32}; CAIP-10: account address [-.%a-zA-Z0-9]{1,128}.
const referencePattern = /^[-_a-zA-Z0-9]{1,32}$/
const accountPattern = /^[-.%a-zA-Z0-9]{1,128}$/

/** Parses a CAIP-2 network id: two non-empty parts, a known namespace. Undefined when invalid. */
export function parseCaipNetworkId(value: string): ParsedCaipNetworkId | undefined {
  const parts = value.split(':')
  if (parts.length !== 2) return undefined
  const [namespace, reference] = parts as [string, string]
  if (!isChainNamespace(namespace) || !referencePattern.test(reference)) return undefined
  return { namespace, reference }
}

/** Parses a CAIP-10 account id: three non-empty parts, a known namespace (SPEC §5). Undefined when invalid. */
export function parseCaipAddress(value: string): ParsedCaipAddress | undefined {
  const parts = value.split(':')
  if (parts.length !== 3) return undefined
  const [namespace, reference, address] = parts as [string, string, string]
  if (!isChainNamespace(namespace) || !referencePattern.test(reference) || !accountPattern.test(address)) return undefined
  return { namespace, reference, address }
}

export const isCaipNetworkId = (value: unknown): value is CaipNetworkId => typeof value === 'string' && parseCaipNetworkId(value) !== undefined
export const isCaipAddress = (value: unknown): value is CaipAddress => typeof value === 'string' && parseCaipAddress(value) !== undefined

/** 'eip155' + '1' → 'eip155:1'. Throws on an unknown namespace or an empty reference. */
export function formatCaipNetworkId(namespace: ChainNamespace, reference: string | number): CaipNetworkId {
  const id = `${namespace}:${reference}`
  if (!parseCaipNetworkId(id)) throw new Error(`Invalid CAIP-2 network id: ${id}`)
  return id as CaipNetworkId
}

/** 'eip155:1' + '0xab…' → 'eip155:1:0xab…'. Throws when the result is not a valid CAIP-10 id. */
export function formatCaipAddress(caipNetworkId: string, address: string): CaipAddress {
  const id = `${caipNetworkId}:${address}`
  if (!parseCaipAddress(id)) throw new Error(`Invalid CAIP-10 account id: ${id}`)
  return id as CaipAddress
}
