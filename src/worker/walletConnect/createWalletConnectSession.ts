import type SignClient from '@walletconnect/sign-client'
import { parseCaipAddress, parseCaipNetworkId, type CaipNetworkId, type ChainNamespace } from '../../shared/protocol/caip'
import { createWidgetError } from '../../shared/protocol/errors'
import { toWalletError } from '../../shared/protocol/eip1193'
import type { Pairing, PairingApproval, PreferredNetworks, WalletConnectWorkerConfig } from '../../shared/protocol/walletConnectApi'
import { walletConnectFamilies, type WalletConnectFamilyRequests, type WalletConnectNamespace } from './walletConnectFamilies'
import type { FamilySide, SessionAccount, WalletConnectFamily } from './walletConnectFamily'

/** What a session tells its watcher. */
export type SessionEvents = {
  /** A family's accounts changed (a session update, or the wallet's event); empty when the family left the session. */
  onAccountsChanged?: (namespace: WalletConnectNamespace, accounts: string[]) => void
  /** A family acts on another network (eip155: the wallet's chainChanged, or a switch to another chain). */
  onNetworkChanged?: (namespace: WalletConnectNamespace, caipNetworkId: CaipNetworkId) => void
  onDisconnect?: () => void
}

type Client = Awaited<ReturnType<typeof SignClient.init>>
type Session = ReturnType<Client['session']['getAll']>[number]

export type WalletConnectSessionParameters = WalletConnectWorkerConfig & {
  /** Loads the sign client (134 KiB gzipped), on first use only. */
  loadSignClient?: () => Promise<typeof SignClient>
  /** Where the client keeps keys and sessions; IndexedDB in browsers by default. */
  storage?: NonNullable<Parameters<typeof SignClient.init>[0]>['storage']
}

export type { Pairing } from '../../shared/protocol/walletConnectApi'

const familyOf = (namespace: WalletConnectNamespace): WalletConnectFamily => walletConnectFamilies[namespace]
const namespaces = Object.keys(walletConnectFamilies) as WalletConnectNamespace[]

/** A namespace's CAIP-10 accounts in the session, parsed by caip.ts. */
const sessionAccounts = (session: Session, namespace: WalletConnectNamespace): SessionAccount[] =>
  (session.namespaces[namespace]?.accounts ?? []).map((account) => {
    const parsed = parseCaipAddress(account)
    return parsed ? { network: `${parsed.namespace}:${parsed.reference}`, address: parsed.address } : { network: undefined, address: account }
  })

/** The networks of a session's namespace: its chains and those of its accounts. */
const sessionNetworks = (session: Session, namespace: WalletConnectNamespace): CaipNetworkId[] => {
  const ids = [...(session.namespaces[namespace]?.chains ?? []), ...sessionAccounts(session, namespace).map((a) => a.network ?? '')]
  return [...new Set(ids.filter((id) => parseCaipNetworkId(id)?.namespace === namespace))] as CaipNetworkId[]
}

/** `preferred` when the wallet approved it, else the first approved. */
const pick = <T,>(approved: T[], preferred: T | undefined) => (preferred !== undefined && approved.includes(preferred) ? preferred : approved[0])

/**
 * A WalletConnect session through our own relay, run in its own worker (see createWalletConnectConnector for why).
 * The sign client loads on first use (showing a QR code, or reconnecting a stored session); everything it would send
 * elsewhere is switched off: telemetry (`telemetryEnabled: false`) and the Verify attestation (`core.verify`, which
 * has no switch). The proposal offers the namespace of each family in walletConnectFamilies.ts the host configured
 * networks of; each family's requests are the session's member of its name.
 * @example const session = createWalletConnectSession({ projectId, relayUrl, metadata, networks: { eip155: ['eip155:1'] } })
 */
