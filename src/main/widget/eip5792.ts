import { errorTable } from '../../shared/protocol/errorTable'
import { MAX_CALLS } from '../../shared/protocol/rpcMethods'
import { ProviderRpcError } from './providerRpcError'

/** The most bytes of `data` one call may carry. */
export const MAX_CALL_DATA_BYTES = 128 * 1024
/** The bundles sent call by call that wallet_getCallsStatus remembers; past it the oldest go. */
export const MAX_BUNDLES = 100
/** The longest bundle id accepted, ours or the app's (EIP-5792 v2 allows an app-chosen id). */
export const MAX_BUNDLE_ID_LENGTH = 4096

export const EIP5792_METHODS = ['wallet_getCapabilities', 'wallet_sendCalls', 'wallet_getCallsStatus'] as const
export type Eip5792Method = (typeof EIP5792_METHODS)[number]

/**
 * EIP-5792 v2 status codes of a bundle we send call by call:
 * - 100: a sent call has no receipt yet;
 * - 200: every call was sent and succeeded;
 * - 500: none succeeded (the first reverted; the rest reverted or were not sent);
 * - 600: some succeeded, and the rest reverted or were not sent (the visitor declined one, a call reverted, or the
 *   wallet changed account or chain in between).
 * 400 is not used: when nothing was sent, wallet_sendCalls itself fails and there is no bundle.
 */
const STATUS = { pending: 100, confirmed: 200, reverted: 500, partial: 600 } as const

export type CreateEip5792Parameters = {
  /** An EIP-1193 request to the connected wallet, as it is (the batch was reviewed once, by `review`). */
  walletRequest: (method: string, params?: unknown) => Promise<unknown>
  /** The visitor's review of a batch before any wallet is asked (issue #36); rejects with 4001 when declined. */
  review?: <T>(method: 'wallet_sendCalls', params: unknown, send: () => Promise<T>) => Promise<T>
  /** A read of a chain's nodes through the widget (its worker core, else the chain's RPC URL), never the wallet. */
  read: (chainId: number, method: string, params: readonly unknown[]) => Promise<unknown>
  /** The widget's EVM networks. */
  chainIds: () => readonly number[]
  /** The chain the wallet is on. */
  chainId: () => number | undefined
  /** The connected account, if any. */
  account: () => string | undefined
  /** Names the connected wallet (whether it speaks EIP-5792 is remembered per wallet); undefined when none is. */
  walletId: () => string | undefined
  /** The embedded wallet answers the three methods itself: they go to it as they are. */
  isEmbeddedWallet?: () => boolean
  maxBundles?: number
  /** Between two calls of a bundle, how often the previous call's receipt is looked for, and for how long. */
  receiptPollingIntervalMs?: number
  receiptTimeoutMs?: number
}

export type Eip5792 = {
  handles: (method: string) => method is Eip5792Method
  request: (method: Eip5792Method, params: unknown) => Promise<unknown>
  /** Ends the waits of bundles being sent: their remaining calls are not sent. */
  stop: () => void
}

type Call = { to: string; value?: string; data?: string; capabilities?: Record<string, unknown> }
type SendCallsRequest = { version?: string; id?: string; from?: string; chainId: string; atomicRequired?: boolean; calls: Call[]; capabilities?: Record<string, unknown> }
type Bundle = { chainId: number; callCount: number; hashes: string[] }
type Receipt = { logs?: { address: string; data: string; topics: string[] }[]; status: string; blockHash: string; blockNumber: string; gasUsed: string; transactionHash: string }

