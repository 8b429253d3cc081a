import type { TokenBalance } from '../../../shared/protocol/schemas/entities'
import { isNativeToken } from '../../families/sendForm'
import { networkImageUrl } from './NetworkIcon'
import { tokenImageUrl, type AssetSource } from './TokenIcon'

type Network = Parameters<typeof networkImageUrl>[1] & { caipNetworkId: string }

/**
 * A token's image wherever the widget shows one (Tokens, Send, Swap, Activity, the review): its own icon, else the
 * network's for its currency, else the data service's for the token by its contract (TokenIcon draws a badge when none
 * is found).
 * @example assetImageUrlOn(widget, network, { symbol: 'TUSD', address: '0x5FbD…', isNative: false })
 */
export function assetImageUrlOn(
  source: AssetSource,
  network: Network,
  { symbol, address, iconUrl, isNative, caipNetworkId = network.caipNetworkId }: { symbol: string; address?: string | undefined; iconUrl?: string | undefined; isNative: boolean; caipNetworkId?: string },
): string | undefined {
  return iconUrl || (isNative ? networkImageUrl(source, network) : undefined) || tokenImageUrl(source, { caipNetworkId, symbol, address })
}

/**
 * A listed token's image, as `assetImageUrlOn` finds it.
 * @example tokenBalanceImageUrl(widget, network, balance)
 */
export const tokenBalanceImageUrl = (source: AssetSource, network: Network, balance: TokenBalance): string | undefined =>
  assetImageUrlOn(source, network, { symbol: balance.symbol, address: balance.address, iconUrl: balance.iconUrl, isNative: isNativeToken(balance), caipNetworkId: balance.chainId })
