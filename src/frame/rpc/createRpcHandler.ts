import * as z from 'zod/mini'
import { formatEther, getAddress, numberToHex, type Address, type Client, type Hash, type Hex } from 'viem'
import { getBalance, getTransactionReceipt, prepareTransactionRequest, sendRawTransaction } from 'viem/actions'
import { privateKeyToAccount } from 'viem/accounts'
import { createWidgetError } from '../../shared/protocol/errors'
import { isFrameRpcMethodAllowed, isSafeRpcMethod } from '../../shared/protocol/rpcMethods'
import { parseOrThrow } from '../../shared/protocol/schemas/parse'
import type { FrameEvmNetwork, FrameSolanaNetwork } from '../config/frameConfig'
import type { KeyVault } from '../keys/createKeyVault'
import type { ApprovalRequest } from './approvalRequest'
import type { SmartAccounts } from '../smartAccount/createSmartAccounts'
import { chainIdHex, personalSign, sendCallsParams, sendTransaction, signTypedDataV4, toEvmWidgetError, type EvmRequestContext } from './evmRequests'
import { smartCallsStatus, smartSendCalls, smartSendTransaction, type SmartRequestContext } from './smartAccountRequests'
import { solanaSignAllTransactions, solanaSignAndSendTransaction, solanaSignMessage, solanaSignTransaction, type SolanaRequestContext } from './solanaRequests'

export type RpcRequest = { method: string; params?: unknown; chainNamespace?: string; chainId?: string | number }

/** The network a request acts on: an EVM chain with its viem client, or a Solana cluster. */
export type ResolvedNetwork = { namespace: 'eip155'; network: FrameEvmNetwork; client: Client } | { namespace: 'solana'; network: FrameSolanaNetwork }

export type CreateRpcHandlerParameters = {
  vault: KeyVault
  /** The network of `namespace` the request names (its chainId), else the one the frame is on for that namespace. */
  resolveNetwork: (namespace: 'eip155' | 'solana', chainId: string | number | undefined) => ResolvedNetwork
  evmNetworks: () => readonly FrameEvmNetwork[]
  approve: (request: ApprovalRequest) => Promise<void>
  /** The wallet's smart accounts: on a network that has one and while the person prefers it, EVM requests act as it. */
  smartAccounts: SmartAccounts
  fetch?: typeof fetch
  /** wallet_sendCalls bundles remembered for wallet_getCallsStatus; past it the oldest go. */
  maxCallBundles?: number
}

const getCallsStatusParams = z.tuple([z.string().check(z.minLength(1), z.maxLength(200))])
const getAssetsParams = z.tuple([z.object({ account: z.string().check(z.regex(/^0x[0-9a-fA-F]{40}$/, 'Expected an address')), chainFilter: z.optional(z.array(z.string()).check(z.maxLength(50))) })])

/**
 * The frame's RPC (SPEC §6), in this order:
 * 1. a method outside the safe, unsafe and frame-only lists: 'Requested RPC call is not allowed';
 * 2. eth_chainId and eth_accounts from the frame itself; the other safe reads through the chain's RPC;
 * 3. the unsafe methods: shown to the person for approval inside the frame, then signed here (eip155 and solana); on
 *    a network with a smart account that the person prefers, the EVM ones act as it (one UserOperation for a
 *    transaction or a whole batch); permissions and raw user operations are answered 4200;
 * 4. wallet_getCapabilities, wallet_getCallsStatus and wallet_getAssets answered from the frame and the chain.
 * @example const handle = createRpcHandler({ vault, resolveNetwork, evmNetworks, approve }); await handle({ method: 'eth_chainId' })
 */