const ADDRESS = /^0x[0-9a-fA-F]{40}$/
const QUANTITY = /^0x[0-9a-fA-F]{1,64}$/
const HEX_BYTES = /^0x(?:[0-9a-fA-F]{2})*$/
const HEX_CHAIN_ID = /^0x[0-9a-fA-F]{1,14}$/
const TX_HASH = /^0x[0-9a-fA-F]{64}$/

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)
const isAddress = (value: unknown): value is string => typeof value === 'string' && ADDRESS.test(value)
const isChainId = (value: unknown): value is string => typeof value === 'string' && HEX_CHAIN_ID.test(value) && Number(value) > 0
const isCapabilities = (value: unknown): value is Record<string, unknown> => isRecord(value) && Object.values(value).every(isRecord)
const isReceipt = (value: unknown): value is Receipt => isRecord(value) && typeof value.status === 'string' && typeof value.transactionHash === 'string'
const toHex = (n: number) => `0x${n.toString(16)}`
const clip = (text: string) => (text.length > 70 ? `${text.slice(0, 66)}…` : text)
const invalid = (sentence: string) => new ProviderRpcError(-32602, sentence)
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))
const randomBundleId = () => `0x${Array.from(crypto.getRandomValues(new Uint8Array(32)), (byte) => byte.toString(16).padStart(2, '0')).join('')}`

function checkCall(call: unknown, at: string): void {
  if (!isRecord(call)) throw invalid(`${at} must be an object { to, value?, data? }.`)
  const { to, value, data, capabilities } = call
  if (!isAddress(to)) throw invalid(`${at}.to must be an address starting 0x (40 hex digits).`)
  if (value !== undefined && (typeof value !== 'string' || !QUANTITY.test(value))) throw invalid(`${at}.value must be a hex quantity starting 0x, such as 0x2386f26fc10000.`)
  if (data !== undefined && typeof data !== 'string') throw invalid(`${at}.data must be hex bytes starting 0x.`)
  if (typeof data === 'string' && data.length > 2 + 2 * MAX_CALL_DATA_BYTES) throw invalid(`${at}.data is longer than the ${MAX_CALL_DATA_BYTES} bytes a call may carry.`)
  if (typeof data === 'string' && !HEX_BYTES.test(data)) throw invalid(`${at}.data must be hex bytes starting 0x.`)
  if (capabilities !== undefined && !isCapabilities(capabilities)) throw invalid(`${at}.capabilities must be an object of capability objects.`)
}

/** wallet_sendCalls' params, checked (EIP-5792 v2; SPEC §5): the first thing wrong is named in the error's sentence. */
function parseSendCallsParams(params: unknown): SendCallsRequest {
  const request: unknown = Array.isArray(params) && params.length === 1 ? params[0] : undefined
  if (!isRecord(request)) throw invalid('wallet_sendCalls takes one object: [{ chainId, calls, from?, version?, atomicRequired?, capabilities? }].')
  const { version, id, from, chainId, atomicRequired, calls, capabilities } = request
  if (version !== undefined && typeof version !== 'string') throw invalid('wallet_sendCalls: version must be a string, such as "2.0.0".')
  if (id !== undefined && (typeof id !== 'string' || id.length === 0 || id.length > MAX_BUNDLE_ID_LENGTH)) throw invalid(`wallet_sendCalls: id must be a string of 1 to ${MAX_BUNDLE_ID_LENGTH} characters.`)
  if (from !== undefined && !isAddress(from)) throw invalid('wallet_sendCalls: from must be an address starting 0x (40 hex digits).')
  if (!isChainId(chainId)) throw invalid('wallet_sendCalls: chainId must be a hex chain id, such as 0x1.')
  if (atomicRequired !== undefined && typeof atomicRequired !== 'boolean') throw invalid('wallet_sendCalls: atomicRequired must be true or false.')
  if (capabilities !== undefined && !isCapabilities(capabilities)) throw invalid('wallet_sendCalls: capabilities must be an object of capability objects.')
  if (!Array.isArray(calls) || calls.length === 0) throw invalid(`wallet_sendCalls: calls must be a list of 1 to ${MAX_CALLS} calls.`)
  if (calls.length > MAX_CALLS) throw invalid(`wallet_sendCalls: at most ${MAX_CALLS} calls are accepted; this request has ${calls.length}.`)
  ;(calls as unknown[]).forEach((call, index) => checkCall(call, `wallet_sendCalls: calls[${index}]`))
  return request as SendCallsRequest
}

