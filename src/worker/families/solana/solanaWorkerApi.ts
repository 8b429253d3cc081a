import { parseCaipNetworkId, type CaipNetworkId } from '../../../shared/protocol/caip'
import { createWidgetError } from '../../../shared/protocol/errors'
import { createChainClientRegistry } from '../createChainClientRegistry'
import type { SolanaChainConfig } from '../../../shared/families/solana/coreApi'
import { reviewSolanaTransaction } from './review'
import { createSolanaClient, type CreateSolanaClientParameters, type SolanaClient, type SolanaTransferParameters } from './solana'

export type { SolanaChainConfig } from '../../../shared/families/solana/coreApi'

export type CreateSolanaWorkerApiParameters = Omit<CreateSolanaClientParameters, 'rpcUrl' | 'rpcUrls'> & { chains: readonly SolanaChainConfig[] }

type OnNetwork = { caipNetworkId: string }

/**
 * The Solana calls of the core worker (`core.solana`, SolanaCoreApi), one client per configured cluster picked by
 * CAIP-2 id; an id that is not configured (or not Solana) answers NETWORK_NOT_FOUND. Arguments and results are
 * structured-cloneable.
 * @example const solana = createSolanaWorkerApi({ chains: [{ caipNetworkId: 'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1', rpcUrl }] })
 */
export function createSolanaWorkerApi({ chains, ...clientOptions }: CreateSolanaWorkerApiParameters) {
  const clients = createChainClientRegistry<SolanaClient>()
  for (const [index, { caipNetworkId, rpcUrl, rpcUrls = rpcUrl === undefined ? [] : [rpcUrl] }] of chains.entries()) {
    const parsed = typeof caipNetworkId === 'string' ? parseCaipNetworkId(caipNetworkId) : undefined
    const field = `chains.${index}.caipNetworkId`
    if (parsed?.namespace !== 'solana') throw createWidgetError('INVALID_CONFIG', { field, details: `"${String(caipNetworkId)}" is not a solana CAIP-2 network id` })
    if (clients.has('solana', parsed.reference)) throw createWidgetError('INVALID_CONFIG', { field, details: `${caipNetworkId} is configured twice` })
    if (!Array.isArray(rpcUrls) || rpcUrls.length === 0 || !rpcUrls.every((url) => typeof url === 'string' && url)) throw createWidgetError('NO_RPC_URL', { field: `chains.${index}.rpcUrls`, details: caipNetworkId })
    clients.set('solana', parsed.reference, createSolanaClient({ ...clientOptions, rpcUrls }))
  }

  const clientFor = (caipNetworkId: string) => {
    const parsed = typeof caipNetworkId === 'string' ? parseCaipNetworkId(caipNetworkId) : undefined
    if (parsed?.namespace !== 'solana') throw createWidgetError('NETWORK_NOT_FOUND', { details: `"${String(caipNetworkId)}" is not a Solana network id` })
    return clients.get('solana', parsed.reference)
  }

  return {
    /** Stops every cluster's ranking pings (the core configured anew). */
    destroy: () => clients.values().forEach((client) => client.close()),
    /** What the store keeps of a balance: the lamports. */
    nativeBalance: (lamports: bigint) => lamports,
    /** SOL balance in lamports. */
    getBalance: async ({ caipNetworkId, address }: OnNetwork & { address: string }) => clientFor(caipNetworkId).getBalance(address),
    /** SPL Token and Token-2022 balances, 0-decimal tokens dropped. */
    getTokenBalances: async ({ caipNetworkId, owner }: OnNetwork & { owner: string }) => clientFor(caipNetworkId).getTokenBalances(owner),
    /** The unsigned wire transaction for the wallet to sign, and the block height it is valid until. */
    buildTransfer: async ({ caipNetworkId, ...transfer }: OnNetwork & SolanaTransferParameters) => clientFor(caipNetworkId).buildTransfer(transfer),
    /** The fee in lamports for a wire transaction. */
    estimateFee: async ({ caipNetworkId, transaction }: OnNetwork & { transaction: Uint8Array }) => clientFor(caipNetworkId).estimateFee(transaction),
    /** Sends the wallet's signed wire transaction; answers its base58 signature. */
    sendTransaction: async ({ caipNetworkId, transaction }: OnNetwork & { transaction: Uint8Array }) => clientFor(caipNetworkId).sendTransaction(transaction),
    /** What a wire transaction a site asks the wallet to sign will do: instructions decoded, fee, simulated balance changes, warnings. */
    reviewTransaction: async ({ caipNetworkId, transaction, account }: OnNetwork & { transaction: Uint8Array | string; account?: string }) => {
      const client = clientFor(caipNetworkId)
      return reviewSolanaTransaction({ read: client.read, caipNetworkId: caipNetworkId as CaipNetworkId, transaction, account, commitment: client.commitment })
    },
    /** Resolves once the transaction reaches the commitment; SOLANA_SEND_FAILED when it failed or expired. */
    waitForConfirmation: async ({ caipNetworkId, signature, lastValidBlockHeight, pollIntervalMs, maxWaitMs }: OnNetwork & {
      signature: string
      lastValidBlockHeight: bigint
      pollIntervalMs?: number
      maxWaitMs?: number
    }) => clientFor(caipNetworkId).waitForConfirmation({ signature, lastValidBlockHeight, pollIntervalMs, maxWaitMs }),
  }
}

export type SolanaWorkerApi = ReturnType<typeof createSolanaWorkerApi>
