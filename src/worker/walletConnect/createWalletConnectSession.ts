import { base58, base64 } from '@scure/base'
import { numberToHex, type Address } from 'viem'
import type SignClient from '@walletconnect/sign-client'
import { isSolanaAddress } from '../../shared/protocol/addresses/solana'
import { formatCaipNetworkId, parseCaipAddress, parseCaipNetworkId, type CaipNetworkId } from '../../shared/protocol/caip'
import { createWidgetError } from '../../shared/protocol/errors'
import { parseAccounts, parseChainId, toWalletError } from '../../shared/protocol/eip1193'
import type { Pairing, PairingApproval, SolanaSignMessageParameters, SolanaSignTransactionParameters, WalletConnectWorkerConfig } from '../../shared/protocol/walletConnectApi'
import { readWireTransaction, withSignature } from './solanaWireTransaction'

/** What a session tells its watcher. */
export type SessionEvents = {
  onAccountsChanged?: (accounts: Address[]) => void
  onChainChanged?: (chainId: number) => void
  /** The session's Solana accounts changed (by a session update from the wallet); empty when Solana left the session. */
  onSolanaAccountsChanged?: (accounts: string[]) => void
  onDisconnect?: () => void
}

type Client = Awaited<ReturnType<typeof SignClient.init>>
type Session = ReturnType<Client['session']['getAll']>[number]

/** What a dApp asks a wallet for in the session proposal (all optional: the wallet approves what it supports). */
const methods = ['eth_sendTransaction', 'personal_sign', 'eth_signTypedData_v4', 'wallet_switchEthereumChain', 'wallet_addEthereumChain', 'wallet_getCapabilities', 'wallet_sendCalls', 'wallet_getCallsStatus']
const events = ['accountsChanged', 'chainChanged']
/**
 * Solana's, as WalletConnect's Solana RPC reference lists them (docs.reown.com/advanced/multichain/rpc-reference/solana-rpc):
 * solana_signMessage `{ message: base58, pubkey }` → `{ signature: base58 }`; solana_signTransaction
 * `{ transaction: base64 wire }` → `{ signature: base58, transaction?: base64 wire }`; solana_signAndSendTransaction
 * `{ transaction, sendOptions? }` → `{ signature }` (proposed for what the wallet offers; the widget signs and sends
 * itself). No events: the solana namespace changes by session updates.
 */
const solanaMethods = ['solana_signMessage', 'solana_signTransaction', 'solana_signAndSendTransaction']

export type WalletConnectSessionParameters = WalletConnectWorkerConfig & {
  /** Loads the sign client (134 KiB gzipped), on first use only. */
  loadSignClient?: () => Promise<typeof SignClient>
  /** Where the client keeps keys and sessions; IndexedDB in browsers by default. */
  storage?: NonNullable<Parameters<typeof SignClient.init>[0]>['storage']
}

export type { Pairing } from '../../shared/protocol/walletConnectApi'

/**
 * A namespace's CAIP-10 accounts in the session, parsed by caip.ts. One that does not parse keeps its text as the
 * address, so the address checks that follow refuse it (WALLET_BAD_RESPONSE) instead of it being dropped unseen.
 */
const caipAccounts = (session: Session, namespace: 'eip155' | 'solana') =>
  (session.namespaces[namespace]?.accounts ?? []).map((account) => parseCaipAddress(account) ?? { namespace: undefined, reference: undefined, address: account })

const sessionAccounts = (session: Session, chainId?: number): Address[] => {
  const entries = caipAccounts(session, 'eip155')
  const onChain = entries.filter((a) => chainId === undefined || Number(a.reference) === chainId)
  return parseAccounts([...new Set((onChain.length ? onChain : entries).map((a) => a.address))])
}
const sessionChainIds = (session: Session): number[] => [
  ...new Set(
    [...(session.namespaces.eip155?.chains ?? []).map((c) => parseCaipNetworkId(c)), ...caipAccounts(session, 'eip155')]
      .filter((c) => c?.namespace === 'eip155')
      .map((c) => Number(c!.reference)),
  ),
]

