import type { Address, EIP1193Provider } from 'viem'
import { createGate } from './createGate'

/** EIP-6963 provider info (https://eips.ethereum.org/EIPS/eip-6963). */
export type ProviderInfo = { uuid: string; name: string; icon: string; rdns: string }

export type DevWalletChain = { chainId: number; name: string; rpcUrl: string }

export type DevWalletParameters = {
  chains: readonly DevWalletChain[]
  /** The accounts it offers; anvil's unlocked dev accounts sign for them. */
  accounts: readonly Address[]
  info?: ProviderInfo
  fetch?: typeof fetch
  /** Where it remembers the sites it is connected to and its chain, as an extension would across reloads. */
  storage?: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>
}

type Listener = (...args: unknown[]) => void

/** An EIP-1193 error, as wallets throw them. */
export class ProviderRpcError extends Error {
  constructor(readonly code: number, message: string, readonly data?: unknown) {
    super(message)
    this.name = 'ProviderRpcError'
  }
}

const devWalletIcon =
  "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 32 32'%3E%3Crect width='32' height='32' rx='8' fill='%23345'/%3E%3Cpath d='M8 11h16v10H8z' fill='%23fc6'/%3E%3C/svg%3E"

export const devWalletInfo: ProviderInfo = {
  uuid: '6d0c2a4e-6b8a-4c55-9b3e-2f4f3f0b7a11',
  name: 'Tessera Dev Wallet',
  icon: devWalletIcon,
  rdns: 'dev.tessera.wallet',
}

/** Methods that need the user's say-so in a real wallet; the dev wallet asks `approve` for them. */
const approvalMethods = new Set(['eth_requestAccounts', 'personal_sign', 'eth_sign', 'eth_signTypedData_v4', 'eth_signTypedData', 'eth_sendTransaction', 'eth_signTransaction', 'wallet_switchEthereumChain', 'wallet_addEthereumChain'])

/** anvil, which signs for the dev wallet, has no legacy typed data (eth_signTypedData_v1): the wallet says so, as a wallet without a method does. */
const legacyTypedDataUnsupported = () => new ProviderRpcError(4200, 'Tessera Dev Wallet does not sign legacy typed data (eth_signTypedData_v1).')

/**
 * A development wallet: an EIP-1193 provider that forwards to anvil, where the unlocked dev accounts sign.
 * Not part of the published bundle: the demo and the tests use it in place of a browser extension.
 * @example const wallet = createDevWallet({ chains, accounts }); announceProvider(window, wallet)
 */