export function createWalletConnectSession({ projectId, relayUrl, metadata, networks, relayTimeoutMs = 10_000, storagePrefix = 'tessera', storage, loadSignClient = () => import('@walletconnect/sign-client').then((m) => m.SignClient) }: WalletConnectSessionParameters) {
  const families = namespaces.filter((namespace) => (networks[namespace]?.length ?? 0) > 0)
  let clientPromise: Promise<Client> | undefined
  let session: Session | undefined
  /** The network each family acts on; none where the session has no account of the family. */
  const active: Partial<Record<ChainNamespace, CaipNetworkId>> = {}
  /** The accounts a wallet announced by event (and their network), until the session itself changes. */
  let announced: Partial<Record<ChainNamespace, { network: CaipNetworkId; accounts: string[] }>> = {}
  const watchers = new Set<SessionEvents>()
  const emit = <K extends keyof SessionEvents>(name: K, ...args: Parameters<NonNullable<SessionEvents[K]>>) => {
    for (const watcher of watchers) (watcher[name] as ((...a: typeof args) => void) | undefined)?.(...args)
  }

  /** The networks of `namespace` the wallet approved that the family acts on. */
  const approvedNetworks = (namespace: WalletConnectNamespace, next: Session) => {
    const approved = sessionNetworks(next, namespace)
    return familyOf(namespace).keepsToConfiguredNetworks ? approved.filter((n) => networks[namespace]?.includes(n)) : approved
  }
  /** The methods the wallet approved for `namespace` in the session (none without one). */
  const approvedMethods = (namespace: ChainNamespace): string[] => session?.namespaces[namespace]?.methods ?? []
  const readAccounts = (namespace: WalletConnectNamespace, next: Session, network: CaipNetworkId) => familyOf(namespace).readAccounts(sessionAccounts(next, namespace), network)
  const currentAccounts = (namespace: WalletConnectNamespace, next: Session, network: CaipNetworkId) =>
    announced[namespace]?.network === network ? announced[namespace].accounts : readAccounts(namespace, next, network)

  const createSide = (namespace: WalletConnectNamespace): FamilySide => {
    /** The session and the network to act on (`requested` when given): one the wallet approved. */
    const require = (requested?: string) => {
      const network = active[namespace]
      if (!session || network === undefined) throw createWidgetError('DISCONNECTED')
      if (requested !== undefined && !approvedNetworks(namespace, session).includes(requested as CaipNetworkId)) {
        throw createWidgetError('CHAIN_NOT_SUPPORTED', { details: `The wallet did not approve ${requested} for this session` })
      }
      return { session, network: (requested ?? network) as CaipNetworkId }
    }
    return {
      network: (requested) => require(requested).network,
      approvedNetworks: () => (session ? approvedNetworks(namespace, session) : []),
      accounts(requested) {
        const current = require(requested)
        return currentAccounts(namespace, current.session, current.network)
      },
      async request<T>(method: string, params: unknown, requested?: string) {
        const current = require(requested)
        if (!approvedMethods(namespace).includes(method)) throw createWidgetError('UNSUPPORTED_METHOD', { details: `The wallet did not approve ${method} for this session` })
        const client = await getClient()
        try {
          return await client.request<T>({ topic: current.session.topic, chainId: current.network, request: { method, params } })
        } catch (error) {
          throw toWalletError(error)
        }
      },
      switchTo(network) {
        active[namespace] = network
        emit('onNetworkChanged', namespace, network)
      },
      tell: (accounts) => emit('onAccountsChanged', namespace, accounts),
      announce(accounts) {
        const current = require()
        if (accounts.join() === currentAccounts(namespace, current.session, current.network).join()) return
        announced[namespace] = { network: current.network, accounts }
        emit('onAccountsChanged', namespace, accounts)
      },
    }
  }
  const sides = Object.fromEntries(namespaces.map((namespace) => [namespace, createSide(namespace)])) as Record<WalletConnectNamespace, FamilySide>
  /** A family's side of the session; DISCONNECTED for a family WalletConnect does not carry. */
  const sideOf = (namespace: ChainNamespace) => {
    if (!Object.hasOwn(sides, namespace)) throw createWidgetError('DISCONNECTED')
    return sides[namespace as WalletConnectNamespace]
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
        for (const namespace of families) updateFamily(namespace, previous, session)
      })
      client.on('session_event', ({ topic, params }) => {
        if (!isOurs(topic)) return
        try {
          const namespace = families.find((family) => family === parseCaipNetworkId(params.chainId)?.namespace)
          if (namespace) familyOf(namespace).onEvent?.(params.event, params.chainId as CaipNetworkId, sides[namespace])
        } catch {
          // a malformed event is ignored; the session's namespaces stay the truth
        }
      })
      return client
    })().catch((error: unknown) => {
      clientPromise = undefined
      throw createWidgetError('WALLETCONNECT_UNAVAILABLE', { details: `${relayUrl}: ${(error as Error)?.message ?? String(error)}`, cause: error })
    }))

  /** After a session update: the family's network acted on stays if still approved, and its accounts are told. */
  const updateFamily = (namespace: WalletConnectNamespace, previous: Session | undefined, next: Session) => {
    const network = active[namespace]
    try {
      if (familyOf(namespace).tellsEveryUpdate) {
        // A family leaving the session tells so only when it is the host's only one.
        if (network !== undefined && (next.namespaces[namespace] || families.length === 1)) emit('onAccountsChanged', namespace, readAccounts(namespace, next, network))
        return
      }
      let was: string[] = []
      try {
        if (previous && network !== undefined) was = currentAccounts(namespace, previous, network)
      } catch {
        // the previous session's accounts were malformed: any valid list now is a change
      }
      announced[namespace] = undefined
      active[namespace] = pick(approvedNetworks(namespace, next), network)
      const is = active[namespace] === undefined ? [] : readAccounts(namespace, next, active[namespace])
      if (is.length === 0) active[namespace] = undefined
      if (was.join() !== is.join()) emit('onAccountsChanged', namespace, is)
    } catch {
      // an update with a malformed account is ignored here; requests read the session again and say so
    }
  }

  /** Takes the session; each family acts on its preferred network (the widget's active one) when the wallet approved it. */
  const adoptSession = (next: Session, preferred: PreferredNetworks = {}): PairingApproval => {
    if (session?.topic !== next.topic) announced = {}
    session = next
    const approval: PairingApproval = {}
    for (const namespace of families) {
      const network = pick(approvedNetworks(namespace, next), preferred[namespace] as CaipNetworkId | undefined)
      const accounts = network === undefined ? [] : currentAccounts(namespace, next, network)
      active[namespace] = accounts.length > 0 ? network : undefined
      if (network !== undefined && accounts.length > 0) approval[namespace] = { accounts, caipNetworkId: network }
    }
    if (Object.keys(approval).length === 0) throw createWidgetError('WALLET_BAD_RESPONSE', { details: `The wallet approved no ${families.join(' or ')} account` })
    return approval
  }
  /** The latest stored session still alive with an account of a family the host configured. */
  const latestStoredSession = async () => {
    const client = await getClient()
    return client.session.getAll().filter((s) => families.some((namespace) => s.namespaces[namespace]) && s.expiry * 1_000 > Date.now()).at(-1)
  }

  const requests = Object.fromEntries(namespaces.map((namespace) => [namespace, familyOf(namespace).requests(sides[namespace])])) as WalletConnectFamilyRequests

  return {
    ...requests,
    /** Whether a stored session still gives an account of `namespace` (loads the client only when asked, for a reconnect). */
    async isAuthorized(namespace: ChainNamespace, preferredCaipNetworkId?: string) {
      const latest = await latestStoredSession()
      if (!latest) return false
      // Taking the session again for one family leaves the others' networks as they were.
      adoptSession(latest, { ...(session?.topic === latest.topic && active), [namespace]: preferredCaipNetworkId })
      return active[namespace] !== undefined
    },
    /** The family's accounts on the network acted on. */
    getAccounts: async (namespace: ChainNamespace) => sideOf(namespace).accounts(),
    approvedMethods,
    /** `fallback` when the wallet approved that network, else the one acted on. */
    async getCaipNetworkId(namespace: ChainNamespace, fallback?: string): Promise<CaipNetworkId> {
      const side = sideOf(namespace)
      const network = side.network()
      return fallback !== undefined && side.approvedNetworks().includes(fallback as CaipNetworkId) ? (fallback as CaipNetworkId) : network
    },
    /** A network the wallet approved needs no round trip (its accounts there are in the session); another is refused. */
    async switchNetwork(namespace: ChainNamespace, caipNetworkId: string) {
      const side = sideOf(namespace)
      const network = side.network(caipNetworkId)
      if (side.accounts(network).length === 0) throw createWidgetError('CHAIN_NOT_SUPPORTED', { details: `The wallet approved no account on ${network}` })
      active[namespace] = network
    },
    /** Proposes a session: the URI goes into the QR code or a deep link, the approval settles when the wallet answers. */
    async pair(preferred: PreferredNetworks = {}): Promise<Pairing> {
      const client = await getClient()
      // With the relay down the client retries quietly; the visitor is told after relayTimeoutMs.
      let timer: ReturnType<typeof setTimeout> | undefined
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer in ${relayTimeoutMs} ms`)), relayTimeoutMs)
      })
      // Only the families the site configured: a Solana-only site proposes no eip155 namespace.
      const optionalNamespaces = Object.fromEntries(families.map((namespace) => [namespace, { chains: networks[namespace]!, methods: [...familyOf(namespace).methods], events: [...familyOf(namespace).events] }]))
      const { uri, approval } = await Promise.race([client.connect({ optionalNamespaces }), timeout])
        .catch((error: unknown) => {
          throw createWidgetError('WALLETCONNECT_UNAVAILABLE', { details: `${relayUrl}: ${(error as Error)?.message ?? String(error)}`, cause: error })
        })
        .finally(() => clearTimeout(timer))
      if (!uri) throw createWidgetError('WALLETCONNECT_UNAVAILABLE', { details: 'The sign client made no pairing URI' })
      return {
        uri,
        approval: approval().then(
          (next) => adoptSession(next, preferred),
          (error: unknown) => {
            throw toWalletError(error)
          },
        ),
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