/** The clusters of the session's `solana` namespace: its chains and those of its accounts. */
const solanaClusters = (session: Session): CaipNetworkId[] => [
  ...new Set(
    [...(session.namespaces.solana?.chains ?? []).map((c) => parseCaipNetworkId(c)), ...caipAccounts(session, 'solana')]
      .filter((c) => c?.namespace === 'solana')
      .map((c) => formatCaipNetworkId('solana', c!.reference!)),
  ),
]

/** The session's Solana accounts (base58) on `cluster`, or on any cluster when it has none there. */
const solanaAccounts = (session: Session, cluster?: string): string[] => {
  const entries = caipAccounts(session, 'solana')
  const onCluster = entries.filter((a) => cluster === undefined || `${a.namespace}:${a.reference}` === cluster)
  const accounts = [...new Set((onCluster.length ? onCluster : entries).map((a) => a.address))]
  const invalid = accounts.find((account) => typeof account !== 'string' || !isSolanaAddress(account))
  if (invalid !== undefined) throw createWidgetError('WALLET_BAD_RESPONSE', { details: `The wallet reported an invalid Solana address: ${String(invalid)}` })
  return accounts
}

/** `preferred` when the wallet approved it, else the first approved. */
const pick = <T,>(approved: T[], preferred: T | undefined) => (preferred !== undefined && approved.includes(preferred) ? preferred : approved[0])

/** A 64-byte signature from its base58 text in a wallet's answer. */
const decodeSignature = (value: unknown): Uint8Array => {
  if (typeof value === 'string') {
    try {
      const signature = base58.decode(value)
      if (signature.length === 64) return signature
    } catch {
      // reported below
    }
  }
  throw createWidgetError('WALLET_BAD_RESPONSE', { details: `The wallet answered an invalid Solana signature: ${String(value).slice(0, 100)}` })
}

/**
 * A WalletConnect session through our own relay, run in its own worker (see createWalletConnectConnector for why).
 * The sign client loads on first use (showing a QR code, or reconnecting a stored session); everything it would send
 * elsewhere is switched off: telemetry (`telemetryEnabled: false`) and the Verify attestation (`core.verify`, which
 * has no switch). The proposal offers eip155 and, when the host configured Solana clusters, solana.
 */
