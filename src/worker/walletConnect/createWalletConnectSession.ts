import { numberToHex, type Address } from 'viem'
import type SignClient from '@walletconnect/sign-client'
import { createWidgetError } from '../../shared/protocol/errors'
import { parseAccounts, parseChainId, toWalletError } from '../../shared/protocol/eip1193'
import type { Pairing, WalletConnectWorkerConfig } from '../../shared/protocol/walletConnectApi'

/** What a session tells its watcher. */
export type SessionEvents = {
  onAccountsChanged?: (accounts: Address[]) => void
  onChainChanged?: (chainId: number) => void
  onDisconnect?: () => void
}

type Client = Awaited<ReturnType<typeof SignClient.init>>
type Session = ReturnType<Client['session']['getAll']>[number]

/** What a dApp asks a wallet for in the session proposal (all optional: the wallet approves what it supports). */
const methods = ['eth_sendTransaction', 'personal_sign', 'eth_signTypedData_v4', 'wallet_switchEthereumChain', 'wallet_addEthereumChain', 'wallet_getCapabilities', 'wallet_sendCalls', 'wallet_getCallsStatus']
const events = ['accountsChanged', 'chainChanged']

export type WalletConnectSessionParameters = WalletConnectWorkerConfig & {
  /** Loads the sign client (134 KiB gzipped), on first use only. */
  loadSignClient?: () => Promise<typeof SignClient>
  /** Where the client keeps keys and sessions; IndexedDB in browsers by default. */
  storage?: NonNullable<Parameters<typeof SignClient.init>[0]>['storage']
}

export type { Pairing } from '../../shared/protocol/walletConnectApi'

const sessionAccounts = (session: Session, chainId?: number): Address[] => {
  const entries = (session.namespaces.eip155?.accounts ?? []).map((account) => account.split(':') as [string, string, string])
  const onChain = entries.filter(([, id]) => chainId === undefined || Number(id) === chainId)
  return parseAccounts([...new Set((onChain.length ? onChain : entries).map(([, , address]) => address))])
}
const sessionChainIds = (session: Session): number[] => [
  ...new Set([...(session.namespaces.eip155?.chains ?? []), ...(session.namespaces.eip155?.accounts ?? []).map((a) => a.split(':').slice(0, 2).join(':'))].map((c) => Number(c.split(':')[1]))),
]

/**
 * A WalletConnect session through our own relay, run in its own worker (see createWalletConnectConnector for why).
 * The sign client loads on first use (showing a QR code, or reconnecting a stored session); everything it would send
 * elsewhere is switched off: telemetry (`telemetryEnabled: false`) and the Verify attestation (`core.verify`, which
 * has no switch).
 */
