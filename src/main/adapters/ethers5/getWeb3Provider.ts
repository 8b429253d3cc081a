import { providers } from 'ethers5'
import { createEip1193Provider, ProviderRpcError, type Eip1193Provider } from '../../widget/createEip1193Provider'
import type { Widget } from '../../widget/createWidget'

export type GetWeb3ProviderReturnType = providers.Web3Provider

// One provider per widget, so repeated calls share it (and its one subscription to the widget). Keyed by the widget:
// two widgets on a page share nothing.
const providersByWidget = new WeakMap<Widget, providers.Web3Provider>()

/**
 * ethers 5 tells a refusal by its message ("user denied", as MetaMask words it), not by EIP-1193's code 4001: a refusal
 * keeps its code and says so in its message, so that ethers 5 turns it into its ACTION_REJECTED.
 */
function withRefusalsEthers5Knows(provider: Eip1193Provider): providers.ExternalProvider & Eip1193Provider {
  return {
    ...provider,
    request: (args) =>
      provider.request(args).catch((error: unknown) => {
        const { code, message, data } = error as ProviderRpcError
        throw code === 4001 ? new ProviderRpcError(code, `user denied: ${message}`, data) : error
      }),
  }
}

/**
 * A Web3Provider that asks for the chain on every check. Our `eth_chainId` is answered from the widget's state, with no
 * request, so this costs nothing; ethers 5's cache of it (for the rest of the event-loop turn) could answer for the
 * previous chain just after a switch.
 */
class ChainFollowingWeb3Provider extends providers.Web3Provider {
  override async detectNetwork(): Promise<providers.Network> {
    // The base constructor asks before Web3Provider has set up its fetch function: ask from the next microtask on.
    await null
    return providers.getNetwork(Number(await this.send('eth_chainId', [])))
  }
}

/**
 * An ethers 5 `Web3Provider` over the widget's EVM connection: reads go through the worker core, signing and sending to
 * the connected wallet. Its network is `'any'`: it follows the chain the widget switches to (and emits `'network'`).
 * @example
 * const provider = getWeb3Provider(widget)
 * provider.on('network', (network) => console.log(network.chainId))
 * const balance = await provider.getBalance('0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266')
 */
export function getWeb3Provider(widget: Widget): GetWeb3ProviderReturnType {
  let provider = providersByWidget.get(widget)
  if (!provider) providersByWidget.set(widget, (provider = new ChainFollowingWeb3Provider(withRefusalsEthers5Knows(createEip1193Provider(widget)), 'any')))
  return provider
}