export function createDevWallet({ chains: initialChains, accounts, info = devWalletInfo, fetch = globalThis.fetch, storage }: DevWalletParameters) {
  const chains = new Map(initialChains.map((c) => [c.chainId, c]))
  const first = initialChains[0]
  if (!first) throw new Error('createDevWallet needs at least one chain')
  const remembered = (() => {
    try {
      return JSON.parse(storage?.getItem('tessera-dev-wallet') ?? 'null') as { chainId?: number; connected?: Address[] } | null
    } catch {
      return null
    }
  })()
  let chainId = remembered?.chainId && chains.has(remembered.chainId) ? remembered.chainId : first.chainId
  let connected: Address[] = (remembered?.connected ?? []).filter((a) => accounts.includes(a))
  const remember = () => storage?.setItem('tessera-dev-wallet', JSON.stringify({ chainId, connected }))
  let nextId = 0
  const listeners = new Map<string, Set<Listener>>()
  const rejections: string[] = []
  const gate = createGate()

  const emit = (event: string, ...args: unknown[]) => {
    remember()
    listeners.get(event)?.forEach((listener) => listener(...args))
  }
  const hexChainId = () => `0x${chainId.toString(16)}`

  async function forward(method: string, params: unknown) {
    const chain = chains.get(chainId)!
    const response = await fetch(chain.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++nextId, method, params: params ?? [] }),
    })
    const body = (await response.json()) as { result?: unknown; error?: { code: number; message: string; data?: unknown } }
    if (body.error) throw new ProviderRpcError(body.error.code, body.error.message, body.error.data)
    return body.result
  }

  const requireAccount = (address: unknown) => {
    if (!connected.length) throw new ProviderRpcError(4100, 'The requested account has not been authorized by the user.')
    if (typeof address === 'string' && !connected.some((a) => a.toLowerCase() === address.toLowerCase())) {
      throw new ProviderRpcError(4100, `The requested account ${address} has not been authorized by the user.`)
    }
  }

  const provider = {
    async request({ method, params }: { method: string; params?: unknown }): Promise<unknown> {
      if (approvalMethods.has(method)) {
        await gate.wait()
        const index = rejections.indexOf(method)
        const anyIndex = rejections.indexOf('*')
        if (index >= 0 || anyIndex >= 0) {
          rejections.splice(index >= 0 ? index : anyIndex, 1)
          throw new ProviderRpcError(4001, 'User rejected the request.')
        }
      }
      const list = (Array.isArray(params) ? params : []) as unknown[]
      switch (method) {
        case 'eth_requestAccounts':
          if (!connected.length) {
            connected = [...accounts]
            emit('connect', { chainId: hexChainId() })
            emit('accountsChanged', connected)
          }
          return connected
        case 'eth_accounts':
          return connected
        case 'eth_chainId':
          return hexChainId()
        case 'net_version':
          return String(chainId)
        case 'wallet_switchEthereumChain': {
          const target = Number((list[0] as { chainId?: string } | undefined)?.chainId)
          if (!chains.has(target)) throw new ProviderRpcError(4902, `Unrecognized chain ID "${(list[0] as { chainId?: string })?.chainId}". Try adding the chain using wallet_addEthereumChain first.`)
          if (target !== chainId) {
            chainId = target
            emit('chainChanged', hexChainId())
          }
          return null
        }
        case 'wallet_addEthereumChain': {
          const chain = list[0] as { chainId?: string; chainName?: string; rpcUrls?: string[] } | undefined
          const id = Number(chain?.chainId)
          const rpcUrl = chain?.rpcUrls?.[0]
          if (!Number.isInteger(id) || id <= 0 || !rpcUrl) throw new ProviderRpcError(-32602, 'wallet_addEthereumChain needs a chainId and an rpcUrl')
          chains.set(id, { chainId: id, name: chain?.chainName ?? `Chain ${id}`, rpcUrl })
          return null
        }
        case 'wallet_revokePermissions':
          connected = []
          emit('accountsChanged', [])
          return null
        case 'personal_sign':
          requireAccount(list[1])
          return forward(method, list)
        case 'eth_sign':
        case 'eth_signTypedData_v4':
          requireAccount(list[0])
          return forward(method, list)
        case 'eth_signTypedData':
          // EIP-712's [address, typedData] is signed as v4; MetaMask's legacy [fields, address] is v1's.
          if (Array.isArray(list[0])) throw legacyTypedDataUnsupported()
          requireAccount(list[0])
          return forward('eth_signTypedData_v4', list)
        case 'eth_signTypedData_v1':
          throw legacyTypedDataUnsupported()
        case 'wallet_grantPermissions':
        case 'wallet_requestExecutionPermissions':
          throw new ProviderRpcError(4200, 'Tessera Dev Wallet does not grant ERC-7715 permissions: it has no smart account to enforce them.')
        case 'eth_sendTransaction':
        case 'eth_signTransaction':
          requireAccount((list[0] as { from?: string } | undefined)?.from)
          return forward(method, list)
        default:
          return forward(method, params)
      }
    },
    on(event: string, listener: Listener) {
      if (!listeners.has(event)) listeners.set(event, new Set())
      listeners.get(event)!.add(listener)
      return provider
    },
    removeListener(event: string, listener: Listener) {
      listeners.get(event)?.delete(listener)
      return provider
    },
  }

  return {
    info,
    provider: provider as unknown as EIP1193Provider,
    /** Test control: the next request of `method` ('*' for any needing approval) is rejected with code 4001. */
    rejectNext(method = '*') {
      rejections.push(method)
    },
    /** Test control: requests needing approval wait until the returned function is called, as a user reading the prompt. */
    hold: gate.hold,
    /** Test control: the wallet switches account, as a user would in the extension. */
    switchAccount(address: Address) {
      connected = [address, ...accounts.filter((a) => a !== address)]
      emit('accountsChanged', connected)
    },
    /** Test control: the wallet disconnects, as a user would in the extension. */
    disconnect() {
      connected = []
      emit('accountsChanged', [])
      emit('disconnect', new ProviderRpcError(4900, 'The provider is disconnected from all chains.'))
    },
  }
}

export type DevWallet = ReturnType<typeof createDevWallet>

/** Announces the provider by EIP-6963, now and whenever a dApp asks. Returns the function that stops answering. */
export function announceProvider(target: Window, { info, provider }: Pick<DevWallet, 'info' | 'provider'>) {
  const announce = () =>
    target.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail: Object.freeze({ info, provider }) }))
  announce()
  target.addEventListener('eip6963:requestProvider', announce)
  return () => target.removeEventListener('eip6963:requestProvider', announce)
}
