import type { WidgetAdapter } from '../../widget/createWidget'

/**
 * The ethers 5 adapter for `createWidget`: it names ethers5 in the SDK version string. The providers and signers come
 * from `getWeb3Provider`, `getSigner` and `getReadProvider`, which need only the widget.
 * @example const widget = createWidget({ projectId, networks, adapters: [ethers5Adapter()] })
 */
export function ethers5Adapter(): WidgetAdapter {
  return { type: 'ethers5' }
}
