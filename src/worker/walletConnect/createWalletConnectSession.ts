import { base58, base64, hex } from '@scure/base'
import { numberToHex, type Address } from 'viem'
import type SignClient from '@walletconnect/sign-client'
import { decodeBitcoinAddress, getBitcoinNetwork } from '../../shared/families/bip122/address'
import { isSolanaAddress } from '../../shared/families/solana/address'
import { formatCaipNetworkId, parseCaipAddress, parseCaipNetworkId, type CaipNetworkId } from '../../shared/protocol/caip'
import { createWidgetError } from '../../shared/protocol/errors'
import { parseAccounts, parseChainId, toWalletError } from '../../shared/protocol/eip1193'
import type { Bip122SignMessageParameters, Bip122SignPsbtParameters, Pairing, PairingApproval, SolanaSignMessageParameters, SolanaSignTransactionParameters, WalletConnectWorkerConfig } from '../../shared/protocol/walletConnectApi'
import { readWireTransaction, withSignature } from './solanaWireTransaction'

/** What a session tells its watcher. */
export type SessionEvents = {
  onAccountsChanged?: (accounts: Address[]) => void
  onChainChanged?: (chainId: number) => void
  /** The session's Solana accounts changed (by a session update from the wallet); empty when Solana left the session. */
  onSolanaAccountsChanged?: (accounts: string[]) => void
  /** The session's Bitcoin addresses changed (a session update, or the wallet's bip122_addressesChanged); empty when Bitcoin left the session. */
  onBip122AccountsChanged?: (accounts: string[]) => void
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
/**
 * Bitcoin's, as WalletConnect's Bitcoin RPC reference names them (docs.reown.com/advanced/multichain/rpc-reference/bitcoin-rpc):
 * getAccountAddresses `{ account, intentions? }`; signMessage `{ account, address, message, protocol }` →
 * `{ address, signature: hex }`; signPsbt `{ account, psbt: base64, signInputs: [{ address, index }], broadcast }` →
 * `{ psbt: base64, txid? }`; sendTransfer (proposed for what the wallet offers; the widget builds its own PSBTs).
 * The wallet tells address changes by the bip122_addressesChanged event.
 */
const bip122Methods = ['getAccountAddresses', 'signMessage', 'signPsbt', 'sendTransfer']
const bip122Events = ['bip122_addressesChanged']
/** More Bitcoin addresses than this in a session or an event are not read. */
const MAX_BITCOIN_ADDRESSES = 20
/** A PSBT (BIP-174) starts with these bytes: `psbt` and 0xff. */
const PSBT_MAGIC = [0x70, 0x73, 0x62, 0x74, 0xff]

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
const caipAccounts = (session: Session, namespace: 'eip155' | 'solana' | 'bip122') =>
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

/** The networks of a session's `solana` or `bip122` namespace: its chains and those of its accounts. */
const namespaceNetworks = (session: Session, namespace: 'solana' | 'bip122'): CaipNetworkId[] => [
  ...new Set(
    [...(session.namespaces[namespace]?.chains ?? []).map((c) => parseCaipNetworkId(c)), ...caipAccounts(session, namespace)]
      .filter((c) => c?.namespace === namespace)
      .map((c) => formatCaipNetworkId(namespace, c!.reference!)),
  ),
]
/** The clusters of the session's `solana` namespace. */
const solanaClusters = (session: Session): CaipNetworkId[] => namespaceNetworks(session, 'solana')

/** The session's Solana accounts (base58) on `cluster`, or on any cluster when it has none there. */
const solanaAccounts = (session: Session, cluster?: string): string[] => {
  const entries = caipAccounts(session, 'solana')
  const onCluster = entries.filter((a) => cluster === undefined || `${a.namespace}:${a.reference}` === cluster)
  const accounts = [...new Set((onCluster.length ? onCluster : entries).map((a) => a.address))]
  const invalid = accounts.find((account) => typeof account !== 'string' || !isSolanaAddress(account))
  if (invalid !== undefined) throw createWidgetError('WALLET_BAD_RESPONSE', { details: `The wallet reported an invalid Solana address: ${String(invalid)}` })
  return accounts
}

/**
 * A wallet's Bitcoin addresses on `network` as the widget's accounts (SPEC §3, §6): of the first 20, the first that is
 * not taproot (payment) and then the first taproot one (ordinals); a lone taproot address serves as both. One that is
 * not an address of that network is WALLET_BAD_RESPONSE.
 */
const toBitcoinAddresses = (addresses: readonly unknown[], network: string): string[] => {
  const expected = getBitcoinNetwork(network)
  const unique = [...new Set(addresses.slice(0, MAX_BITCOIN_ADDRESSES))]
  const decoded = unique.map((address) => ({ address, decoded: typeof address === 'string' ? decodeBitcoinAddress(address) : undefined }))
  const invalid = decoded.find((a) => !a.decoded || (expected !== undefined && !a.decoded.networks.includes(expected)))
  if (invalid) throw createWidgetError('WALLET_BAD_RESPONSE', { details: `The wallet reported an invalid address for ${network}: ${String(invalid.address).slice(0, 100)}` })
  const payment = decoded.find((a) => a.decoded!.type !== 'p2tr')
  const ordinals = decoded.find((a) => a.decoded!.type === 'p2tr')
  return [payment, ordinals].filter((a) => a !== undefined).map((a) => a.address as string)
}

/** The session's Bitcoin addresses on `network` (never another network's: Bitcoin addresses belong to one), payment first. */
const bitcoinAddresses = (session: Session, network: string): string[] =>
  toBitcoinAddresses(
    caipAccounts(session, 'bip122')
      .filter((a) => `${a.namespace}:${a.reference}` === network)
      .map((a) => a.address),
    network,
  )

/** The addresses of a bip122_addressesChanged event: strings or `{ address }` objects, as wallets send them. */
const announcedAddresses = (data: unknown): unknown[] => (Array.isArray(data) ? data.map((entry) => (typeof entry === 'object' && entry !== null ? (entry as { address?: unknown }).address : entry)) : [])

const isHexText = (value: string) => /^(?:[0-9a-fA-F]{2})+$/.test(value)
/** The bytes of base64 text (or of hex text, when `orHex` and it is hex); undefined when it is neither. */
const readBase64 = (value: unknown, { orHex = false } = {}): Uint8Array | undefined => {
  if (typeof value !== 'string') return undefined
  try {
    return orHex && isHexText(value) ? hex.decode(value.toLowerCase()) : base64.decode(value)
  } catch {
    return undefined
  }
}
const isPsbt = (bytes: Uint8Array | undefined): bytes is Uint8Array => bytes !== undefined && PSBT_MAGIC.every((byte, i) => bytes[i] === byte)

/** A PSBT in a wallet's answer: base64 as the reference says (hex is taken too), checked to be one. */
const decodePsbt = (value: unknown): string => {
  const bytes = readBase64(value, { orHex: true })
  if (isPsbt(bytes)) return base64.encode(bytes)
  throw createWidgetError('WALLET_BAD_RESPONSE', { details: `The wallet answered an invalid PSBT: ${String(value).slice(0, 100)}` })
}

/** A BIP-322 signature in a wallet's answer: hex as the reference says, or base64 as some wallets send it; base64 out. */
const decodeBitcoinSignature = (value: unknown): string => {
  const bytes = typeof value === 'string' && value.length <= 4_096 ? readBase64(value, { orHex: true }) : undefined
  if (bytes && bytes.length > 0) return base64.encode(bytes)
  throw createWidgetError('WALLET_BAD_RESPONSE', { details: `The wallet answered an invalid Bitcoin signature: ${String(value).slice(0, 100)}` })
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
 * has no switch). The proposal offers eip155 and, when the host configured Solana clusters or Bitcoin networks, solana
 * and bip122.
 */
export function createWalletConnectSession({ projectId, relayUrl, metadata, chainIds, solanaCaipNetworkIds = [], bip122CaipNetworkIds = [], relayTimeoutMs = 10_000, storagePrefix = 'tessera', storage, loadSignClient = () => import('@walletconnect/sign-client').then((m) => m.SignClient) }: WalletConnectSessionParameters) {
  let clientPromise: Promise<Client> | undefined
  let session: Session | undefined
  /** The eip155 chain acted on; undefined when the session has no eip155 account. */
  let chainId: number | undefined
  /** The Solana cluster acted on; undefined when the session has no Solana account or the host configured no cluster. */
  let solanaCluster: CaipNetworkId | undefined
  const hasSolana = solanaCaipNetworkIds.length > 0
  const approvedClusters = (next: Session) => (hasSolana ? solanaClusters(next) : [])
  /** The Bitcoin network acted on; undefined when the session has no Bitcoin address or the host configured no network. */
  let bip122Network: CaipNetworkId | undefined
  /** The addresses of the wallet's latest bip122_addressesChanged (and their network), until the session itself changes. */
  let announced: { network: CaipNetworkId; addresses: string[] } | undefined
  const hasBip122 = bip122CaipNetworkIds.length > 0
  /** The Bitcoin networks the wallet approved that the host configured (an address is for one network only). */
  const bip122Networks = (next: Session) => (hasBip122 ? namespaceNetworks(next, 'bip122').filter((n) => bip122CaipNetworkIds.includes(n)) : [])
  const currentBitcoinAddresses = (next: Session, network: CaipNetworkId) => (announced?.network === network ? announced.addresses : bitcoinAddresses(next, network))
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
        if ((!hasSolana && !hasBip122) || session.namespaces.eip155) emit('onAccountsChanged', sessionAccounts(session, chainId))
        if (hasSolana) updateSolana(previous, session)
        if (hasBip122) updateBip122(previous, session)
      })
      client.on('session_event', ({ topic, params }) => {
        if (!isOurs(topic)) return
        if (params.chainId?.startsWith('bip122:')) return onBip122Event(params)
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

  /** After a session update: the Bitcoin network acted on stays if still approved, and a change of addresses is told. */
  const updateBip122 = (previous: Session | undefined, next: Session) => {
    let was: string[] = []
    try {
      if (previous && bip122Network !== undefined) was = currentBitcoinAddresses(previous, bip122Network)
    } catch {
      // the previous session's addresses were malformed: any valid list now is a change
    }
    announced = undefined
    bip122Network = pick(bip122Networks(next), bip122Network)
    try {
      const is = bip122Network === undefined ? [] : bitcoinAddresses(next, bip122Network)
      if (is.length === 0) bip122Network = undefined
      if (was.join() !== is.join()) emit('onBip122AccountsChanged', is)
    } catch {
      // an update with a malformed address is ignored here; requests read the session again and say so
    }
  }
  /** The wallet's bip122_addressesChanged on the network acted on: its addresses replace the session's until the session changes. */
  const onBip122Event = ({ chainId: network, event }: { chainId: string; event: { name: string; data: unknown } }) => {
    if (event.name !== 'bip122_addressesChanged' || network !== bip122Network || !session) return
    const current = session
    try {
      const next = toBitcoinAddresses(announcedAddresses(event.data), network)
      if (next.length === 0 || next.join() === currentBitcoinAddresses(current, network as CaipNetworkId).join()) return
      announced = { network: network as CaipNetworkId, addresses: next }
      emit('onBip122AccountsChanged', next)
    } catch {
      // a malformed event is ignored; the session's namespaces stay the truth
    }
  }

  /** Takes the session; the preferred chain and cluster (the widget's active ones) are acted on when the wallet approved them. */
  const adoptSession = (next: Session, preferred: { chainId?: number; solanaCaipNetworkId?: string; bip122CaipNetworkId?: string } = {}): PairingApproval => {
    if (session?.topic !== next.topic) announced = undefined
    session = next
    chainId = pick(sessionChainIds(next), preferred.chainId)
    solanaCluster = pick(approvedClusters(next), preferred.solanaCaipNetworkId as CaipNetworkId | undefined)
    const solanaAccountList = solanaCluster === undefined ? [] : solanaAccounts(next, solanaCluster)
    if (solanaAccountList.length === 0) solanaCluster = undefined
    bip122Network = pick(bip122Networks(next), preferred.bip122CaipNetworkId as CaipNetworkId | undefined)
    const bitcoinAccountList = bip122Network === undefined ? [] : currentBitcoinAddresses(next, bip122Network)
    if (bitcoinAccountList.length === 0) bip122Network = undefined
    if (chainId === undefined && solanaCluster === undefined && bip122Network === undefined) {
      const asked = ['eip155', ...(hasSolana ? ['solana'] : []), ...(hasBip122 ? ['bip122'] : [])].join(' or ')
      throw createWidgetError('WALLET_BAD_RESPONSE', { details: `The wallet approved no ${asked} account` })
    }
    // A wallet that approved Solana or Bitcoin only: no eip155 account, and the chain the widget asked for.
    const eip155 = chainId === undefined ? { accounts: [], chainId: preferred.chainId ?? chainIds[0] ?? 0 } : { accounts: sessionAccounts(next, chainId), chainId }
    return {
      ...eip155,
      ...(solanaCluster !== undefined && { solana: { accounts: solanaAccountList, caipNetworkId: solanaCluster } }),
      ...(bip122Network !== undefined && { bip122: { accounts: bitcoinAccountList, caipNetworkId: bip122Network } }),
    }
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
  /** The session and the Bitcoin network to act on (`network` when given): one the wallet approved. */
  const requireBip122 = (network?: string) => {
    if (!session || bip122Network === undefined) throw createWidgetError('DISCONNECTED')
    const target = (network ?? bip122Network) as CaipNetworkId
    if (!bip122Networks(session).includes(target)) throw createWidgetError('CHAIN_NOT_SUPPORTED', { details: `The wallet did not approve ${target} for this session` })
    return { session, network: target }
  }
  /** The latest stored session still alive with an eip155 account, or a solana or bip122 one when the host configured that family. */
  const latestStoredSession = async () => {
    const client = await getClient()
    return client.session.getAll().filter((s) => (s.namespaces.eip155 || (hasSolana && s.namespaces.solana) || (hasBip122 && s.namespaces.bip122)) && s.expiry * 1_000 > Date.now()).at(-1)
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
      adoptSession(latest, { chainId: session?.topic === latest.topic ? chainId : undefined, solanaCaipNetworkId: preferredCaipNetworkId, bip122CaipNetworkId: session?.topic === latest.topic ? bip122Network : undefined })
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

  const bip122Request = async <T,>(method: string, params: unknown, network?: string): Promise<T> => {
    const current = requireBip122(network)
    const client = await getClient()
    try {
      return await client.request<T>({ topic: current.session.topic, chainId: current.network, request: { method, params } })
    } catch (error) {
      throw toWalletError(error)
    }
  }
  /** The session's Bitcoin addresses on the network acted on (or `network`), payment first; the first is the reference's `account`. */
  const bip122Accounts = (network?: string) => {
    const current = requireBip122(network)
    return currentBitcoinAddresses(current.session, current.network)
  }

  /** The session's `bip122` namespace: there when the host configured a Bitcoin network and the wallet approved an address on it. */
  const bip122 = {
    /** Whether a stored session still gives a Bitcoin address (loads the client only when asked, for a reconnect). */
    async isAuthorized(preferredCaipNetworkId?: string) {
      const latest = await latestStoredSession()
      if (!latest) return false
      // Taking the session again for Bitcoin leaves its eip155 chain and Solana cluster as they were.
      const isSame = session?.topic === latest.topic
      adoptSession(latest, { chainId: isSame ? chainId : undefined, solanaCaipNetworkId: isSame ? solanaCluster : undefined, bip122CaipNetworkId: preferredCaipNetworkId })
      return bip122Network !== undefined
    },
    getAccounts: async () => bip122Accounts(),
    /** `fallback` when the wallet approved that network, else the one acted on. */
    async getCaipNetworkId(fallback?: string): Promise<CaipNetworkId> {
      const current = requireBip122()
      return fallback !== undefined && bip122Networks(current.session).includes(fallback as CaipNetworkId) ? (fallback as CaipNetworkId) : current.network
    },
    /** A network the wallet approved needs no round trip (its addresses there are in the session); another is refused. */
    async switchNetwork(caipNetworkId: string) {
      const { session: current, network } = requireBip122(caipNetworkId)
      if (bitcoinAddresses(current, network).length === 0) throw createWidgetError('CHAIN_NOT_SUPPORTED', { details: `The wallet approved no address on ${network}` })
      bip122Network = network
    },
    /** WalletConnect's Bitcoin signMessage with the BIP-322 protocol: the signature comes back hex and leaves as base64. */
    async signMessage({ message, address, caipNetworkId }: Bip122SignMessageParameters): Promise<string> {
      const [account] = bip122Accounts(caipNetworkId)
      const result = await bip122Request<{ signature?: unknown } | null>('signMessage', { account, address, message, protocol: 'bip322' }, caipNetworkId)
      return decodeBitcoinSignature(result?.signature)
    },
    /**
     * WalletConnect's Bitcoin signPsbt: `address` signs the inputs at `signingIndexes`; the wallet is asked not to
     * broadcast (the worker's bitcoin client finalizes and broadcasts, then waits for the block).
     */
    async signPsbt({ psbtBase64, address, signingIndexes, caipNetworkId }: Bip122SignPsbtParameters): Promise<string> {
      if (!isPsbt(readBase64(psbtBase64))) throw createWidgetError('INVALID_PARAMS', { field: 'psbtBase64', details: 'Not a base64 PSBT' })
      if (!Array.isArray(signingIndexes) || signingIndexes.length === 0 || !signingIndexes.every((i) => Number.isInteger(i) && i >= 0)) {
        throw createWidgetError('INVALID_PARAMS', { field: 'signingIndexes', details: 'The inputs to sign must be a non-empty list of input indexes' })
      }
      const [account] = bip122Accounts(caipNetworkId)
      const signInputs = signingIndexes.map((index) => ({ address, index }))
      const result = await bip122Request<{ psbt?: unknown } | null>('signPsbt', { account, psbt: psbtBase64, signInputs, broadcast: false }, caipNetworkId)
      return decodePsbt(result?.psbt)
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
      adoptSession(latest, {
        chainId: preferredChainId,
        solanaCaipNetworkId: session?.topic === latest.topic ? solanaCluster : undefined,
        bip122CaipNetworkId: session?.topic === latest.topic ? bip122Network : undefined,
      })
      return chainId !== undefined
    },
    /** Proposes a session: the URI goes into the QR code or a deep link, the approval settles when the wallet answers. */
    async pair(preferredChainId?: number, preferredSolanaCaipNetworkId?: string, preferredBip122CaipNetworkId?: string): Promise<Pairing> {
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
        ...(hasBip122 && { bip122: { chains: bip122CaipNetworkIds, methods: bip122Methods, events: bip122Events } }),
      }
      const { uri, approval } = await Promise.race([client.connect({ optionalNamespaces }), timeout])
        .catch((error: unknown) => {
          throw createWidgetError('WALLETCONNECT_UNAVAILABLE', { details: `${relayUrl}: ${(error as Error)?.message ?? String(error)}`, cause: error })
        })
        .finally(() => clearTimeout(timer))
      if (!uri) throw createWidgetError('WALLETCONNECT_UNAVAILABLE', { details: 'The sign client made no pairing URI' })
      return {
        uri,
        approval: approval().then((next) => adoptSession(next, { chainId: preferredChainId, solanaCaipNetworkId: preferredSolanaCaipNetworkId, bip122CaipNetworkId: preferredBip122CaipNetworkId }), (error: unknown) => {
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
    bip122,
  }
}

export type WalletConnectSession = ReturnType<typeof createWalletConnectSession>
