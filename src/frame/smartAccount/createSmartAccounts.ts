import { decodeErrorResult, http, isHex, numberToHex, parseAbi, type Address, type Client, type Hex, type Transport } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import {
  createBundlerClient,
  createPaymasterClient,
  getUserOperationReceipt,
  prepareUserOperation,
  sendUserOperation,
  waitForUserOperationReceipt,
  type BundlerClient,
  type PaymasterClient,
  type SmartAccount,
  type UserOperation,
  type UserOperationReceipt,
} from 'viem/account-abstraction'
import { estimateFeesPerGas, getBalance, getCode } from 'viem/actions'
import { findSponsorshipRefusal } from '../../shared/protocol/paymasterErrors'
import { RPC_TIMEOUT_MS } from '../../shared/protocol/constants'
import { createWidgetError } from '../../shared/protocol/errors'
import type { FrameEvmNetwork } from '../config/frameConfig'
import type { KeyVault } from '../keys/createKeyVault'
import { toEvmWidgetError, withGasRoom } from '../rpc/evmRequests'
import { toTesseraAccount } from './toTesseraAccount'

export type AccountType = 'eoa' | 'smartAccount'
export type Call = { to: Address; value: bigint; data: Hex | undefined }
/** Who pays the network fee of an operation: the app's sponsor, or the account (with the sponsor's refusal, if one). */
export type FeePayer = { kind: 'sponsor' } | { kind: 'account'; maxFeeWei: bigint; refusal: SponsorRefusal | undefined }
/** Why the sponsor did not pay: its refusal (code and sentence, the paymaster service's), or that it could not be reached. */
export type SponsorRefusal = { reason: 'refused'; message: string; code: number } | { reason: 'unreachable' }
export type PreparedOperation = { userOperation: UserOperation<'0.8'>; feePayer: FeePayer; account: SmartAccount }

type SmartAccountNetwork = FrameEvmNetwork & { smartAccount: NonNullable<FrameEvmNetwork['smartAccount']> }

/** How often the frame asks the bundler whether an operation has landed. */
const RECEIPT_POLL_MS = 250
/** How long eth_sendTransaction through the smart account waits for its operation to land. */
const RECEIPT_TIMEOUT_MS = 120_000
/** Operations remembered for wallet_getCallsStatus; past it the oldest go. */
const MAX_OPERATIONS = 200

/** A bundler transport whose call gas estimates carry room (see withGasRoom): every operation's gas, sponsored or not, is set from them. */
function withCallGasRoomIn(transport: Transport): Transport {
  return (parameters) => {
    const bundler = transport(parameters)
    const request = (async (args) => {
      const result = await bundler.request(args)
      const estimate = result as { callGasLimit?: unknown } | null
      if (args.method !== 'eth_estimateUserOperationGas' || !isHex(estimate?.callGasLimit, { strict: true }) || estimate.callGasLimit.length > 66) return result
      return { ...estimate, callGasLimit: numberToHex(withGasRoom(BigInt(estimate.callGasLimit))) }
    }) as typeof bundler.request
    return { ...bundler, request }
  }
}

/** SimpleAccount v0.8's executeBatch: which call failed, and its revert data. */
const executeErrorAbi = parseAbi(['error ExecuteError(uint256 index, bytes reason)'])

/** A revert's reason in words: Error(string), a panic, a custom error's name, else that it gave none. */
function revertReason(data: Hex): string {
  try {
    const decoded = decodeErrorResult({ abi: executeErrorAbi, data }) as { errorName: string; args?: readonly unknown[] }
    const reason = decoded.errorName === 'Error' ? String(decoded.args?.[0]) : decoded.errorName === 'Panic' ? `panic ${String(decoded.args?.[0])}` : decoded.errorName
    return reason.slice(0, 200)
  } catch {
    return data.length > 2 ? `error ${data.slice(0, 10)}` : 'no reason given'
  }
}

/**
 * A failed preparation as a WidgetError: the EntryPoint's AA21 (the account cannot pay the prefund) as
 * INSUFFICIENT_FUNDS; a call the simulation reverted as CALL_WOULD_FAIL naming the call and its reason; the rest as
 * the node's errors are.
 */
