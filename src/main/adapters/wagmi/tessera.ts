import { ChainNotConfiguredError, createConnector } from '@wagmi/core'
import { getAddress, ResourceUnavailableRpcError, SwitchChainError, UnauthorizedProviderError, UserRejectedRequestError, type Address, type ProviderConnectInfo } from 'viem'
import { createEip1193Provider, type Eip1193Provider } from '../../widget/createEip1193Provider'
import type { Widget } from '../../widget/createWidget'
import { toWidgetRef, type WidgetRef } from './widgetRef'

export type TesseraParameters = Widget | WidgetRef

/** Narrowed on the EIP-1193 code (a wallet's numeric `code`, or a widget error's `rpcCode`), never on message text. */
const rpcCodeOf = (error: unknown): number | undefined => {
  const e = error as { code?: unknown; rpcCode?: unknown } | null
  return typeof e?.code === 'number' ? e.code : typeof e?.rpcCode === 'number' ? e.rpcCode : undefined
}

/** The error wagmi expects from a connector: viem's class for a rejection or a busy prompt, the error itself otherwise. */
const toConnectorError = (error: unknown): unknown => {
  const code = rpcCodeOf(error)
  if (code === UserRejectedRequestError.code) return new UserRejectedRequestError(error as Error)
  if (code === ResourceUnavailableRpcError.code) return new ResourceUnavailableRpcError(error as Error)
  return error
}

const toHex = (chainId: number) => `0x${chainId.toString(16)}`

tessera.type = 'tessera' as const

/**
 * A wagmi connector for the wallet the visitor connects in Tessera's modal: wagmi's `connect` opens the modal (unless
 * Tessera is connected already), a connection made in the modal alone reaches wagmi, and accounts, chain and
 * disconnects follow Tessera's EVM connection both ways. Takes the widget, or a reference the widget is attached to
 * later (`createWagmiAdapter` does that for you).
 * @example const config = createConfig({ chains: [mainnet], connectors: [tessera(widget)], transports: { [mainnet.id]: tesseraTransport(widget) } })
 */
export function tessera(widget: TesseraParameters) {
  const widgetRef = toWidgetRef(widget)

  return createConnector<Eip1193Provider>((config) => {
    // One provider per attached widget, its events wired to this connector.
    let bound: { widget: Widget; provider: Eip1193Provider } | undefined
    const providerOf = (current: Widget): Eip1193Provider => {
      if (bound?.widget === current) return bound.provider
      bound?.provider.destroy()
      const provider = createEip1193Provider(current)
      provider
        .on('connect', (info: ProviderConnectInfo) => void connector.onConnect(info))
        .on('accountsChanged', (accounts: string[]) => void connector.onAccountsChanged(accounts))
        .on('chainChanged', (chainId: string) => connector.onChainChanged(chainId))
        .on('disconnect', () => connector.onDisconnect())
      bound = { widget: current, provider }
      return provider
    }
    const currentWidget = async () => widgetRef.current ?? (await widgetRef.attached)
    const provider = async () => providerOf(await currentWidget())

    const getAccounts = async () => ((await (await provider()).request({ method: 'eth_accounts' })) as string[]).map((a) => getAddress(a))
    const getChainId = async () => Number(await (await provider()).request({ method: 'eth_chainId' }))

    const switchChain = async ({ chainId }: { chainId: number }) => {
      const chain = config.chains.find((c) => c.id === chainId)
      if (!chain) throw new SwitchChainError(new ChainNotConfiguredError())
      try {
        await (await currentWidget()).switchNetwork(`eip155:${chainId}`)
      } catch (error) {
        if (rpcCodeOf(error) === UserRejectedRequestError.code) throw new UserRejectedRequestError(error as Error)
        throw new SwitchChainError(error as Error)
      }
      config.emitter.emit('change', { chainId })
      return chain
    }

    const connector = {
      id: 'tessera',
      name: 'Tessera',
      type: tessera.type,
      async setup() {
        // Listening from the start: a connection made in Tessera's modal alone reaches wagmi through onConnect.
        await provider()
        // A new widget (a remount) takes over. Its provider's events bring its connection to wagmi; a widget that has
        // none once its start-up reconnect settles sends no event, so wagmi is told here. (A wagmi connector has no
        // teardown: this lasts as long as the config.)
        widgetRef.subscribe((next) => {
          providerOf(next)
          void next
            .reconnect()
            .then(getAccounts)
            .then((accounts) => {
              if (accounts.length === 0) connector.onDisconnect()
            })
            .catch(() => {})
        })
      },
      async connect<withCapabilities extends boolean = false>({ chainId, isReconnecting, withCapabilities }: { chainId?: number; isReconnecting?: boolean; withCapabilities?: withCapabilities | boolean } = {}) {
        let accounts: readonly Address[]
        try {
          if (isReconnecting) {
            accounts = await getAccounts()
            if (accounts.length === 0) throw new UnauthorizedProviderError(new Error('Tessera has no EVM connection to restore.'))
          } else {
            // Answers at once when Tessera is connected; otherwise opens the modal on Connect until the visitor connects or closes it.
            accounts = ((await (await provider()).request({ method: 'eth_requestAccounts' })) as string[]).map((a) => getAddress(a))
          }
        } catch (error) {
          throw toConnectorError(error)
        }
        let currentChainId = await getChainId()
        if (chainId !== undefined && chainId !== currentChainId) {
          // As wagmi's own connectors do: a refused switch fails the connection, any other failure keeps the wallet's chain.
          const chain = await switchChain({ chainId }).catch((error: unknown) => {
            if (rpcCodeOf(error) === UserRejectedRequestError.code) throw error
            return { id: currentChainId }
          })
          currentChainId = chain.id
        }
        // wagmi 2 asks for addresses; `withCapabilities` (wagmi 2.16+, 3) asks for `{ address, capabilities }`.
        return {
          accounts: (withCapabilities ? accounts.map((address) => ({ address, capabilities: {} })) : accounts) as never,
          chainId: currentChainId,
        }
      },
      async disconnect() {
        await (await currentWidget()).disconnect('eip155')
      },
      getAccounts,
      getChainId,
      getProvider: provider,
      /** Connected, or reconnecting a stored connection that succeeds: waits for the widget's start-up reconnect to settle. */
      async isAuthorized() {
        try {
          await (await currentWidget()).reconnect()
          return (await getAccounts()).length > 0
        } catch {
          return false
        }
      },
      switchChain,
      onAccountsChanged(accounts: string[]) {
        if (accounts.length === 0) return connector.onDisconnect()
        // wagmi listens for 'connect' only while it is disconnected from this connector (as its injected connector does).
        if (config.emitter.listenerCount('connect') > 0) return void getChainId().then((chainId) => connector.onConnect({ chainId: toHex(chainId) }))
        config.emitter.emit('change', { accounts: accounts.map((a) => getAddress(a)) })
      },
      onChainChanged(chainId: string) {
        config.emitter.emit('change', { chainId: Number(chainId) })
      },
      async onConnect({ chainId }: ProviderConnectInfo) {
        const accounts = await getAccounts()
        if (accounts.length === 0) return
        config.emitter.emit('connect', { accounts, chainId: Number(chainId) })
      },
      onDisconnect() {
        config.emitter.emit('disconnect')
      },
    }
    return connector
  })
}
