import { parseAbi, type Address } from 'viem'
import type { ContractCall, MulticallResult } from '../../shared/protocol/core/coreApi'

const tokenAbi = parseAbi([
  'function symbol() view returns (string)',
  'function decimals() view returns (uint8)',
  'function supportsInterface(bytes4 interfaceId) view returns (bool)',
])
const ERC721_INTERFACE = '0x80ac58cd'
const ERC1155_INTERFACE = '0xd9b67a26'

/**
 * A symbol shown as the contract gives it: at most 32 characters, no spaces around it, and no control or format
 * characters (bidirectional overrides, zero-width marks), which make a symbol read as another token's. Any other symbol
 * is left out, and the token shows as its address.
 */
const isReadableSymbol = (symbol: string) => symbol.length > 0 && symbol.length <= 32 && symbol === symbol.trim() && !/[\p{Cc}\p{Cf}]/u.test(symbol)

/** What the chain says of a contract a request touches; each part is missing when the contract does not answer it. */
export type TokenInfo = { symbol?: string; decimals?: number; standard?: 'erc721' | 'erc1155' }

/** The worker's batched reads (Eip155Client.multicall). */
export type MulticallClient = { multicall: (contracts: readonly ContractCall[]) => Promise<MulticallResult[]> }

/**
 * Reads symbol, decimals and ERC-721/1155 support of each address in one multicall; an address that is no contract
 * (or a node that cannot answer) leaves its entry empty.
 * @example const tokens = await readTokens(client, [usdc]); tokens.get(usdc)?.symbol // 'USDC'
 */
export async function readTokens(client: MulticallClient, addresses: readonly Address[]): Promise<Map<Address, TokenInfo>> {
  const unique = [...new Set(addresses)]
  const reads = (address: Address): ContractCall[] => [
    { address, abi: tokenAbi, functionName: 'symbol' },
    { address, abi: tokenAbi, functionName: 'decimals' },
    { address, abi: tokenAbi, functionName: 'supportsInterface', args: [ERC721_INTERFACE] },
    { address, abi: tokenAbi, functionName: 'supportsInterface', args: [ERC1155_INTERFACE] },
  ]
  const results = unique.length === 0 ? [] : await client.multicall(unique.flatMap(reads)).catch(() => [])
  const ok = (i: number) => (results[i]?.status === 'success' ? (results[i] as { result: unknown }).result : undefined)
  return new Map(
    unique.map((address, n) => {
      const [symbol, decimals, isErc721, isErc1155] = [0, 1, 2, 3].map((k) => ok(n * 4 + k))
      const info: TokenInfo = {}
      if (typeof symbol === 'string' && isReadableSymbol(symbol)) info.symbol = symbol
      if (typeof decimals === 'number') info.decimals = decimals
      if (isErc721 === true) info.standard = 'erc721'
      else if (isErc1155 === true) info.standard = 'erc1155'
      return [address, info]
    }),
  )
}