export function createWalletConnectSession({ projectId, relayUrl, metadata, chainIds, relayTimeoutMs = 10_000, storagePrefix = 'tessera', storage, loadSignClient = () => import('@walletconnect/sign-client').then((m) => m.SignClient) }: WalletConnectSessionParameters) {
  let clientPromise: Promise<Client> | undefined
  let session: Session | undefined
  let chainId: number | undefined
  const watchers = new Set<SessionEvents>()
  const emit = <K extends keyof SessionEvents>(name: K, ...args: Parameters<NonNullable<SessionEvents[K]>>) => {
    for (const watcher of watchers) (watcher[name] as ((...a: typeof args) => void) | undefined)?.(...args)
  }

  const getClient = () =>
    (clientPromise ??= (async () => {
      const SignClientClass = await loadSignClient()
      const client = await SignClientClass.init({ projectId, relayUrl, metadata, telemetryEnabled: false, logger: 'silent', customStoragePrefix: storagePrefix, storage })
      client.core.verify.register = async () => ''
      client.core.verify.resolve = async () => undefined as never
      const isOurs = (topic: string) => session?.topic === topic
      const end = ({ topic }: { topic: string }) => {
        if (!isOurs(topic)) return
        session = undefined
        emit('onDisconnect')
      }
      client.on('session_delete', end)
      client.on('session_expire', end)
      client.on('session_update', ({ topic }) => {
        if (!isOurs(topic)) return
        session = client.session.get(topic)
        emit('onAccountsChanged', sessionAccounts(session, chainId))
      })
      client.on('session_event', ({ topic, params }) => {
        if (!isOurs(topic)) return
        try {
          if (params.event.name === 'accountsChanged') {
            const accounts = parseAccounts((params.event.data as unknown[]).map((a) => String(a).split(':').at(-1)))
            emit('onAccountsChanged', accounts)
          } else if (params.event.name === 'chainChanged') {
            chainId = parseChainId(params.event.data)
            emit('onChainChanged', chainId)
          }
        } catch {
          // a malformed event is ignored; the session's namespaces stay the truth
        }
      })
      return client
    })().catch((error: unknown) => {
      clientPromise = undefined
      throw createWidgetError('WALLETCONNECT_UNAVAILABLE', { details: `${relayUrl}: ${(error as Error)?.message ?? String(error)}`, cause: error })
    }))

  /** Takes the session; `preferred` (the widget's active chain) is acted on when the wallet approved it. */
  const adoptSession = (next: Session, preferred?: number) => {
    session = next
    const approved = sessionChainIds(next)
    chainId = preferred !== undefined && approved.includes(preferred) ? preferred : approved[0]
    if (chainId === undefined) throw createWidgetError('WALLET_BAD_RESPONSE', { details: 'The wallet approved no eip155 account' })
    return { accounts: sessionAccounts(next, chainId), chainId }
  }
  const requireSession = () => {
    if (!session || chainId === undefined) throw createWidgetError('DISCONNECTED')
    return { session, chainId }
  }

  const forward = async <T,>(method: string, params: unknown): Promise<T> => {
    const current = requireSession()
    const client = await getClient()
    try {
      return await client.request<T>({ topic: current.session.topic, chainId: `eip155:${current.chainId}`, request: { method, params } })
    } catch (error) {
      throw toWalletError(error)
    }
  }

  const request = async <T = unknown,>({ method, params }: { method: string; params?: unknown }): Promise<T> => {
    const current = requireSession()
    if (method === 'eth_accounts' || method === 'eth_requestAccounts') return sessionAccounts(current.session, current.chainId) as T
    if (method === 'eth_chainId') return numberToHex(current.chainId) as T
    if (method === 'wallet_switchEthereumChain') {
      const target = parseChainId((params as [{ chainId?: unknown }] | undefined)?.[0]?.chainId)
      // A chain the wallet approved for the session needs no round trip; another one is the wallet's to decide.
      if (!sessionChainIds(current.session).includes(target)) await forward(method, params)
      chainId = target
      emit('onChainChanged', target)
      return null as T
    }
    return forward<T>(method, params)
  }

  return {
    request,
    getAccounts: async () => sessionAccounts(requireSession().session, chainId),
    getChainId: async () => requireSession().chainId,
    /** Whether a stored session is still alive (loads the client only when asked, for a reconnect). */
    async isAuthorized(preferredChainId?: number) {
      const client = await getClient()
      const stored = client.session.getAll().filter((s) => s.namespaces.eip155 && s.expiry * 1_000 > Date.now())
      const latest = stored.at(-1)
      if (!latest) return false
      adoptSession(latest, preferredChainId)
      return true
    },
    /** Proposes a session: the URI goes into the QR code or a deep link, the approval settles when the wallet answers. */
    async pair(preferredChainId?: number): Promise<Pairing> {
      const client = await getClient()
      // With the relay down the client retries quietly; the visitor is told after relayTimeoutMs.
      let timer: ReturnType<typeof setTimeout> | undefined
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer in ${relayTimeoutMs} ms`)), relayTimeoutMs)
      })
      const { uri, approval } = await Promise.race([client.connect({ optionalNamespaces: { eip155: { chains: chainIds.map((id) => `eip155:${id}`), methods, events } } }), timeout])
        .catch((error: unknown) => {
          throw createWidgetError('WALLETCONNECT_UNAVAILABLE', { details: `${relayUrl}: ${(error as Error)?.message ?? String(error)}`, cause: error })
        })
        .finally(() => clearTimeout(timer))
      if (!uri) throw createWidgetError('WALLETCONNECT_UNAVAILABLE', { details: 'The sign client made no pairing URI' })
      return {
        uri,
        approval: approval().then((next) => adoptSession(next, preferredChainId), (error: unknown) => {
          throw toWalletError(error)
        }),
      }
    },
    async disconnect() {
      const current = session
      session = undefined
      if (!current) return
      const client = await getClient()
      // The wallet is told when the relay answers; the widget does not wait longer than relayTimeoutMs for it.
      const told = client.disconnect({ topic: current.topic, reason: { code: 6000, message: 'User disconnected.' } }).catch(() => {})
      await Promise.race([told, new Promise((resolve) => setTimeout(resolve, relayTimeoutMs))])
    },
    watch(handlers: SessionEvents) {
      watchers.add(handlers)
      return () => void watchers.delete(handlers)
    },
    /** The session's peer, for the account view. */
    getPeer: () => session?.peer.metadata,
  }
}

export type WalletConnectSession = ReturnType<typeof createWalletConnectSession>
