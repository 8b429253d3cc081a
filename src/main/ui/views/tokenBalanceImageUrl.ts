import type { TokenBalance } from '../../../shared/protocol/schemas/entities'
import { isNativeToken } from '../../families/sendForm'
import { networkImageUrl } from './NetworkIcon'
import { tokenImageUrl, type AssetSource } from './TokenIcon'

/**
 * A listed token's image: its own icon, else the network's for its native currency, else the data service's for the
 * token (TokenIcon draws a badge when none is found).
 * @example tokenBalanceImageUrl(widget, network, balance)
 */
export function tokenBalanceImageUrl(source: AssetSource, network: Parameters<typeof networkImageUrl>[1], balance: TokenBalance): string | undefined {
  return (
    balance.iconUrl ||
    (isNativeToken(balance) ? networkImageUrl(source, network) : undefined) ||
    tokenImageUrl(source, { caipNetworkId: balance.chainId, symbol: balance.symbol, address: balance.address })
  )
}
