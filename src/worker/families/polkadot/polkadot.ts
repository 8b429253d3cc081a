import { ApiPromise, WsProvider } from '@polkadot/api'
import * as z from 'zod/mini'
import { decodeSs58, describeSs58Prefix, encodeSs58, GENERIC_SS58_PREFIX, getPolkadotNetwork } from '../../../shared/families/polkadot/address'
import { parseCaipNetworkId } from '../../../shared/protocol/caip'
import type { PolkadotBalance, PolkadotChainInfo, PolkadotInclusion, PolkadotSignerPayload, PolkadotSubmission, PolkadotTransfer, PolkadotTransferParameters } from '../../../shared/families/polkadot/coreApi'
import { formatUnits } from '../../../shared/protocol/display'
import type { ErrorCode } from '../../../shared/protocol/errorTable'
import { createWidgetError, isWidgetError } from '../../../shared/protocol/errors'
import { safeParse } from '../../../shared/protocol/schemas/parse'
import { defaultSleep } from '../../rpc-transport/retryRead'

export type { PolkadotBalance, PolkadotChainInfo, PolkadotInclusion, PolkadotSignerPayload, PolkadotSubmission, PolkadotTransfer, PolkadotTransferParameters } from '../../../shared/families/polkadot/coreApi'

export type CreatePolkadotClientParameters = {
  /** `polkadot:` + the first 32 hex characters of the genesis hash; the node's genesis must match it. */
  caipNetworkId: string
  /** JSON-RPC over WebSocket: `wss://rpc.polkadot.io`, the local stack's `ws://127.0.0.1:9944`. */
  rpcUrl?: string
  /** Several nodes of the network: the last one that served first, the next one also tried when it is slow to connect. */
  rpcUrls?: readonly string[]
  /** How long a connection attempt may go without opening before the next node is tried beside it. */
  hedgeDelayMs?: number
  /** How long one connection attempt (socket open and runtime metadata loaded) may take. */
  connectTimeoutMs?: number
  /** How long one request waits for its answer. */
  requestTimeoutMs?: number
  /** Connection attempts after the first that fails, per call, before POLKADOT_NODE_UNREACHABLE. */
  reconnectCount?: number
  /** The wait before the first reconnection, doubled for each next one. */
  reconnectDelayMs?: number
  now?: () => number
  sleep?: (ms: number) => Promise<void>
}

export type PolkadotWaitForTransactionParameters = {
  submission: PolkadotSubmission
  /** 'inBlock' resolves once a block of the best chain holds it; 'finalized' once that block is final. */
  until?: 'inBlock' | 'finalized'
  pollIntervalMs?: number
  /** After this the outcome is unknown (TRANSACTION_UNCONFIRMED). */
  maxWaitMs?: number
  signal?: AbortSignal
}

type Hex = `0x${string}`
type Account = { address: string; publicKey: Uint8Array }
type Codec = { toString(): string; toHex(): Hex }
type StructCodec = { get(name: string): Codec | undefined }

/** A u128 balance at most. */
const MAX_BALANCE = 2n ** 128n - 1n
/** How far back waitForTransaction follows a fork (blocks it remembers). */
const MAX_FORK_DEPTH = 256
/** How many polls in a row may fail (node down, timeout) before waitForTransaction gives up. */
const MAX_FAILED_POLLS_IN_A_ROW = 3

const hexSchema = (maxBytes: number) => z.string().check(z.regex(/^0x(?:[0-9a-fA-F]{2})*$/), z.maxLength(2 + maxBytes * 2))
const hash32Schema = z.string().check(z.regex(/^0x[0-9a-fA-F]{64}$/))
const payloadSchema = z.object({
  address: z.string().check(z.maxLength(64)),
  assetId: z.optional(z.nullable(z.union([hexSchema(64), z.int()]))),
  blockHash: hash32Schema,
  blockNumber: hexSchema(8),
  era: hexSchema(2),
  genesisHash: hash32Schema,
  metadataHash: z.optional(z.nullable(hash32Schema)),
  method: hexSchema(65_536),
  mode: z.optional(z.int()),
  nonce: hexSchema(8),
  specVersion: hexSchema(4),
  tip: hexSchema(16),
  transactionVersion: hexSchema(4),
  signedExtensions: z.array(z.string().check(z.maxLength(64))).check(z.maxLength(32)),
  version: z.int(),
  withSignedTransaction: z.optional(z.boolean()),
})
const submissionSchema = z
  .object({ hash: hash32Schema, fromBlock: z.int().check(z.minimum(0)), validUntilBlock: z.int().check(z.minimum(0)) })
  .check(z.refine(({ fromBlock, validUntilBlock }) => fromBlock <= validUntilBlock + 1))