function parseGetCallsStatusParams(params: unknown): string {
  const id: unknown = Array.isArray(params) && params.length === 1 ? params[0] : undefined
  if (typeof id !== 'string' || id.length === 0 || id.length > MAX_BUNDLE_ID_LENGTH) throw invalid('wallet_getCallsStatus takes [id]: the id wallet_sendCalls answered.')
  return id
}

/** wallet_getCapabilities' params: [address?, chainIds?]; the chain ids asked for, if any. */
function parseGetCapabilitiesParams(params: unknown): string[] | undefined {
  const [address, chainIds]: unknown[] = Array.isArray(params) ? params : []
  const isValid = (params === undefined || (Array.isArray(params) && params.length <= 2)) && (address === undefined || isAddress(address)) && (chainIds === undefined || (Array.isArray(chainIds) && chainIds.every((id) => typeof id === 'string' && HEX_CHAIN_ID.test(id))))
  if (!isValid) throw invalid('wallet_getCapabilities takes [address, chainIds?]: an address starting 0x, then a list of hex chain ids.')
  return chainIds as string[] | undefined
}

/** An error and its causes, outermost first. */
const causesOf = (error: unknown) => {
  const chain: Record<string, unknown>[] = []
  for (let e = error; isRecord(e) && chain.length < 8; e = e.cause) chain.push(e)
  return chain
}

/** The numeric code of a wallet's error: its own `code`, or a widget error's `rpcCode`, in it or its causes. */
const rpcCodeOf = (error: unknown): number | undefined => {
  for (const e of causesOf(error)) {
    if (typeof e.code === 'number') return e.code
    if (typeof e.rpcCode === 'number') return e.rpcCode
  }
  return undefined
}

/** How a wallet says it has no such method: EIP-1193's 4200, JSON-RPC's -32601 and -32004. */
const METHOD_UNSUPPORTED_CODES = new Set([4200, -32601, -32004])
/** Codes that mean something else (a refusal, no authorization, bad params, EIP-5792's own): their text is not read. */
const isOtherMeaningCode = (code: number) => [4001, 4100, 4900, 4901, 4902, -32602].includes(code) || (code >= 5700 && code < 5800)
const METHOD_UNSUPPORTED_TEXT = /\b(?:method|wallet_\w+)\b[^.]{0,40}\bnot (?:supported|found|implemented|available)|\b(?:unsupported|unknown) method|does not exist|missing or invalid\. request\(\) method/i

/** Whether the wallet answered that it has no such method: by the code; by the text only for a code that says nothing (-32603, -32000, none). */
export function isMethodUnsupportedError(error: unknown): boolean {
  const code = rpcCodeOf(error)
  if (code !== undefined && METHOD_UNSUPPORTED_CODES.has(code)) return true
  if (code !== undefined && isOtherMeaningCode(code)) return false
  const texts = causesOf(error).flatMap((e) => [e.message, e.details, e.shortMessage].filter((text): text is string => typeof text === 'string'))
  return texts.some((text) => METHOD_UNSUPPORTED_TEXT.test(text))
}

/**
 * EIP-5792 (wallet_getCapabilities, wallet_sendCalls, wallet_getCallsStatus) for any connected wallet:
 * 1. wallet_sendCalls' params are checked before any wallet is asked (-32602 naming what is wrong, 4100 without an
 *    account);
 * 2. a wallet that speaks EIP-5792 gets the requests as they are, and so does the embedded wallet;
 * 3. for a wallet that answers it has no such method (remembered per wallet), wallet_getCapabilities says `atomic:
 *    unsupported` for the widget's EVM networks, and wallet_sendCalls sends the calls one after the other with
 *    eth_sendTransaction (the visitor approves each), each after the one before is included;
 * 4. wallet_getCallsStatus answers for those bundles from their receipts, read through the widget, never the wallet.
 * @example const eip5792 = createEip5792({ walletRequest, read, chainIds, chainId, account, walletId }); await eip5792.request('wallet_sendCalls', [{ chainId: '0x1', calls }])
 */
