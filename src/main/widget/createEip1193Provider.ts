import { parseCaipNetworkId } from '../../shared/protocol/caip'
import { errorTable, type ErrorCode } from '../../shared/protocol/errorTable'
import { isSafeRpcMethod } from '../../shared/protocol/rpcMethods'
import type { Widget } from './createWidget'
import { isEmbeddedWalletAccount } from '../connectors/auth/authConnectorId'
import { createEip5792 } from './eip5792'
import { ProviderRpcError } from './providerRpcError'

export { ProviderRpcError }

type ProviderEvent = 'accountsChanged' | 'chainChanged' | 'connect' | 'disconnect'
type Listener = (value: never) => void

export type Eip1193Provider = {
  request(args: { method: string; params?: unknown }): Promise<unknown>
  on(event: ProviderEvent, listener: (value: never) => void): Eip1193Provider
  removeListener(event: ProviderEvent, listener: (value: never) => void): Eip1193Provider
  /** Stops following the widget's state (listeners are dropped). */
  destroy(): void
}

/** How long a read of a chain's own RPC (no worker: server rendering, Node) waits. */
const READ_TIMEOUT_MS = 10_000

const toHexChainId = (chainId: number) => `0x${chainId.toString(16)}`

/** The numeric EIP-1193 code of a widget error, or the generic internal error. */
function toProviderError(error: unknown): ProviderRpcError {
  if (error instanceof ProviderRpcError) return error
  const e = error as { code?: unknown; rpcCode?: number; shortMessage?: string; message?: string; data?: unknown }
  if (typeof e?.code === 'number') return new ProviderRpcError(e.code, e.shortMessage ?? e.message ?? 'Internal error', e.data)
  const known = typeof e?.code === 'string' ? (errorTable as Record<string, { message: string; rpcCode?: number }>)[e.code as ErrorCode] : undefined
  return new ProviderRpcError(e?.rpcCode ?? known?.rpcCode ?? -32603, e?.shortMessage ?? known?.message ?? 'Internal error', e)
}

/**
 * An EIP-1193 provider over the widget's EVM connection, for libraries that take one (ethers' BrowserProvider, viem's
 * `custom` transport, a wagmi connector). `eth_requestAccounts` opens the modal on Connect and answers once the visitor
 * connects (4001 when they close it); signing and sending go to the connected wallet (4100 without one); read methods
 * go through the worker core (ranked fallback, batching, caching) when the widget has one.
 * @example const provider = createEip1193Provider(widget); const ethersProvider = new BrowserProvider(provider)
 */
