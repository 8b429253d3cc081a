import { getBitcoinNetwork } from '../../../shared/families/bip122/address'
import { parseCaipNetworkId, type CaipNetworkId } from '../../../shared/protocol/caip'
import type { BitcoinBalance, BitcoinChainConfig, BitcoinTransferParameters } from '../../../shared/families/bip122/coreApi'
import { createWidgetError } from '../../../shared/protocol/errors'
import { createBitcoinClient, type BitcoinClient, type CreateBitcoinClientParameters } from './bitcoin'
import { createChainClientRegistry } from '../createChainClientRegistry'
import { reviewPsbt } from './review'

export type { BitcoinChainConfig } from '../../../shared/families/bip122/coreApi'

export type CreateBitcoinWorkerApiParameters = Omit<CreateBitcoinClientParameters, 'apiUrl' | 'apiUrls' | 'network'> & { chains: readonly BitcoinChainConfig[] }

type OnNetwork = { caipNetworkId: string }

/**
 * The Bitcoin calls of the core worker (`core.bitcoin`, BitcoinCoreApi), one Esplora client per configured network
 * picked by CAIP-2 id (mainnet, testnet, signet or regtest); an id that is not configured answers NETWORK_NOT_FOUND.
 * Values are structured-cloneable.
 * @example const bitcoin = createBitcoinWorkerApi({ chains: [{ caipNetworkId: 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328', apiUrl }] })
 */
export function createBitcoinWorkerApi({ chains, ...clientOptions }: CreateBitcoinWorkerApiParameters) {
  const clients = createChainClientRegistry<BitcoinClient>()
  for (const [index, { caipNetworkId, apiUrl, apiUrls = apiUrl === undefined ? [] : [apiUrl] }] of chains.entries()) {
    const field = `familyChains.bip122.${index}.caipNetworkId`
    const parsed = typeof caipNetworkId === 'string' ? parseCaipNetworkId(caipNetworkId) : undefined
    const network = parsed?.namespace === 'bip122' ? getBitcoinNetwork(caipNetworkId) : undefined
    if (!parsed || !network) {
      throw createWidgetError('INVALID_CONFIG', { field, details: `"${String(caipNetworkId)}" is not the CAIP-2 id of Bitcoin mainnet, testnet, signet or regtest` })
    }
    if (clients.has('bip122', parsed.reference)) throw createWidgetError('INVALID_CONFIG', { field, details: `${caipNetworkId} is configured twice` })
    if (!Array.isArray(apiUrls) || apiUrls.length === 0 || !apiUrls.every((url) => typeof url === 'string' && url)) throw createWidgetError('NO_RPC_URL', { field: `familyChains.bip122.${index}.apiUrls`, details: caipNetworkId })
    clients.set('bip122', parsed.reference, createBitcoinClient({ ...clientOptions, apiUrls, network }))
  }

  const clientFor = (caipNetworkId: string) => {
    const parsed = typeof caipNetworkId === 'string' ? parseCaipNetworkId(caipNetworkId) : undefined
    if (parsed?.namespace !== 'bip122') throw createWidgetError('NETWORK_NOT_FOUND', { details: `"${String(caipNetworkId)}" is not a Bitcoin network id` })
    return clients.get('bip122', parsed.reference)
  }

  return {
    /** Stops every network's ranking pings (the core configured anew). */
    destroy: () => clients.values().forEach((client) => client.close()),
    /** What the store keeps of a balance: confirmed + pending, what the account can count on spending. */
    nativeBalance: ({ confirmed, pending }: BitcoinBalance) => confirmed + pending,
    /** Sats, confirmed and pending (the mempool's change). */
    getBalance: async ({ caipNetworkId, address }: OnNetwork & { address: string }) => clientFor(caipNetworkId).getBalance(address),
    /** sat/vB for about 1, 3 and 6 blocks. */
    getFeeRates: async ({ caipNetworkId }: OnNetwork) => clientFor(caipNetworkId).getFeeRates(),
    /** The unsigned PSBT for the wallet's signPsbt, its fee, inputs and change. */
    buildTransfer: async ({ caipNetworkId, ...transfer }: OnNetwork & BitcoinTransferParameters) => clientFor(caipNetworkId).buildTransfer(transfer),
    /** Sends a signed raw transaction; answers its txid. */
    broadcast: async ({ caipNetworkId, txHex }: OnNetwork & { txHex: string }) => clientFor(caipNetworkId).broadcast(txHex),
    /** Finalizes the PSBT the wallet signed and sends it; answers its txid. */
    finalizeAndBroadcast: async ({ caipNetworkId, psbtBase64 }: OnNetwork & { psbtBase64: string }) => clientFor(caipNetworkId).finalizeAndBroadcast(psbtBase64),
    /** What a PSBT does for the account: inputs, outputs, fee and fee rate, net change, warnings (no node asked). */
    reviewPsbt: async ({ caipNetworkId, psbt, addresses, signingIndexes }: OnNetwork & { psbt: string; addresses: readonly string[]; signingIndexes?: readonly number[] }) =>
      reviewPsbt({ network: clientFor(caipNetworkId).network, caipNetworkId: caipNetworkId as CaipNetworkId, psbt, addresses, signingIndexes }),
    /** Resolves once the transaction is in a block; RPC_TIMEOUT after maxWaitMs. */
    waitForConfirmation: async ({ caipNetworkId, txid, pollIntervalMs, maxWaitMs }: OnNetwork & { txid: string; pollIntervalMs?: number; maxWaitMs?: number }) =>
      clientFor(caipNetworkId).waitForConfirmation({ txid, pollIntervalMs, maxWaitMs }),
  }
}

export type BitcoinWorkerApi = ReturnType<typeof createBitcoinWorkerApi>