export function toUserOperationError(error: unknown, callCount: number) {
  const texts: string[] = []
  for (let e = error as { cause?: unknown; details?: unknown; message?: unknown } | undefined, depth = 0; e && depth < 8; e = e.cause as never, depth++) {
    for (const text of [e.details, e.message]) if (typeof text === 'string') texts.push(text)
  }
  const text = texts.join('\n')
  if (/\bAA21\b/.test(text)) return createWidgetError('INSUFFICIENT_FUNDS', { details: 'the smart account cannot pay the network fee (AA21)', cause: error })
  const revert = /reverted during simulation with reason: (0x[0-9a-fA-F]*)/.exec(text)?.[1] as Hex | undefined
  if (revert !== undefined) {
    let index = 0
    let inner = revert
    try {
      const decoded = decodeErrorResult({ abi: executeErrorAbi, data: revert })
      if (decoded.errorName === 'ExecuteError') [index, inner] = [Number(decoded.args[0]), decoded.args[1]]
    } catch {
      // a single call's own revert (execute bubbles it up as it is)
    }
    return createWidgetError('CALL_WOULD_FAIL', { params: { index: index + 1, count: callCount, reason: revertReason(inner) }, cause: error })
  }
  return toEvmWidgetError(error)
}

const hasSmartAccount = (network: FrameEvmNetwork): network is SmartAccountNetwork => network.smartAccount !== undefined

/** The paymaster's refusal (or its absence) found in a failed preparation; undefined when the failure is not the paymaster's. */
function sponsorRefusal(error: unknown, paymasterUrl: string): SponsorRefusal | undefined {
  const refusal = findSponsorshipRefusal(error)
  if (refusal) return { reason: 'refused', ...refusal }
  const chain: { url?: unknown; cause?: unknown }[] = []
  for (let e = error as { cause?: unknown } | undefined, depth = 0; e && depth < 8; e = e.cause as never, depth++) chain.push(e as never)
  return chain.some((e) => typeof e.url === 'string' && e.url.startsWith(paymasterUrl)) ? { reason: 'unreachable' } : undefined
}

/**
 * An operation's fees: the bundler's own price (Alto's pimlico_getUserOperationGasPrice, `standard`), else the
 * node's doubled as viem does. (viem's default alone, twice the node's suggested tip, compounds on a chain whose
 * suggestion follows the tips just paid: on anvil the fee doubled with every block.)
 */
async function operationFees(bundler: BundlerClient, client: Client) {
  try {
    const { standard } = (await bundler.request({ method: 'pimlico_getUserOperationGasPrice' } as never)) as { standard: { maxFeePerGas: Hex; maxPriorityFeePerGas: Hex } }
    return { maxFeePerGas: BigInt(standard.maxFeePerGas), maxPriorityFeePerGas: BigInt(standard.maxPriorityFeePerGas) }
  } catch {
    const fees = await estimateFeesPerGas(client, { chain: client.chain, type: 'eip1559' })
    return { maxFeePerGas: 2n * fees.maxFeePerGas, maxPriorityFeePerGas: 2n * fees.maxPriorityFeePerGas }
  }
}

/** The most an operation can cost in fees: every gas limit at the highest price it allows. */
export const maxOperationFee = (op: Pick<UserOperation<'0.8'>, 'callGasLimit' | 'verificationGasLimit' | 'preVerificationGas' | 'paymasterVerificationGasLimit' | 'paymasterPostOpGasLimit' | 'maxFeePerGas'>) =>
  (op.callGasLimit + op.verificationGasLimit + op.preVerificationGas + (op.paymasterVerificationGasLimit ?? 0n) + (op.paymasterPostOpGasLimit ?? 0n)) * op.maxFeePerGas

export type CreateSmartAccountsParameters = {
  vault: KeyVault
  projectId: string
  /** Ends a wait for an operation (eth_sendTransaction) after this long. */
  receiptTimeoutMs?: number
}

