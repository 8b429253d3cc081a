import { parseCaipNetworkId } from '../../../shared/protocol/caip'
import type { PolkadotBalance, PolkadotChainConfig, PolkadotSignerPayload, PolkadotSubmission, PolkadotTransferParameters } from '../../../shared/families/polkadot/coreApi'
import { createWidgetError } from '../../../shared/protocol/errors'
import { createChainClientRegistry } from '../createChainClientRegistry'
import { createPolkadotClient, type CreatePolkadotClientParameters, type PolkadotClient } from './polkadot'

export type { PolkadotChainConfig } from '../../../shared/families/polkadot/coreApi'

export type CreatePolkadotWorkerApiParameters = Omit<CreatePolkadotClientParameters, 'caipNetworkId' | 'rpcUrl' | 'rpcUrls'> & { chains: readonly PolkadotChainConfig[] }

type OnNetwork = { caipNetworkId: string }

/**
 * The Polkadot calls of the core worker (`core.polkadot`, PolkadotCoreApi), one dedot client per configured
 * network picked by CAIP-2 id (each connects on its first call); an id that is not configured answers
 * NETWORK_NOT_FOUND. Values are structured-cloneable. destroy() closes every connection.
 * @example const dot = createPolkadotWorkerApi({ chains: [{ caipNetworkId: 'polkadot:91b171bb158e2d3848fa23a9f1c25182', rpcUrl: 'wss://rpc.polkadot.io' }] })
 */
export function createPolkadotWorkerApi({ chains, ...clientOptions }: CreatePolkadotWorkerApiParameters) {
  const clients = createChainClientRegistry<PolkadotClient>()
  for (const [index, { caipNetworkId, rpcUrl, rpcUrls = rpcUrl === undefined ? [] : [rpcUrl] }] of chains.entries()) {
    const field = `familyChains.polkadot.${index}.caipNetworkId`
    const parsed = typeof caipNetworkId === 'string' ? parseCaipNetworkId(caipNetworkId) : undefined
    if (parsed?.namespace !== 'polkadot') throw createWidgetError('INVALID_CONFIG', { field, details: `"${String(caipNetworkId)}" is not a polkadot CAIP-2 network id` })
    if (clients.has('polkadot', parsed.reference)) throw createWidgetError('INVALID_CONFIG', { field, details: `${caipNetworkId} is configured twice` })
    if (!Array.isArray(rpcUrls) || rpcUrls.length === 0 || !rpcUrls.every((url) => typeof url === 'string' && url)) throw createWidgetError('NO_RPC_URL', { field: `familyChains.polkadot.${index}.rpcUrls`, details: caipNetworkId })
    clients.set('polkadot', parsed.reference, createPolkadotClient({ ...clientOptions, caipNetworkId, rpcUrls }))
  }

  const clientFor = (caipNetworkId: string) => {
    const parsed = typeof caipNetworkId === 'string' ? parseCaipNetworkId(caipNetworkId) : undefined
    if (parsed?.namespace !== 'polkadot') throw createWidgetError('NETWORK_NOT_FOUND', { details: `"${String(caipNetworkId)}" is not a Polkadot network id` })
    return clients.get('polkadot', parsed.reference)
  }

  return {
    /** Genesis, SS58 prefix, token, existential deposit and runtime version, as the node says. */
    getChainInfo: async ({ caipNetworkId }: OnNetwork) => clientFor(caipNetworkId).getChainInfo(),
    /** What the store keeps of a balance: the free planck, the balance wallets show. */
    nativeBalance: ({ free }: PolkadotBalance) => free,
    /** Planck: free, reserved, frozen and transferable. */
    getBalance: async ({ caipNetworkId, address }: OnNetwork & { address: string }) => clientFor(caipNetworkId).getBalance(address),
    /** The fee in planck of `balances.transferKeepAlive`, the node's estimate. */
    estimateTransferFee: async ({ caipNetworkId, ...transfer }: OnNetwork & PolkadotTransferParameters) => clientFor(caipNetworkId).estimateTransferFee(transfer),
    /** The signing payload for the extension's signPayload (and its bytes for signRaw), the fee and the era's end. */
    buildTransfer: async ({ caipNetworkId, ...transfer }: OnNetwork & PolkadotTransferParameters) => clientFor(caipNetworkId).buildTransfer(transfer),
    /** Adds the extension's signature to the payload and submits the transaction. */
    submitTransfer: async ({ caipNetworkId, payload, signature }: OnNetwork & { payload: PolkadotSignerPayload; signature: string }) =>
      clientFor(caipNetworkId).submitTransfer({ payload, signature }),
    /** Resolves once a block holds the transaction ('inBlock') or that block is final ('finalized'). */
    waitForTransaction: async ({ caipNetworkId, submission, until, pollIntervalMs, maxWaitMs }: OnNetwork & {
      submission: PolkadotSubmission
      until?: 'inBlock' | 'finalized'
      pollIntervalMs?: number
      maxWaitMs?: number
    }) => clientFor(caipNetworkId).waitForTransaction({ submission, until, pollIntervalMs, maxWaitMs }),
    /** Closes every network's connection. */
    destroy: async () => {
      await Promise.all(clients.values().map((client) => client.destroy()))
    },
  }
}

export type PolkadotWorkerApi = ReturnType<typeof createPolkadotWorkerApi>