export function createWalletConnectSession({ projectId, relayUrl, metadata, chainIds, solanaCaipNetworkIds = [], relayTimeoutMs = 10_000, storagePrefix = 'tessera', storage, loadSignClient = () => import('@walletconnect/sign-client').then((m) => m.SignClient) }: WalletConnectSessionParameters) {
  let clientPromise: Promise<Client> | undefined
  let session: Session | undefined
  /** The eip155 chain acted on; undefined when the session has no eip155 account. */
  let chainId: number | undefined
  /** The Solana cluster acted on; undefined when the session has no Solana account or the host configured no cluster. */
  let solanaCluster: CaipNetworkId | undefined
  const hasSolana = solanaCaipNetworkIds.length > 0
  const approvedClusters = (next: Session) => (hasSolana ? solanaClusters(next) : [])
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
        const previous = session
        session = client.session.get(topic)
        if (!hasSolana || session.namespaces.eip155) emit('onAccountsChanged', sessionAccounts(session, chainId))
        if (hasSolana) updateSolana(previous, session)
      })
      client.on('session_event', ({ topic, params }) => {
        if (!isOurs(topic)) return
        // The solana namespace is proposed without events: nothing of a wallet's there is taken for eip155's.
        if (params.chainId?.startsWith('solana:')) return
        try {
          if (params.event.name === 'accountsChanged') {
            const accounts = parseAccounts((params.event.data as unknown[]).map((a) => parseCaipAddress(String(a))?.address ?? String(a)))
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

  /** After a session update: the cluster acted on stays if still approved, and a change of Solana accounts is told. */
  const updateSolana = (previous: Session | undefined, next: Session) => {
    const before = solanaCluster
    solanaCluster = pick(solanaClusters(next), solanaCluster)
    try {
      const was = previous && before !== undefined ? solanaAccounts(previous, before) : []
      const is = solanaCluster === undefined ? [] : solanaAccounts(next, solanaCluster)
      if (is.length === 0) solanaCluster = undefined
      if (was.join() !== is.join()) emit('onSolanaAccountsChanged', is)
    } catch {
      // an update with a malformed account is ignored here; requests read the session again and say so
    }
  }

  /** Takes the session; the preferred chain and cluster (the widget's active ones) are acted on when the wallet approved them. */
  const adoptSession = (next: Session, preferred: { chainId?: number; solanaCaipNetworkId?: string } = {}): PairingApproval => {
    session = next
    chainId = pick(sessionChainIds(next), preferred.chainId)
    solanaCluster = pick(approvedClusters(next), preferred.solanaCaipNetworkId as CaipNetworkId | undefined)
    const solanaAccountList = solanaCluster === undefined ? [] : solanaAccounts(next, solanaCluster)
    if (solanaAccountList.length === 0) solanaCluster = undefined
    if (chainId === undefined && solanaCluster === undefined) {
      throw createWidgetError('WALLET_BAD_RESPONSE', { details: hasSolana ? 'The wallet approved no eip155 or solana account' : 'The wallet approved no eip155 account' })
    }
    // A wallet that approved Solana only: no eip155 account, and the chain the widget asked for.
    const eip155 = chainId === undefined ? { accounts: [], chainId: preferred.chainId ?? chainIds[0] ?? 0 } : { accounts: sessionAccounts(next, chainId), chainId }
    return solanaCluster === undefined ? eip155 : { ...eip155, solana: { accounts: solanaAccountList, caipNetworkId: solanaCluster } }
  }
  const requireSession = () => {
    if (!session || chainId === undefined) throw createWidgetError('DISCONNECTED')
    return { session, chainId }
  }
  /** The session and the cluster to act on (`cluster` when given): one the wallet approved. */
  const requireSolana = (cluster?: string) => {
    if (!session || solanaCluster === undefined) throw createWidgetError('DISCONNECTED')
    const target = (cluster ?? solanaCluster) as CaipNetworkId
    if (!solanaClusters(session).includes(target)) throw createWidgetError('CHAIN_NOT_SUPPORTED', { details: `The wallet did not approve ${target} for this session` })
    return { session, cluster: target }
  }
  /** The latest stored session still alive with an eip155 account, or a solana one when the host configured a cluster. */
  const latestStoredSession = async () => {
    const client = await getClient()
    return client.session.getAll().filter((s) => (s.namespaces.eip155 || (hasSolana && s.namespaces.solana)) && s.expiry * 1_000 > Date.now()).at(-1)
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

  const solanaRequest = async <T,>(method: string, params: unknown, cluster?: string): Promise<T> => {
    const current = requireSolana(cluster)
    const client = await getClient()
    try {
      return await client.request<T>({ topic: current.session.topic, chainId: current.cluster, request: { method, params } })
    } catch (error) {
      throw toWalletError(error)
    }
  }

  /** The session's `solana` namespace: there when the host configured a cluster and the wallet approved an account. */
  const solana = {
    /** Whether a stored session still gives a Solana account (loads the client only when asked, for a reconnect). */
    async isAuthorized(preferredCaipNetworkId?: string) {
      const latest = await latestStoredSession()
      if (!latest) return false
      // Taking the session again for Solana leaves its eip155 chain as it was.
      adoptSession(latest, { chainId: session?.topic === latest.topic ? chainId : undefined, solanaCaipNetworkId: preferredCaipNetworkId })
      return solanaCluster !== undefined
    },
    async getAccounts() {
      const current = requireSolana()
      return solanaAccounts(current.session, current.cluster)
    },
    /** `fallback` when the wallet approved that cluster, else the one acted on. */
    async getCaipNetworkId(fallback?: string): Promise<CaipNetworkId> {
      const current = requireSolana()
      return fallback !== undefined && solanaClusters(current.session).includes(fallback as CaipNetworkId) ? (fallback as CaipNetworkId) : current.cluster
    },
    /** A cluster the wallet approved needs no round trip; WalletConnect has no request to add another. */
    async switchNetwork(caipNetworkId: string) {
      solanaCluster = requireSolana(caipNetworkId).cluster
    },
    /** WalletConnect's solana_signMessage: the message in base58, the signature back in base58. */
    async signMessage({ message, address, caipNetworkId }: SolanaSignMessageParameters): Promise<Uint8Array> {
      const result = await solanaRequest<{ signature?: unknown } | null>('solana_signMessage', { message: base58.encode(message), pubkey: address }, caipNetworkId)
      return decodeSignature(result?.signature)
    },
    /**
     * WalletConnect's solana_signTransaction: the wire transaction in base64. The wallet answers `transaction` (the
     * signed wire in base64; a wallet may have changed it, so it is taken as is) or only `signature`, which goes into
     * the signer's slot here (`address`'s, else the fee payer's).
     */
    async signTransaction({ transaction, caipNetworkId, address }: SolanaSignTransactionParameters): Promise<Uint8Array> {
      try {
        readWireTransaction(transaction)
      } catch (error) {
        throw createWidgetError('INVALID_PARAMS', { details: `Not a Solana wire transaction: ${(error as Error).message}`, cause: error })
      }
      const params = { transaction: base64.encode(transaction), ...(address !== undefined && { pubkey: address }) }
      const result = await solanaRequest<{ signature?: unknown; transaction?: unknown } | null>('solana_signTransaction', params, caipNetworkId)
      if (typeof result?.transaction === 'string') {
        try {
          const signed = base64.decode(result.transaction)
          readWireTransaction(signed)
          return signed
        } catch (error) {
          throw createWidgetError('WALLET_BAD_RESPONSE', { details: `The wallet answered an invalid signed transaction: ${(error as Error).message}`, cause: error })
        }
      }
      const signature = decodeSignature(result?.signature)
      try {
        return withSignature(transaction, signature, address)
      } catch (error) {
        throw createWidgetError('WALLET_BAD_RESPONSE', { details: `The wallet's signature fits no slot: ${(error as Error).message}`, cause: error })
      }
    },
  }

  return {
    request,
    getAccounts: async () => sessionAccounts(requireSession().session, chainId),
    getChainId: async () => requireSession().chainId,
    /** Whether a stored session still gives an eip155 account (loads the client only when asked, for a reconnect). */
    async isAuthorized(preferredChainId?: number) {
      const latest = await latestStoredSession()
      if (!latest) return false
      // Taking the session again for eip155 leaves its Solana cluster as it was.
      adoptSession(latest, { chainId: preferredChainId, solanaCaipNetworkId: session?.topic === latest.topic ? solanaCluster : undefined })
      return chainId !== undefined
    },
    /** Proposes a session: the URI goes into the QR code or a deep link, the approval settles when the wallet answers. */
    async pair(preferredChainId?: number, preferredSolanaCaipNetworkId?: string): Promise<Pairing> {
      const client = await getClient()
      // With the relay down the client retries quietly; the visitor is told after relayTimeoutMs.
      let timer: ReturnType<typeof setTimeout> | undefined
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer in ${relayTimeoutMs} ms`)), relayTimeoutMs)
      })
      // Only the families the site configured: a Solana-only site proposes no eip155 namespace.
      const optionalNamespaces = {
        ...(chainIds.length > 0 && { eip155: { chains: chainIds.map((id) => `eip155:${id}`), methods, events } }),
        ...(hasSolana && { solana: { chains: solanaCaipNetworkIds, methods: solanaMethods, events: [] } }),
      }
      const { uri, approval } = await Promise.race([client.connect({ optionalNamespaces }), timeout])
        .catch((error: unknown) => {
          throw createWidgetError('WALLETCONNECT_UNAVAILABLE', { details: `${relayUrl}: ${(error as Error)?.message ?? String(error)}`, cause: error })
        })
        .finally(() => clearTimeout(timer))
      if (!uri) throw createWidgetError('WALLETCONNECT_UNAVAILABLE', { details: 'The sign client made no pairing URI' })
      return {
        uri,
        approval: approval().then((next) => adoptSession(next, { chainId: preferredChainId, solanaCaipNetworkId: preferredSolanaCaipNetworkId }), (error: unknown) => {
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
    solana,
  }
}

export type WalletConnectSession = ReturnType<typeof createWalletConnectSession>