/**
 * The embedded wallet's ERC-4337 accounts, one per network that names a bundler (frame config `smartAccount`): a
 * TesseraAccount owned by the e-mail wallet's key, counterfactual until its first operation. Holds the account type the
 * person prefers (smartAccount by default, SPEC §6), and prepares, sends and follows UserOperations: sponsored by the
 * network's paymaster when it agrees, else paid by the account (the refusal kept, to be shown).
 * @example const smart = createSmartAccounts({ vault, projectId }); const prepared = await smart.prepare(network, client, calls)
 */
export function createSmartAccounts({ vault, projectId, receiptTimeoutMs = RECEIPT_TIMEOUT_MS }: CreateSmartAccountsParameters) {
  let preferred: AccountType = 'smartAccount'
  const accounts = new Map<string, Promise<SmartAccount>>()
  const bundlers = new Map<number, BundlerClient>()
  const paymasters = new Map<number, PaymasterClient>()
  const operations = new Map<Hex, { chainId: number }>()

  const settingsOf = (network: FrameEvmNetwork) => {
    if (!hasSmartAccount(network)) throw createWidgetError('SMART_ACCOUNT_UNSUPPORTED', { details: `${network.name} has no smart accounts` })
    return network.smartAccount
  }
  const bundlerFor = (network: FrameEvmNetwork, client: Client): BundlerClient => {
    const known = bundlers.get(network.chainId)
    if (known) return known
    const bundler: BundlerClient = createBundlerClient({
      client,
      transport: withCallGasRoomIn(http(settingsOf(network).bundlerUrl, { timeout: RPC_TIMEOUT_MS, retryCount: 0 })),
      pollingInterval: RECEIPT_POLL_MS,
      userOperation: { estimateFeesPerGas: () => operationFees(bundler, client) },
    })
    bundlers.set(network.chainId, bundler)
    return bundler
  }
  const paymasterFor = (network: FrameEvmNetwork) => {
    const url = settingsOf(network).paymasterUrl
    if (!url) return undefined
    let paymaster = paymasters.get(network.chainId)
    if (!paymaster) paymasters.set(network.chainId, (paymaster = createPaymasterClient({ transport: http(url, { timeout: RPC_TIMEOUT_MS, retryCount: 0 }) })))
    return { client: paymaster, url }
  }

  /** The smart account of the open wallet on `network` (its address read from the factory once per owner and chain). */
  function accountFor(network: FrameEvmNetwork, client: Client): Promise<SmartAccount> {
    const settings = settingsOf(network)
    const owner = privateKeyToAccount(vault.keys().eip155.privateKey)
    const key = `${network.chainId}:${owner.address}`
    let account = accounts.get(key)
    if (!account) {
      // One owner at a time: another wallet's accounts go.
      for (const other of accounts.keys()) if (!other.endsWith(owner.address)) accounts.delete(other)
      account = toTesseraAccount({ client, owner, factoryAddress: settings.factoryAddress as Address, ...(settings.entryPointAddress && { entryPointAddress: settings.entryPointAddress as Address }) })
      account.catch(() => accounts.delete(key))
      accounts.set(key, account)
    }
    return account.catch((error: unknown) => {
      throw toEvmWidgetError(error)
    })
  }

  return {
    enabledChainIds: (networks: readonly FrameEvmNetwork[]) => networks.filter(hasSmartAccount).map((n) => n.chainId),
    isEnabled: hasSmartAccount,
    preferredType: () => preferred,
    setPreferredType: (type: AccountType) => void (preferred = type),
    /** Whether requests on `network` act as the smart account (the person prefers it and the network has one). */
    isActive: (network: FrameEvmNetwork) => preferred === 'smartAccount' && hasSmartAccount(network),
    accountFor,
    /** The account's address and whether it has code yet. */
    async describe(network: FrameEvmNetwork, client: Client) {
      const { address } = await accountFor(network, client)
      const code = await getCode(client, { address }).catch((error: unknown) => {
        throw toEvmWidgetError(error)
      })
      return { address, isDeployed: code !== undefined && code !== '0x' }
    },

    /**
     * Prepares one UserOperation for `calls` (gas estimated by the bundler: a call that would revert fails here, before
     * anyone is asked), sponsored when the paymaster agrees, else paid by the account; checks the account can pay what
     * it sends (and the fee, when it pays it).
     */
    async prepare(network: FrameEvmNetwork, client: Client, calls: readonly Call[]): Promise<PreparedOperation> {
      const account = await accountFor(network, client)
      const bundler = bundlerFor(network, client)
      const paymaster = paymasterFor(network)
      const request = { account, calls: calls.map(({ to, value, data }) => ({ to, value, ...(data && { data }) })) }
      let refusal: SponsorRefusal | undefined
      if (paymaster) {
        try {
          const userOperation = (await prepareUserOperation(bundler, { ...request, paymaster: paymaster.client, paymasterContext: { projectId } })) as UserOperation<'0.8'>
          await requireFunds(client, account.address, calls, 0n)
          return { userOperation, feePayer: { kind: 'sponsor' }, account }
        } catch (error) {
          refusal = sponsorRefusal(error, paymaster.url)
          if (!refusal) throw toUserOperationError(error, calls.length)
        }
      }
      let userOperation: UserOperation<'0.8'>
      try {
        userOperation = (await prepareUserOperation(bundler, request)) as UserOperation<'0.8'>
      } catch (error) {
        throw toUserOperationError(error, calls.length)
      }
      const maxFeeWei = maxOperationFee(userOperation)
      await requireFunds(client, account.address, calls, maxFeeWei)
      return { userOperation, feePayer: { kind: 'account', maxFeeWei, refusal }, account }
    },

    /** Signs the prepared operation with the owner's key and hands it to the bundler; resolves to its hash. */
    async send(network: FrameEvmNetwork, client: Client, { userOperation, account }: PreparedOperation): Promise<Hex> {
      try {
        const signature = await account.signUserOperation(userOperation)
        const hash = await sendUserOperation(bundlerFor(network, client), { ...userOperation, account, signature } as never)
        operations.set(hash, { chainId: network.chainId })
        for (const oldest of operations.keys()) if (operations.size > MAX_OPERATIONS) operations.delete(oldest)
        return hash
      } catch (error) {
        throw toEvmWidgetError(error)
      }
    },

    /** Waits for the operation to land; resolves to its receipt (success or not). */
    async waitForReceipt(network: FrameEvmNetwork, client: Client, hash: Hex): Promise<UserOperationReceipt> {
      try {
        return await waitForUserOperationReceipt(bundlerFor(network, client), { hash, pollingInterval: RECEIPT_POLL_MS, timeout: receiptTimeoutMs })
      } catch (error) {
        throw toEvmWidgetError(error)
      }
    },

    /** The operation's chain, when it is one the frame sent (and still remembers). */
    chainOf: (hash: string) => operations.get(hash as Hex)?.chainId,

    /** Its receipt, or undefined while it is pending. */
    async receipt(network: FrameEvmNetwork, client: Client, hash: Hex): Promise<UserOperationReceipt | undefined> {
      try {
        return await getUserOperationReceipt(bundlerFor(network, client), { hash })
      } catch (error) {
        if ((error as { name?: string }).name === 'UserOperationReceiptNotFoundError') return undefined
        throw toEvmWidgetError(error)
      }
    },
  }
}

/** The account must hold what the calls send, plus the fee when it pays it: refused before anyone is asked otherwise. */
async function requireFunds(client: Client, address: Address, calls: readonly Call[], feeWei: bigint) {
  const needed = calls.reduce((sum, call) => sum + call.value, 0n) + feeWei
  if (needed === 0n) return
  const balance = await getBalance(client, { address }).catch((error: unknown) => {
    throw toEvmWidgetError(error)
  })
  if (balance < needed) throw createWidgetError('INSUFFICIENT_FUNDS', { details: `the smart account holds ${balance} wei, needs ${needed}` })
}

export type SmartAccounts = ReturnType<typeof createSmartAccounts>