export function createEip1193Provider(widget: Widget, { chainId: readChainId }: { chainId?: number } = {}): Eip1193Provider {
  const evm = () => widget.getState().namespaces.eip155
  const walletChainId = () => Number(parseCaipNetworkId(evm()?.activeCaipNetworkId ?? '')?.reference) || undefined
  const chainId = () => readChainId ?? walletChainId()
  const accounts = () => {
    const state = evm()
    return state?.status === 'connected' && state.address ? [state.address] : []
  }
  const listeners = new Map<ProviderEvent, Set<Listener>>()
  const emit = (event: ProviderEvent, value: unknown) => {
    for (const listener of listeners.get(event) ?? []) (listener as (value: unknown) => void)(value)
  }

  const waitForConnection = () =>
    new Promise<string[]>((resolve, reject) => {
      const stops = [
        widget.subscribe(
          (state) => state.namespaces.eip155?.status,
          (status) => {
            if (status !== 'connected') return
            stopAll()
            resolve(accounts())
          },
        ),
        widget.modal.store.subscribe((modal, previous) => {
          if (modal.open || !previous.open) return
          stopAll()
          reject(new ProviderRpcError(4001, errorTable.USER_REJECTED.message))
        }),
      ]
      const stopAll = () => stops.forEach((stop) => stop())
      widget.open({ view: 'Connect', namespace: 'eip155' })
    })

  const readFromNetwork = async (id: number, method: string, params: unknown) => {
    const url = widget.getNetworks().find((n) => n.caipNetworkId === `eip155:${id}`)?.rpcUrls.default.http[0]
    if (!url) throw new ProviderRpcError(4901, `No RPC URL is configured for chain ${id}.`)
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: params ?? [] }), signal: AbortSignal.timeout(READ_TIMEOUT_MS) })
    const body = (await response.json().catch(() => undefined)) as { result?: unknown; error?: { code: number; message: string; data?: unknown } } | undefined
    if (!body || (body.error === undefined && !('result' in body))) throw new ProviderRpcError(-32603, `Chain ${id} answered ${response.status} without a JSON-RPC result.`)
    if (body.error) throw new ProviderRpcError(body.error.code, body.error.message, body.error.data)
    return body.result
  }

  /** A request to the wallet; a transaction or typed data is reviewed first (see startWidget's walletRequest). */
  const walletRequest = async (method: string, params: unknown, { review = true }: { review?: boolean } = {}) => {
    if (accounts().length === 0) throw new ProviderRpcError(4100, errorTable.UNAUTHORIZED.message)
    return widget.walletRequest({ method, params }, { review })
  }

  /** A read of a chain through the widget: its worker core, else (server rendering, Node) the chain's own RPC. */
  const read = (id: number, method: string, params: readonly unknown[]) => (widget.core ? widget.core.request({ chainId: id, method, params }) : readFromNetwork(id, method, params))

  const eip5792 = createEip5792({
    // A batch is reviewed once, as a batch, even when it goes to the wallet call by call.
    walletRequest: (method, params) => walletRequest(method, params, { review: false }),
    review: (method, params, send) => widget.reviewRequest({ method, params }, send),
    read,
    chainIds: () => widget.getNetworks().flatMap((n) => (n.chainNamespace === 'eip155' ? [n.id] : [])),
    chainId: walletChainId,
    account: () => accounts()[0],
    walletId: () => {
      const state = evm()
      return state?.status === 'connected' && state.connectorId ? `${state.connectorId}:${state.connectedWalletInfo?.name ?? ''}` : undefined
    },
    isEmbeddedWallet: () => isEmbeddedWalletAccount(widget.getState()),
  })

  const request = async ({ method, params }: { method: string; params?: unknown }): Promise<unknown> => {
    // The EVM family's state (account, chain) is there once the widget has started.
    await widget.whenStarted()
    switch (method) {
      case 'eth_accounts':
        return accounts()
      case 'eth_requestAccounts':
        return accounts().length > 0 ? accounts() : waitForConnection()
      case 'eth_chainId': {
        const id = chainId()
        if (id === undefined) throw new ProviderRpcError(4901, 'No EVM network is configured.')
        return toHexChainId(id)
      }
      case 'net_version':
        return String(chainId() ?? '')
      case 'wallet_switchEthereumChain': {
        const hex = (Array.isArray(params) ? (params[0] as { chainId?: unknown } | undefined)?.chainId : undefined) as unknown
        if (typeof hex !== 'string' || !/^0x[0-9a-fA-F]{1,16}$/.test(hex)) throw new ProviderRpcError(-32602, 'wallet_switchEthereumChain takes [{ chainId }] with a hex chain id.')
        await widget.switchNetwork(`eip155:${Number(hex)}`)
        return null
      }
    }
    // EIP-5792 for every wallet: those without it get the calls one by one (see createEip5792).
    if (eip5792.handles(method)) return eip5792.request(method, params)
    const id = chainId()
    if (id !== undefined && isSafeRpcMethod(method)) {
      if (widget.core) return widget.core.request({ chainId: id, method, params: params as readonly unknown[] | undefined })
      // Without a worker (server rendering, Node), a provider fixed to a chain reads that chain's own RPC, never the
      // wallet, which answers for whatever chain it is on.
      if (readChainId !== undefined) return readFromNetwork(id, method, params)
    }
    return walletRequest(method, params)
  }

  let previous = { accounts: accounts(), chainId: chainId(), connected: accounts().length > 0 }
  const stop = widget.subscribe(
    (state) => state.namespaces.eip155,
    () => {
      const next = { accounts: accounts(), chainId: chainId(), connected: accounts().length > 0 }
      if (next.connected && !previous.connected && next.chainId !== undefined) emit('connect', { chainId: toHexChainId(next.chainId) })
      if (next.accounts.join() !== previous.accounts.join()) emit('accountsChanged', next.accounts)
      // Before the widget started there was no chain to change from.
      if (next.chainId !== previous.chainId && next.chainId !== undefined && previous.chainId !== undefined) emit('chainChanged', toHexChainId(next.chainId))
      if (!next.connected && previous.connected) emit('disconnect', new ProviderRpcError(4900, 'The wallet is disconnected.'))
      previous = next
    },
  )

  const provider: Eip1193Provider = {
    request: (args) => request(args).catch((error: unknown) => Promise.reject(toProviderError(error))),
    on(event, listener) {
      if (!listeners.has(event)) listeners.set(event, new Set())
      listeners.get(event)!.add(listener as Listener)
      return provider
    },
    removeListener(event, listener) {
      listeners.get(event)?.delete(listener as Listener)
      return provider
    },
    destroy() {
      stop()
      eip5792.stop()
      listeners.clear()
    },
  }
  return provider
}