// A MultiSignature: its kind's byte (0 ed25519, 1 sr25519, 2 ecdsa) and 64 bytes, or 65 for ecdsa.
const signatureSchema = z.string().check(z.regex(/^0x(?:[0-9a-fA-F]{130}|[0-9a-fA-F]{132})$/))

const toBigInt = (value: Codec | undefined) => (value === undefined ? 0n : BigInt(value.toString()))
const max = (a: bigint, b: bigint) => (a > b ? a : b)

/** The node's reasons for refusing a transaction (a real node's JSON-RPC `data`, chopsticks' TransactionValidityError JSON). */
const refusalReasons: [RegExp, ErrorCode][] = [
  [/bad ?signature|badProof/i, 'WALLET_BAD_RESPONSE'],
  [/outdated|\bstale\b|ancient ?birth|valid in the future|\bfuture\b/i, 'POLKADOT_TRANSACTION_STALE'],
  [/inability to pay|\bpayment\b/i, 'POLKADOT_CANNOT_PAY_FEE'],
]
/** Substrate's author_submitExtrinsic error codes (sc_rpc_api::author::error). */
const ALREADY_IMPORTED = 1013

/**
 * The worker's client for one Polkadot-SDK network over @polkadot/api: chain info, balances, the fee and the signing
 * payload of a `balances.transferKeepAlive` (signed by the page's extension, never here), its submission, and its
 * inclusion and finality read from the chain's blocks. Amounts are bigint planck; every error is a WidgetError.
 * It connects on first use; a dropped connection is opened again on the next call, at most `reconnectCount` more times.
 * @example const dot = createPolkadotClient({ caipNetworkId: 'polkadot:91b171bb158e2d3848fa23a9f1c25182', rpcUrl: 'wss://rpc.polkadot.io' })
 */