export function createEip5792({
  walletRequest,
  read,
  chainIds,
  chainId: currentChainId,
  account: currentAccount,
  walletId,
  isEmbeddedWallet = () => false,
  review = (_method, _params, send) => send(),
  maxBundles = MAX_BUNDLES,
  receiptPollingIntervalMs = 1_000,
  receiptTimeoutMs = 300_000,
}: CreateEip5792Parameters): Eip5792 {
  const bundles = new Map<string, Bundle>()
  /** App-chosen ids of bundles being sent, so the same id twice at once is refused too. */
  const sendingIds = new Set<string>()
  let isStopped = false
  /** Wallets that answered they have no EIP-5792 method: asked no more. */
  const withoutEip5792 = new Set<string>()

  /** The wallet's own answer; undefined when it has no such method (then remembered). */
  const askWallet = async (method: Eip5792Method, params: unknown): Promise<{ result: unknown } | undefined> => {
    if (isEmbeddedWallet()) return { result: await walletRequest(method, params) }
    const id = walletId()
    if (id !== undefined && withoutEip5792.has(id)) return undefined
    try {
      return { result: await walletRequest(method, params) }
    } catch (error) {
      if (!isMethodUnsupportedError(error)) throw error
      if (id !== undefined) withoutEip5792.add(id)
      return undefined
    }
  }

  const getCapabilities = async (params: unknown) => {
    const asked = parseGetCapabilitiesParams(params)
    const answer = await askWallet('wallet_getCapabilities', params)
    if (answer) return answer.result
    const chains = chainIds().filter((id) => !asked || asked.some((hex) => Number(hex) === id))
    return Object.fromEntries(chains.map((id) => [toHex(id), { atomic: { status: 'unsupported' } }]))
  }

  /** The receipt of `hash`, looked for until it is there or the time is up (then undefined). */
  const waitForReceipt = async (chainId: number, hash: string): Promise<Receipt | undefined> => {
    const deadline = Date.now() + receiptTimeoutMs
    for (;;) {
      const receipt = await read(chainId, 'eth_getTransactionReceipt', [hash]).catch(() => undefined)
      if (isReceipt(receipt)) return receipt
      if (isStopped || Date.now() >= deadline) return undefined
      await sleep(receiptPollingIntervalMs)
    }
  }

  /**
   * The calls one after the other. Each waits for the one before to be included: a call may depend on it (approve,
   * then swap), and the wallet estimates its gas on the chain's state. A refusal of the first call fails the request;
   * after that, a refusal, a revert, a receipt that does not come, or a change of account or chain stops the bundle,
   * and the calls sent stand.
   */
  const sendEach = async (request: SendCallsRequest, account: string, chainId: number): Promise<{ id: string }> => {
    const hashes: string[] = []
    for (const [index, call] of request.calls.entries()) {
      if (index > 0 && (isStopped || currentAccount()?.toLowerCase() !== account.toLowerCase() || currentChainId() !== chainId)) break
      const transaction = { from: account, to: call.to, chainId: request.chainId, ...(call.value !== undefined && { value: call.value }), ...(call.data !== undefined && { data: call.data }) }
      let hash: unknown
      try {
        hash = await walletRequest('eth_sendTransaction', [transaction])
      } catch (error) {
        if (index === 0) throw error
        break
      }
      if (typeof hash !== 'string' || !TX_HASH.test(hash)) {
        if (index === 0) throw new ProviderRpcError(-32603, 'wallet_sendCalls: the wallet answered eth_sendTransaction without a transaction hash.')
        break
      }
      hashes.push(hash)
      if (index === request.calls.length - 1) break
      if ((await waitForReceipt(chainId, hash))?.status !== '0x1') break
    }
    const id = request.id ?? randomBundleId()
    bundles.set(id, { chainId, callCount: request.calls.length, hashes })
    for (const oldest of bundles.keys()) if (bundles.size > maxBundles) bundles.delete(oldest)
    return { id }
  }

  /** Refuses what sending call by call cannot honour (atomicity, required capabilities, a chain we cannot follow, a used id), then sends. */
  const sendOneByOne = async (request: SendCallsRequest, account: string): Promise<{ id: string }> => {
    const chainId = Number(request.chainId)
    if (request.atomicRequired) throw new ProviderRpcError(5760, 'wallet_sendCalls: this wallet cannot run calls atomically (atomicRequired: true); with atomicRequired: false the calls are sent one after the other.')
    for (const capabilities of [request.capabilities, ...request.calls.map((call) => call.capabilities)]) {
      const required = Object.entries(capabilities ?? {}).find(([, capability]) => (capability as { optional?: unknown }).optional !== true)
      if (required) throw new ProviderRpcError(5700, `wallet_sendCalls: this wallet does not support the capability "${clip(required[0])}"; mark it optional to send the calls without it.`)
    }
    if (!chainIds().includes(chainId)) throw new ProviderRpcError(5710, `wallet_sendCalls: chain ${request.chainId} is not one of the site's networks, so its calls cannot be followed.`)
    if (request.id !== undefined && (bundles.has(request.id) || sendingIds.has(request.id))) throw new ProviderRpcError(5720, `wallet_sendCalls: a bundle with the id ${clip(request.id)} was sent already.`)
    if (request.id !== undefined) sendingIds.add(request.id)
    try {
      return await sendEach(request, account, chainId)
    } finally {
      if (request.id !== undefined) sendingIds.delete(request.id)
    }
  }

  const sendCalls = async (params: unknown) => {
    const request = parseSendCallsParams(params)
    const account = currentAccount()
    if (account === undefined) throw new ProviderRpcError(4100, errorTable.UNAUTHORIZED.message)
    if (request.from !== undefined && request.from.toLowerCase() !== account.toLowerCase()) throw invalid(`wallet_sendCalls: from ${request.from} is not the connected account (${account}).`)
    const current = currentChainId()
    if (Number(request.chainId) !== current) throw invalid(`wallet_sendCalls: chainId ${request.chainId} is not the chain the wallet is on (${current === undefined ? 'none' : toHex(current)}); switch to it first.`)
    return review('wallet_sendCalls', params, async () => {
      const answer = await askWallet('wallet_sendCalls', params)
      return answer ? answer.result : sendOneByOne(request, account)
    })
  }

  const getCallsStatus = async (params: unknown) => {
    const id = parseGetCallsStatusParams(params)
    const bundle = bundles.get(id)
    if (!bundle) {
      const answer = await askWallet('wallet_getCallsStatus', params)
      if (answer) return answer.result
      throw new ProviderRpcError(5730, `wallet_getCallsStatus: the bundle id ${clip(id)} is unknown: no bundle was sent with it, or it is older than the last ${maxBundles}.`)
    }
    const found = await Promise.all(bundle.hashes.map((hash) => read(bundle.chainId, 'eth_getTransactionReceipt', [hash])))
    const receipts = found.filter(isReceipt)
    const succeeded = receipts.filter((receipt) => receipt.status === '0x1').length
    const status = receipts.length < bundle.hashes.length ? STATUS.pending : succeeded === bundle.callCount ? STATUS.confirmed : succeeded === 0 ? STATUS.reverted : STATUS.partial
    return {
      version: '2.0.0',
      id,
      chainId: toHex(bundle.chainId),
      atomic: false,
      status,
      receipts: receipts.map(({ logs = [], status, blockHash, blockNumber, gasUsed, transactionHash }) => ({
        logs: logs.map(({ address, data, topics }) => ({ address, data, topics })),
        status,
        blockHash,
        blockNumber,
        gasUsed,
        transactionHash,
      })),
    }
  }

  const handlers: Record<Eip5792Method, (params: unknown) => Promise<unknown>> = {
    wallet_getCapabilities: getCapabilities,
    wallet_sendCalls: sendCalls,
    wallet_getCallsStatus: getCallsStatus,
  }
  return {
    handles: (method): method is Eip5792Method => Object.hasOwn(handlers, method),
    request: (method, params) => handlers[method](params),
    stop: () => {
      isStopped = true
    },
  }
}
