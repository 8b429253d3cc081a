import { useWidget } from '../../react/WidgetProvider'
import { assetImageUrl, TokenIcon, type AssetSource } from './TokenIcon'

type IconNetwork = { caipNetworkId: string; name: string; assets?: { imageUrl?: string | undefined } | undefined }

/**
 * Where a network's icon comes from (SPEC §3 assets): the site's `assets.imageUrl`, else the data service's icon when
 * the site has one, else undefined (the caller draws a badge).
 * @example networkImageUrl(widget, network) // …/v1/assets/networks/eip155:1?projectId=…
 */
export function networkImageUrl(source: AssetSource, network: IconNetwork): string | undefined {
  return network.assets?.imageUrl || assetImageUrl(source, `v1/assets/networks/${network.caipNetworkId}`)
}

/** A network's icon; without one, or when it fails to load, a badge of its initials on a colour drawn from its name. */
export function NetworkIcon({ network, size = 24 }: { network: IconNetwork; size?: number }) {
  const widget = useWidget()
  return <TokenIcon symbol={network.name} imageUrl={networkImageUrl(widget, network)} size={size} />
}