export function createPolkadotClient({
  caipNetworkId,
  rpcUrl,
  rpcUrls = rpcUrl === undefined ? [] : [rpcUrl],
  hedgeDelayMs = 1_000,
  connectTimeoutMs = 15_000,
  requestTimeoutMs = 30_000,
  reconnectCount = 2,
  reconnectDelayMs = 500,
  now = Date.now,
  sleep = defaultSleep,
}: CreatePolkadotClientParameters) {
  const parsed = typeof caipNetworkId === 'string' ? parseCaipNetworkId(caipNetworkId) : undefined
  if (parsed?.namespace !== 'polkadot' || !/^[0-9a-f]{32}$/.test(parsed.reference)) {
    throw createWidgetError('INVALID_CONFIG', { field: 'caipNetworkId', details: `"${String(caipNetworkId)}" is not polkadot: and 32 lower-case hex characters of a genesis hash` })
  }
  if (rpcUrls.length === 0) throw createWidgetError('NO_RPC_URL', { field: 'rpcUrls', details: `${caipNetworkId} needs at least one ws:// or wss:// URL` })
  // Errors name the host only: a URL may carry an API key.
  const nodes = rpcUrls.map((url, index) => {
    try {
      const parsedUrl = new URL(url)
      if (parsedUrl.protocol !== 'ws:' && parsedUrl.protocol !== 'wss:') throw new Error('not a WebSocket URL')
      return { url, host: parsedUrl.host }
    } catch {
      throw createWidgetError('NO_RPC_URL', { field: `rpcUrls.${index}`, details: `The ${caipNetworkId} URL is not a ws:// or wss:// URL` })
    }
  })
  /** The node asked first: the last one that connected. */
  let preferred = 0
  /** The node of the connection in use (the preferred one before any). */
  let host = nodes[0]!.host
  const networkName = getPolkadotNetwork(caipNetworkId)?.name ?? 'Polkadot'

  type Connection = { api: ApiPromise; provider: WsProvider; host: string; info: PolkadotChainInfo }

  /** What the node said, read from the api each time: a runtime upgrade changes the version (and may change constants). */
  const chainInfo = (api: ApiPromise, genesisHash: Hex, chainName: string): PolkadotChainInfo => ({
    caipNetworkId,
    genesisHash,
    chainName,
    ss58Prefix: api.registry.chainSS58 ?? GENERIC_SS58_PREFIX,
    token: { symbol: api.registry.chainTokens[0] ?? 'UNIT', decimals: api.registry.chainDecimals[0] ?? 12 },
    existentialDeposit: toBigInt((api.consts.balances as unknown as Record<string, Codec>).existentialDeposit),
    specVersion: api.runtimeVersion.specVersion.toNumber(),
  })
  let connection: Promise<Connection> | undefined
  /** The connection `connection` resolved to, so a dropped one only clears itself. */
  let current: Connection | undefined
  let isDestroyed = false
  const live = new Set<Connection>()

  const unreachable = (details: string, cause?: unknown) => createWidgetError('POLKADOT_NODE_UNREACHABLE', { params: { network: networkName }, details, cause })

  /** `promise`, or RPC_TIMEOUT once `ms` passed. */
  function timed<T>(what: string, promise: Promise<T>, ms = requestTimeoutMs): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(createWidgetError('RPC_TIMEOUT', { details: `${what} on ${host} got no answer within ${ms} ms` })), ms)
    })
    return Promise.race([promise, timeout]).finally(() => clearTimeout(timer))
  }

  /** One attempt on one node: the socket opens, the runtime's metadata loads, the genesis is the configured network's. */
  async function connectOnce({ url, host }: { url: string; host: string }): Promise<Connection> {
    // No automatic reconnection: the provider's own retries are endless; ours are counted per call.
    const provider = new WsProvider(url, false, {}, requestTimeoutMs + 5_000)
    const unsubscribes: (() => void)[] = []
    try {
      const opened = new Promise<void>((resolve, reject) => {
        unsubscribes.push(provider.on('connected', () => resolve()))
        unsubscribes.push(provider.on('error', () => reject(new Error('the WebSocket failed'))))
        unsubscribes.push(provider.on('disconnected', () => reject(new Error('the WebSocket closed'))))
      })
      await provider.connect()
      await timed(`Connecting to ${host}`, opened, connectTimeoutMs)
      // initWasm false: nothing here signs or verifies, and hashing (blake2, xxhash) has pure-JS paths; the worker then
      // never compiles @polkadot/wasm-crypto's WebAssembly.
      const api = await timed(`Loading the runtime of ${host}`, ApiPromise.create({ provider, noInitWarn: true, throwOnConnect: true, initWasm: false }), connectTimeoutMs)
      const genesisHash = api.genesisHash.toHex()
      if (genesisHash.slice(2, 34) !== parsed!.reference) {
        await api.disconnect()
        throw createWidgetError('INVALID_CONFIG', { field: 'rpcUrl', details: `The node at ${host} serves the chain of genesis ${genesisHash}, not ${caipNetworkId}` })
      }
      const chainName = (await timed(`system_chain on ${host}`, api.rpc.system.chain())).toString()
      return {
        api,
        provider,
        host,
        // Read when asked: every call sees the runtime as it is now.
        get info() {
          return chainInfo(api, genesisHash, chainName)
        },
      }
    } catch (error) {
      await provider.disconnect().catch(() => {})
      throw error
    } finally {
      for (const unsubscribe of unsubscribes) unsubscribe()
    }
  }

  /**
   * One round over the nodes, the preferred first: the next is tried beside it when it fails or has not connected within
   * `hedgeDelayMs`; the first connection made wins and the others are closed. Fails with the last error when none
   * connects (a node serving another chain's INVALID_CONFIG before any other).
   */
  function connectAny(): Promise<Connection> {
    const order = nodes.map((_, index) => (preferred + index) % nodes.length)
    return new Promise<Connection>((resolve, reject) => {
      let started = 0
      let failures = 0
      let isSettled = false
      let lastError: unknown
      let hedge: ReturnType<typeof setTimeout> | undefined
      const startNext = () => {
        clearTimeout(hedge)
        if (started >= order.length) return
        const index = order[started++]!
        connectOnce(nodes[index]!).then(
          (opened) => {
            if (isSettled) return void opened.api.disconnect().catch(() => {})
            isSettled = true
            clearTimeout(hedge)
            preferred = index
            host = opened.host
            resolve(opened)
          },
          (error: unknown) => {
            if (!(isWidgetError(lastError) && lastError.code === 'INVALID_CONFIG')) lastError = error
            if (isSettled) return
            if (++failures < order.length) return startNext()
            isSettled = true
            reject(lastError)
          },
        )
        if (started < order.length) hedge = setTimeout(startNext, hedgeDelayMs)
      }
      startNext()
    })
  }

  /** Tries `1 + reconnectCount` rounds over the nodes, waiting longer each time; POLKADOT_NODE_UNREACHABLE after the last. */
  async function connect(): Promise<Connection> {
    let lastError: unknown
    for (let attempt = 0; attempt <= reconnectCount; attempt++) {
      if (attempt > 0) await sleep(reconnectDelayMs * 2 ** (attempt - 1))
      if (isDestroyed) throw createWidgetError('REQUEST_ABORTED', { details: `the ${caipNetworkId} client was closed` })
      try {
        const opened = await connectAny()
        if (isDestroyed) {
          await opened.api.disconnect()
          throw createWidgetError('REQUEST_ABORTED', { details: `the ${caipNetworkId} client was closed` })
        }
        live.add(opened)
        // A dropped socket: this connection is done; the next call opens another.
        opened.provider.on('disconnected', () => {
          forget(opened)
          void opened.api.disconnect().catch(() => {})
        })
        current = opened
        return opened
      } catch (error) {
        if (isWidgetError(error) && (error.code === 'INVALID_CONFIG' || error.code === 'REQUEST_ABORTED')) throw error
        lastError = error
      }
    }
    const reason = isWidgetError(lastError) ? (lastError.details ?? lastError.shortMessage) : ((lastError as Error)?.message ?? String(lastError))
    throw unreachable(`${nodes.map((node) => node.host).join(', ')} after ${reconnectCount + 1} attempts: ${reason}`, lastError)
  }

  /** Lets go of a connection whose socket closed (its 'disconnected' event may have come before anyone listened). */
  const forget = (opened: Connection) => {
    live.delete(opened)
    if (current === opened) {
      current = undefined
      connection = undefined
    }
  }

  const open = (): Promise<Connection> => {
    if (current && !current.api.isConnected) forget(current)
    connection ??= connect().catch((error: unknown) => {
      connection = undefined
      throw error
    })
    return connection
  }

  /**
   * Runs `body` on a live connection. A failure that came from the connection dropping is tried once more on a new
   * one when `isRead` (a read changes nothing); anything else thrown that is not a WidgetError becomes UNKNOWN.
   */
  async function run<T>(what: string, body: (connection: Connection) => Promise<T>, { isRead = true } = {}): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const opened = await open()
      try {
        return await body(opened)
      } catch (error) {
        const hasDropped = !opened.api.isConnected
        if (hasDropped) forget(opened)
        if (hasDropped && isRead && attempt === 0) continue
        if (isWidgetError(error)) throw error
        if (hasDropped) throw unreachable(`${host} closed the connection during ${what}`, error)
        throw createWidgetError('UNKNOWN', { details: `${what}: ${(error as Error)?.message ?? String(error)}`, cause: error })
      }
    }
  }

  /** An SS58 address of this network (or generic Substrate, prefix 42), answered in this network's format. */
  function parseAccount(value: unknown, field: string, info: PolkadotChainInfo): Account {
    const decoded = typeof value === 'string' ? decodeSs58(value) : undefined
    if (!decoded) throw createWidgetError('INVALID_ADDRESS', { field, details: `"${String(value).slice(0, 100)}" is not an SS58 account address` })
    if (decoded.prefix !== info.ss58Prefix && decoded.prefix !== GENERIC_SS58_PREFIX) {
      throw createWidgetError('POLKADOT_ADDRESS_WRONG_NETWORK', {
        field,
        params: { addressNetwork: describeSs58Prefix(decoded.prefix), network: getPolkadotNetwork(caipNetworkId)?.name ?? info.chainName },
        details: `${String(value)} has SS58 prefix ${decoded.prefix}; ${caipNetworkId} uses ${info.ss58Prefix}`,
      })
    }
    return { address: encodeSs58(decoded.publicKey, info.ss58Prefix), publicKey: decoded.publicKey }
  }

  /** free, reserved, frozen (the old layout's misc and fee frozen: the larger) and what a keep-alive transfer can move. */
  async function readBalance({ api, info }: Connection, address: string): Promise<PolkadotBalance> {
    const account = (await timed('System.Account', api.query.system!.account!(address))) as unknown as { data: StructCodec }
    const { data } = account
    const free = toBigInt(data.get('free'))
    const reserved = toBigInt(data.get('reserved'))
    const hasNewLayout = data.get('frozen') !== undefined
    const frozen = hasNewLayout ? toBigInt(data.get('frozen')) : max(toBigInt(data.get('miscFrozen')), toBigInt(data.get('feeFrozen')))
    // pallet-balances' reducible balance, keeping the account alive: what stays is the lock beyond what is held, and at least the deposit.
    const locked = hasNewLayout ? max(frozen - reserved, 0n) : frozen
    const transferable = max(free - max(locked, info.existentialDeposit), 0n)
    return { free, reserved, frozen, transferable }
  }

  const formatAmount = (value: bigint, { token }: PolkadotChainInfo) => `${formatUnits(value, token.decimals)} ${token.symbol}`

  function checkAmount(amount: unknown, field: string, { allowZero = false } = {}): bigint {
    if (typeof amount !== 'bigint' || amount < 0n || (!allowZero && amount === 0n) || amount > MAX_BALANCE) {
      throw createWidgetError('INVALID_PARAMS', { field, details: `The ${field} must be a bigint of planck, ${allowZero ? 'at least' : 'more than'} 0 and at most 2^128 - 1` })
    }
    return amount
  }

  /** What the chain's events say of the extrinsic at `index` of `blockHash`. */
  async function readOutcome({ api }: Connection, blockHash: Hex, index: number): Promise<{ isSuccess: boolean; failure?: string }> {
    const at = await timed('api.at', api.at(blockHash))
    type EventRecord = { phase: { isApplyExtrinsic: boolean; asApplyExtrinsic: { toNumber(): number } }; event: { section: string; method: string; data: unknown[] } }
    const records = (await timed('System.Events', at.query.system!.events!())) as unknown as EventRecord[]
    for (const { phase, event } of records) {
      if (!phase.isApplyExtrinsic || phase.asApplyExtrinsic.toNumber() !== index || event.section !== 'system') continue
      if (event.method === 'ExtrinsicSuccess') return { isSuccess: true }
      if (event.method === 'ExtrinsicFailed') return { isSuccess: false, failure: describeDispatchError(api, event.data[0]) }
    }
    return { isSuccess: false, failure: 'unknown (no ExtrinsicSuccess or ExtrinsicFailed event)' }
  }

  return {
    /** What the node says about its chain: genesis, SS58 prefix, token, existential deposit, runtime version. */
    getChainInfo: (): Promise<PolkadotChainInfo> => run('getChainInfo', async ({ info }) => info),

    /** Planck: free, reserved, frozen, transferable. INVALID_ADDRESS, POLKADOT_ADDRESS_WRONG_NETWORK for a bad address. */
    getBalance: (address: string): Promise<PolkadotBalance> =>
      run('getBalance', async (opened) => readBalance(opened, parseAccount(address, 'address', opened.info).address)),

    /** The node's fee estimate (paymentInfo) in planck for `balances.transferKeepAlive(to, amount)` paid by `from`. */
    estimateTransferFee: ({ from, to, amount }: PolkadotTransferParameters): Promise<bigint> =>
      run('estimateTransferFee', async ({ api, info }) => {
        const sender = parseAccount(from, 'from', info)
        const recipient = parseAccount(to, 'to', info)
        checkAmount(amount, 'amount')
        const payment = await timed('paymentInfo', api.tx.balances!.transferKeepAlive!(recipient.address, amount).paymentInfo(sender.address))
        return toBigInt(payment.partialFee)
      }),

    /**
     * The signing payload of `balances.transferKeepAlive(to, amount)` from `from` (mortal, next nonce, the tip), its
     * fee, and its raw bytes for signRaw. Refused before anything is signed: a bad or foreign address, an amount the
     * recipient's account could not keep (POLKADOT_BELOW_EXISTENTIAL_DEPOSIT), more than `from` can send and keep its
     * existential deposit (POLKADOT_INSUFFICIENT_FUNDS).
     */
    buildTransfer: ({ from, to, amount, tip = 0n }: PolkadotTransferParameters): Promise<PolkadotTransfer> =>
      run('buildTransfer', async (opened) => {
        const { api, info } = opened
        const sender = parseAccount(from, 'from', info)
        const recipient = parseAccount(to, 'to', info)
        checkAmount(amount, 'amount')
        checkAmount(tip, 'tip', { allowZero: true })
        const transfer = api.tx.balances!.transferKeepAlive!(recipient.address, amount)
        const [senderBalance, recipientBalance, signingInfo, payment] = await Promise.all([
          readBalance(opened, sender.address),
          readBalance(opened, recipient.address),
          timed('signingInfo', api.derive.tx.signingInfo(sender.address)),
          timed('paymentInfo', transfer.paymentInfo(sender.address)),
        ])
        const fee = toBigInt(payment.partialFee)
        const ed = info.existentialDeposit
        if (recipient.address !== sender.address && recipientBalance.free + recipientBalance.reserved + amount < ed) {
          throw createWidgetError('POLKADOT_BELOW_EXISTENTIAL_DEPOSIT', {
            field: 'amount',
            params: { existentialDeposit: formatAmount(ed, info), minimum: formatAmount(ed - recipientBalance.free - recipientBalance.reserved, info) },
            details: `${recipient.address} holds ${recipientBalance.free + recipientBalance.reserved} planck; ${amount} more leaves it under ${ed}`,
          })
        }
        if (amount + fee + tip > senderBalance.transferable) {
          throw createWidgetError('POLKADOT_INSUFFICIENT_FUNDS', {
            field: 'amount',
            params: { fee: formatAmount(fee + tip, info), available: formatAmount(senderBalance.transferable, info), existentialDeposit: formatAmount(ed, info) },
            details: `${amount} planck, a fee of ${fee} and a tip of ${tip}; ${senderBalance.transferable} can leave ${sender.address}`,
          })
        }
        const { header, mortalLength, nonce } = signingInfo
        if (!header) throw createWidgetError('UNKNOWN', { details: 'The node gave no block header to make the transaction mortal' })
        const era = api.registry.createType('ExtrinsicEra', { current: header.number, period: mortalLength })
        const signerPayload = api.registry.createType('SignerPayload', {
          address: sender.address,
          blockHash: header.hash,
          blockNumber: header.number,
          era,
          genesisHash: api.genesisHash,
          method: transfer.method,
          nonce,
          runtimeVersion: api.runtimeVersion,
          signedExtensions: api.registry.signedExtensions,
          tip,
          version: api.extrinsicVersion,
        })
        const payload = signerPayload.toPayload() as unknown as PolkadotSignerPayload
        const raw = signerPayload.toRaw()
        return {
          payload,
          raw: { address: raw.address, data: raw.data as Hex, type: 'payload' },
          fee,
          existentialDeposit: ed,
          to: recipient.address,
          validUntilBlock: era.asMortalEra.death(header.number.toBigInt()) - 1,
        }
      }),

    /**
     * Adds the wallet's signature to the transfer `payload` (as buildTransfer answered it) and submits it; answers what
     * waitForTransaction tracks it by. Refused: a payload of another network or an older runtime (POLKADOT_TRANSACTION_STALE),
     * a signature that does not match (WALLET_BAD_RESPONSE), fees the account cannot pay (POLKADOT_CANNOT_PAY_FEE), any
     * other refusal of the node (POLKADOT_TRANSACTION_REFUSED). Submitting the same signed transaction again is harmless.
     */
    submitTransfer: ({ payload, signature }: { payload: PolkadotSignerPayload; signature: string }): Promise<PolkadotSubmission> =>
      run(
        'submitTransfer',
        async ({ api, provider, info }) => {
          const checked = safeParse(payloadSchema, payload)
          if (!checked.success) {
            const issue = checked.error.issues[0]
            throw createWidgetError('INVALID_PARAMS', { field: ['payload', ...(issue?.path ?? []).map(String)].join('.'), details: `Not a signing payload: ${issue?.message ?? ''}` })
          }
          if (!safeParse(signatureSchema, signature).success) {
            throw createWidgetError('WALLET_BAD_RESPONSE', { field: 'signature', details: 'The signature must be a hex MultiSignature (65 or 66 bytes)' })
          }
          const signed = checked.data as PolkadotSignerPayload
          parseAccount(signed.address, 'payload.address', info)
          if (signed.genesisHash !== info.genesisHash) {
            throw createWidgetError('INVALID_PARAMS', { field: 'payload.genesisHash', details: `The payload is for the chain of genesis ${signed.genesisHash}, not ${caipNetworkId}` })
          }
          if (Number(signed.specVersion) !== api.runtimeVersion.specVersion.toNumber()) {
            throw createWidgetError('POLKADOT_TRANSACTION_STALE', { details: `The payload is for runtime ${Number(signed.specVersion)}; the chain runs ${api.runtimeVersion.specVersion.toNumber()}` })
          }
          let extrinsic
          try {
            extrinsic = api.tx(api.registry.createType('Call', signed.method))
            extrinsic.addSignature(signed.address, signature as Hex, signed as never)
          } catch (error) {
            throw createWidgetError('INVALID_PARAMS', { field: 'payload.method', details: `The payload's call cannot be decoded: ${(error as Error).message}`, cause: error })
          }
          const hash = extrinsic.hash.toHex()
          try {
            // Straight to the provider: @polkadot/api's rpc layer would also print the node's refusal on the console.
            await timed('author_submitExtrinsic', provider.send('author_submitExtrinsic', [extrinsic.toHex()]))
          } catch (error) {
            if (isWidgetError(error) || !api.isConnected) throw error
            const { code, data, message } = error as { code?: unknown; data?: unknown; message?: unknown }
            if (code !== ALREADY_IMPORTED) {
              const reason = `${String(message)} ${typeof data === 'string' ? data : JSON.stringify(data ?? '')}`.slice(0, 500)
              const refusal = refusalReasons.find(([pattern]) => pattern.test(reason))?.[1] ?? 'POLKADOT_TRANSACTION_REFUSED'
              throw createWidgetError(refusal, { ...(refusal === 'WALLET_BAD_RESPONSE' ? { field: 'signature' } : {}), details: `${host}: ${reason}`, cause: error })
            }
          }
          const era = api.registry.createType('ExtrinsicEra', signed.era)
          const checkpoint = Number(signed.blockNumber)
          return {
            hash,
            fromBlock: checkpoint + 1,
            validUntilBlock: era.isMortalEra ? era.asMortalEra.death(checkpoint) - 1 : Number.MAX_SAFE_INTEGER,
          }
        },
        { isRead: false },
      ),

    /**
     * Follows the chain's blocks from the submission's first possible one until a block holds the transaction (a block
     * of the best chain for 'inBlock', a final one for 'finalized'), and reads its outcome from the block's events.
     * A chain that moved to another fork is followed. The era over and the transaction in none of its blocks:
     * POLKADOT_TRANSACTION_NOT_INCLUDED (nothing was sent). `maxWaitMs` over: TRANSACTION_UNCONFIRMED.
     */
    async waitForTransaction({ submission, until = 'finalized', pollIntervalMs = 2_000, maxWaitMs = 600_000, signal }: PolkadotWaitForTransactionParameters): Promise<PolkadotInclusion> {
      const checked = safeParse(submissionSchema, submission)
      if (!checked.success) throw createWidgetError('INVALID_PARAMS', { field: 'submission', details: 'A submission is { hash, fromBlock, validUntilBlock } as submitTransfer answered it' })
      if (until !== 'inBlock' && until !== 'finalized') throw createWidgetError('INVALID_PARAMS', { field: 'until', details: "until is 'inBlock' or 'finalized'" })
      const { fromBlock, validUntilBlock } = checked.data
      const hash = checked.data.hash.toLowerCase() as Hex
      const deadline = now() + maxWaitMs
      // The hash of each block read, by number, to see the chain switch forks under us (at most the era's length).
      const seen = new Map<number, Hex>()
      let next = fromBlock
      let found: { blockNumber: number; blockHash: Hex; index: number } | undefined
      let failedPollsInARow = 0
      let lastError: unknown

      const poll = () =>
        run('waitForTransaction', async (opened) => {
          const { api } = opened
          const best = (await timed('chain_getHeader', api.rpc.chain.getHeader())).number.toNumber()
          // 1. Read each new block of the best chain; a block whose parent is not the one read before means a fork: step back.
          while (!found && next <= Math.min(best, validUntilBlock)) {
            const blockHash = (await timed('chain_getBlockHash', api.rpc.chain.getBlockHash(next))).toHex()
            const { block } = await timed('chain_getBlock', api.rpc.chain.getBlock(blockHash))
            const parent = seen.get(next - 1)
            if (parent !== undefined && block.header.parentHash.toHex() !== parent) {
              seen.delete(next - 1)
              next = Math.max(fromBlock, next - 1)
              continue
            }
            seen.set(next, blockHash)
            seen.delete(next - MAX_FORK_DEPTH)
            const index = block.extrinsics.findIndex((extrinsic) => extrinsic.hash.toHex() === hash)
            if (index >= 0) found = { blockNumber: next, blockHash, index }
            next++
          }
          const finalizedHash = await timed('chain_getFinalizedHead', api.rpc.chain.getFinalizedHead())
          const finalized = (await timed('chain_getHeader', api.rpc.chain.getHeader(finalizedHash))).number.toNumber()
          // 2. Found: still on the best chain? Final once the finalized head reached it.
          if (found) {
            const canonical = (await timed('chain_getBlockHash', api.rpc.chain.getBlockHash(found.blockNumber))).toHex()
            if (canonical !== found.blockHash) {
              next = found.blockNumber
              seen.delete(found.blockNumber)
              found = undefined
              return undefined
            }
            const isFinalized = finalized >= found.blockNumber
            if (until === 'inBlock' || isFinalized) return { hash, ...found, isFinalized, ...(await readOutcome(opened, found.blockHash, found.index)) } satisfies PolkadotInclusion
            return undefined
          }
          // 3. Not found in any block up to the era's last, and that block is final (so no fork can bring another): void.
          if (next > validUntilBlock && finalized >= validUntilBlock) {
            const canonical = (await timed('chain_getBlockHash', api.rpc.chain.getBlockHash(validUntilBlock))).toHex()
            if (canonical === seen.get(validUntilBlock)) {
              throw createWidgetError('POLKADOT_TRANSACTION_NOT_INCLUDED', { details: `${hash} is in none of blocks ${fromBlock} to ${validUntilBlock}, where its era ended` })
            }
            seen.delete(validUntilBlock)
            next = validUntilBlock
          }
          return undefined
        })

      for (let attempt = 0; ; attempt++) {
        if (attempt > 0) {
          if (now() + pollIntervalMs > deadline) {
            throw createWidgetError('TRANSACTION_UNCONFIRMED', { details: `${hash} was not ${until === 'inBlock' ? 'in a block' : 'final'} within ${maxWaitMs} ms`, cause: lastError })
          }
          await sleep(pollIntervalMs)
        }
        if (signal?.aborted) throw createWidgetError('REQUEST_ABORTED', { details: 'waitForTransaction', cause: signal.reason })
        try {
          const inclusion = await poll()
          failedPollsInARow = 0
          if (inclusion) return inclusion
        } catch (error) {
          const isTransient = isWidgetError(error) && (error.code === 'POLKADOT_NODE_UNREACHABLE' || error.code === 'RPC_TIMEOUT')
          if (!isTransient || ++failedPollsInARow > MAX_FAILED_POLLS_IN_A_ROW) throw error
          lastError = error
        }
      }
    },

    /** Closes the connection; calls after this fail with REQUEST_ABORTED. */
    async destroy() {
      isDestroyed = true
      connection = undefined
      await Promise.all([...live].map((opened) => opened.api.disconnect().catch(() => {})))
      live.clear()
    },
  }
}

/** `pallet.Error` of a module error (`balances.InsufficientBalance`), else the dispatch error's kind (`Token.FundsUnavailable`). */
function describeDispatchError(api: ApiPromise, error: unknown): string {
  const dispatchError = error as { isModule?: boolean; asModule?: unknown; type?: string; value?: { type?: string } }
  if (dispatchError?.isModule) {
    try {
      const { section, name } = api.registry.findMetaError(dispatchError.asModule as Parameters<ApiPromise['registry']['findMetaError']>[0])
      return `${section}.${name}`
    } catch {
      return 'Module'
    }
  }
  const kind = dispatchError?.type ?? 'unknown'
  const inner = dispatchError?.value?.type
  return inner ? `${kind}.${inner}` : kind
}

export type PolkadotClient = ReturnType<typeof createPolkadotClient>
