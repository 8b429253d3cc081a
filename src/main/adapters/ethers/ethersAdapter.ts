import type { WidgetAdapter } from '../../widget/createWidget'

/**
 * The ethers 6 adapter for `createWidget`: it names ethers in the SDK version string. The providers and signers come
 * from `getBrowserProvider`, `getSigner` and `getReadProvider`, which need only the widget.
 * @example const widget = createWidget({ projectId, networks, adapters: [ethersAdapter()] })
 */
export function ethersAdapter(): WidgetAdapter {
  return { type: 'ethers' }
}
