import type { Connector, ConnectorEvents } from './eip1193'

/**
 * A connector whose code loads on first use: its description is here at once (for the wallet list), every call
 * waits for `load`.
 */
export function createLazyConnector(description: Pick<Connector, 'id' | 'name' | 'type' | 'chain' | 'imageUrl' | 'info'>, load: () => Promise<Connector>): Connector {
  return {
    ...description,
    request: async (args) => (await load()).request(args),
    getAccounts: async () => (await load()).getAccounts(),
    getChainId: async () => (await load()).getChainId(),
    isAuthorized: async () => (await load()).isAuthorized(),
    disconnect: async () => (await load()).disconnect(),
    switchChain: async (network) => (await load()).switchChain(network),
    refusesMethod: async (method) => (await (await load()).refusesMethod?.(method)) === true,
    watch(handlers: ConnectorEvents) {
      let stop: (() => void) | undefined
      let isStopped = false
      void load().then((connector) => {
        if (!isStopped) stop = connector.watch(handlers)
      })
      return () => {
        isStopped = true
        stop?.()
      }
    },
  }
}