export function createRpcHandler({ vault, resolveNetwork, evmNetworks, approve, smartAccounts, fetch: fetchFn, maxCallBundles = 100 }: CreateRpcHandlerParameters) {
  const bundles = new Map<string, { chainId: number; hashes: Hash[]; client: Client }>()

  const evmContext = (resolved: Extract<ResolvedNetwork, { namespace: 'eip155' }>): EvmRequestContext => {
    const { eip155 } = vault.keys()
    return { network: resolved.network, client: resolved.client, privateKey: eip155.privateKey, address: eip155.address, approve }
  }
  /** The smart-account side of a request on `resolved`, when that is how the wallet acts there. */
  const smartContext = (resolved: Extract<ResolvedNetwork, { namespace: 'eip155' }>): SmartRequestContext | undefined =>
    smartAccounts.isActive(resolved.network) ? { network: resolved.network, client: resolved.client, smartAccounts, approve } : undefined
  /** What signs messages and typed data: the smart account where it is active, else the key. */
  const signingContext = async (resolved: Extract<ResolvedNetwork, { namespace: 'eip155' }>): Promise<EvmRequestContext> => {
    const context = evmContext(resolved)
    if (!smartAccounts.isActive(resolved.network)) return context
    const smartAccount = await smartAccounts.accountFor(resolved.network, resolved.client)
    return { ...context, address: smartAccount.address, smartAccount }
  }
  const solanaContext = (resolved: Extract<ResolvedNetwork, { namespace: 'solana' }>): SolanaRequestContext => {
    const { solana } = vault.keys()
    return { network: resolved.network, secretKey: solana.secretKey, address: solana.address, approve, ...(fetchFn && { fetch: fetchFn }) }
  }
  const asEvm = (resolved: ResolvedNetwork) => {
    if (resolved.namespace !== 'eip155') throw createWidgetError('UNSUPPORTED_CHAIN_ID')
    return resolved
  }
  const asSolana = (resolved: ResolvedNetwork) => {
    if (resolved.namespace !== 'solana') throw createWidgetError('UNSUPPORTED_CHAIN_ID')
    return resolved
  }

  /** wallet_sendCalls, one call after the other (not atomic): one approval for all, each signed and sent in turn. */
  async function sendCalls(params: unknown, resolved: Extract<ResolvedNetwork, { namespace: 'eip155' }>) {
    const [request] = parseOrThrow(sendCallsParams, params, 'wallet_sendCalls params', ['params'])
    const context = evmContext(resolved)
    if (request.from !== undefined && getAddress(request.from) !== context.address) throw createWidgetError('UNAUTHORIZED', { details: `${request.from} is not this wallet's account` })
    if (request.chainId !== undefined && BigInt(request.chainId) !== BigInt(resolved.network.chainId)) throw createWidgetError('UNSUPPORTED_CHAIN_ID')
    if (request.atomicRequired) throw createWidgetError('ATOMICITY_NOT_SUPPORTED')
    await approve({
      kind: 'sendCalls',
      network: resolved.network.name,
      account: context.address,
      symbol: resolved.network.nativeCurrency.symbol,
      atomic: false,
      calls: request.calls.map((call) => ({ to: getAddress(call.to), amount: formatEther(BigInt(call.value ?? '0x0')), dataBytes: call.data ? (call.data.length - 2) / 2 : 0 })),
    })
    const account = privateKeyToAccount(context.privateKey)
    const hashes: Hash[] = []
    try {
      for (const call of request.calls) {
        const prepared = await prepareTransactionRequest(resolved.client, { account, chain: resolved.client.chain, to: call.to as Address, value: BigInt(call.value ?? '0x0'), data: call.data as Hex | undefined } as never)
        hashes.push(await sendRawTransaction(resolved.client, { serializedTransaction: await account.signTransaction(prepared as never) }))
      }
    } catch (error) {
      if (hashes.length === 0) throw toEvmWidgetError(error)
    }
    const id = hashes[0]!
    bundles.set(id, { chainId: resolved.network.chainId, hashes, client: resolved.client })
    for (const oldest of bundles.keys()) if (bundles.size > maxCallBundles) bundles.delete(oldest)
    return { id }
  }

  /** wallet_getCallsStatus (EIP-5792 v2): 100 while a call is pending, 200 when all succeeded, 500 when one reverted. */
  async function getCallsStatus(params: unknown) {
    const [id] = parseOrThrow(getCallsStatusParams, params, 'wallet_getCallsStatus params', ['params'])
    const smartChainId = smartAccounts.chainOf(id)
    if (smartChainId !== undefined) {
      const { network, client } = asEvm(resolveNetwork('eip155', smartChainId))
      return smartCallsStatus(id as Hex, { network, client, smartAccounts })
    }
    const bundle = bundles.get(id)
    if (!bundle) throw createWidgetError('UNKNOWN_BUNDLE_ID')
    const receipts = await Promise.all(bundle.hashes.map((hash) => getTransactionReceipt(bundle.client, { hash }).catch(() => undefined)))
    const isPending = receipts.some((receipt) => receipt === undefined)
    const isReverted = receipts.some((receipt) => receipt?.status === 'reverted')
    return {
      version: '2.0.0',
      id,
      chainId: numberToHex(bundle.chainId),
      atomic: false,
      status: isPending ? 100 : isReverted ? 500 : 200,
      receipts: receipts.filter((receipt) => receipt !== undefined).map((receipt) => ({
        logs: receipt.logs.map(({ address, data, topics }) => ({ address, data, topics })),
        status: receipt.status === 'success' ? '0x1' : '0x0',
        blockHash: receipt.blockHash,
        blockNumber: numberToHex(receipt.blockNumber),
        gasUsed: numberToHex(receipt.gasUsed),
        transactionHash: receipt.transactionHash,
      })),
    }
  }

  /** wallet_getAssets: the native balance on each configured chain (or those of chainFilter), with its metadata. */
  async function getAssets(params: unknown, resolved: Extract<ResolvedNetwork, { namespace: 'eip155' }>) {
    const [{ account, chainFilter }] = parseOrThrow(getAssetsParams, params, 'wallet_getAssets params', ['params'])
    const networks = evmNetworks().filter((n) => !chainFilter || chainFilter.some((id) => BigInt(id) === BigInt(n.chainId)))
    const entries = await Promise.all(
      networks.map(async (network) => {
        const { client } = network.chainId === resolved.network.chainId ? resolved : asEvm(resolveNetwork('eip155', network.chainId))
        const balance = await getBalance(client, { address: getAddress(account) }).catch((error: unknown) => {
          throw toEvmWidgetError(error)
        })
        const { name, symbol, decimals } = network.nativeCurrency
        return [numberToHex(network.chainId), [{ address: 'native', balance: numberToHex(balance), type: 'NATIVE', metadata: { name, symbol, decimals } }]] as const
      }),
    )
    return Object.fromEntries(entries)
  }

  return async function handleRpc({ method, params, chainNamespace, chainId }: RpcRequest): Promise<unknown> {
    if (!isFrameRpcMethodAllowed(method)) throw createWidgetError('RPC_NOT_ALLOWED', { details: method.slice(0, 100) })
    const namespace = method.startsWith('solana_') ? 'solana' : 'eip155'
    if (chainNamespace !== undefined && chainNamespace !== namespace) throw createWidgetError('UNSUPPORTED_CHAIN_ID', { details: `${method} is not a ${chainNamespace} method` })
    const resolved = resolveNetwork(namespace, chainId)
    switch (method) {
      case 'eth_chainId':
        return chainIdHex(asEvm(resolved).network)
      case 'eth_accounts': {
        const open = vault.publicKeys()
        if (!open) return []
        const evm = asEvm(resolved)
        return smartAccounts.isActive(evm.network) ? [(await smartAccounts.accountFor(evm.network, evm.client)).address] : [open.eip155.address]
      }
      case 'personal_sign':
        return personalSign(params, await signingContext(asEvm(resolved)))
      case 'eth_signTypedData_v4':
        return signTypedDataV4(params, await signingContext(asEvm(resolved)))
      case 'eth_sendTransaction': {
        const smart = smartContext(asEvm(resolved))
        return smart ? smartSendTransaction(params, smart) : sendTransaction(params, evmContext(asEvm(resolved)))
      }
      case 'wallet_sendCalls': {
        const smart = smartContext(asEvm(resolved))
        return smart ? smartSendCalls(params, smart) : sendCalls(params, asEvm(resolved))
      }
      case 'wallet_getCallsStatus':
        return getCallsStatus(params)
      case 'wallet_getCapabilities':
        return Object.fromEntries(
          evmNetworks().map((network) => [
            numberToHex(network.chainId),
            smartAccounts.isActive(network) ? { atomic: { status: 'supported' }, paymasterService: { supported: network.smartAccount?.paymasterUrl !== undefined } } : { atomic: { status: 'unsupported' } },
          ]),
        )
      case 'wallet_getAssets':
        return getAssets(params, asEvm(resolved))
      case 'solana_signMessage':
        return solanaSignMessage(params, solanaContext(asSolana(resolved)))
      case 'solana_signTransaction':
        return solanaSignTransaction(params, solanaContext(asSolana(resolved)))
      case 'solana_signAllTransactions':
        return solanaSignAllTransactions(params, solanaContext(asSolana(resolved)))
      case 'solana_signAndSendTransaction':
        return solanaSignAndSendTransaction(params, solanaContext(asSolana(resolved)))
      case 'wallet_grantPermissions':
      case 'wallet_revokePermissions':
      case 'eth_sendUserOperation':
        throw createWidgetError('UNSUPPORTED_METHOD', { details: `${method} is not offered: calls go through wallet_sendCalls` })
    }
    if (isSafeRpcMethod(method)) {
      const { client } = asEvm(resolved)
      try {
        return await client.request({ method, params } as never)
      } catch (error) {
        throw toEvmWidgetError(error)
      }
    }
    throw createWidgetError('RPC_NOT_ALLOWED', { details: method.slice(0, 100) })
  }
}
