import { createStore } from 'zustand/vanilla'
import type { Address, Hex } from 'viem'
import { errorTable } from '../../shared/protocol/errorTable'
import type { ErrorCode } from '../../shared/protocol/errorTable'
import type { CallsReview, CallToReview, LegacyTypedDataReview, MessageReview, NativeCurrency, PermissionsReview, PsbtReview, ReviewRow, ReviewValue, SolanaTransactionReview, TransactionReview, TransactionToReview, TypedDataReview } from '../../shared/protocol/review'
import type { Core } from '../core/createCore'
import type { createModal } from '../state/createModal'
import type { Router } from '../state/createRouter'
import { ProviderRpcError } from './providerRpcError'
import { PERMISSION_METHODS, readPermissionRequest, type PermissionMethod } from './readPermissionRequest'

/** The wallet requests a visitor reviews before the wallet asks (issue #36). */
export const REVIEWED_METHODS = ['eth_sendTransaction', 'eth_signTransaction', 'wallet_sendCalls', 'eth_signTypedData_v4', 'eth_signTypedData_v3', 'eth_signTypedData', 'eth_signTypedData_v1', 'personal_sign', 'eth_sign', ...PERMISSION_METHODS] as const
export type ReviewedMethod = (typeof REVIEWED_METHODS)[number]

export const isReviewedMethod = (method: string): method is ReviewedMethod => (REVIEWED_METHODS as readonly string[]).includes(method)

/** Requests of the other signing families, reviewed the same way: a Solana wire transaction, a Bitcoin PSBT. */
export type FamilyReviewedMethod = 'solana_signTransaction' | 'bip122_signPsbt'

export type RequestReviewResult = TransactionReview | CallsReview | TypedDataReview | LegacyTypedDataReview | MessageReview | PermissionsReview | SolanaTransactionReview | PsbtReview

/**
 * The request the visitor is looking at: `checking` while the worker works it out, `ready` with the review (or the
 * reason it could not be made, `failure`), `inWallet` once confirmed and the wallet asks.
 */
export type PendingReview = {
  id: number
  method: ReviewedMethod | FamilyReviewedMethod
  caipNetworkId: string | undefined
  status: 'checking' | 'ready' | 'inWallet'
  review?: RequestReviewResult
  /** Why no review could be made (no worker, the worker failed): the view says what was not checked. */
  failure?: ErrorCode | 'unavailable'
}

export type RequestReviewState = { pending: PendingReview | undefined }

export type CreateRequestReviewParameters = {
  core: Pick<Core, 'reviewTransaction' | 'reviewCalls' | 'reviewTypedData'> | undefined
  router: Router
  modal: Pick<ReturnType<typeof createModal>, 'store' | 'open' | 'close'>
  /** The connected EVM account and the chain its wallet is on. */
  account: () => { address: string; caipNetworkId: string | undefined } | undefined
  /** The native currency of a site's EVM network, by CAIP-2 id. */
  nativeCurrency: (caipNetworkId: string) => NativeCurrency | undefined
  /** The site's ERC-7730 calldata descriptors. */
  descriptors?: readonly unknown[]
  /** The page's host (`location.host`): a Sign-In with Ethereum message for another host is warned of. */
  pageHost?: string
}

const ADDRESS = /^0x[0-9a-fA-F]{40}$/
const QUANTITY = /^0x[0-9a-fA-F]{1,64}$/
const DATA = /^0x(?:[0-9a-fA-F]{2})*$/

const invalid = (message: string) => new ProviderRpcError(-32602, message)

/**
 * How many requests may wait behind the review on screen. A wallet asks one thing at a time and keeps a handful in
 * line (MetaMask does the same); a site that fires more is refused at once (-32002) until the line shortens.
 */
export const MAX_WAITING_REVIEWS = 4

/**
 * The longest typed data reviewed, in characters of JSON: real orders (Permit2, Seaport) are a few thousand, so this
 * only stops a payload too big to read before the page and the worker parse it.
 */
export const MAX_TYPED_DATA_CHARS = 100_000

/** The longest personal_sign message (or eth_sign data) reviewed, in characters (hex or text): a sign-in message is a few hundred. */
export const MAX_MESSAGE_CHARS = 100_000

const count = (n: number) => n.toLocaleString('en-US')

const tooLong = (method: string, length: number) => invalid(`${method}: the typed data is ${count(length)} characters; at most ${count(MAX_TYPED_DATA_CHARS)} are reviewed.`)

/** personal_sign's message (hex bytes, or text as some sites send it), at most MAX_MESSAGE_CHARS long (-32602 past it). */
export function readMessage(params: unknown): string {
  const message = Array.isArray(params) ? params[0] : undefined
  if (typeof message !== 'string') throw invalid('personal_sign takes [message, address]: the message must be hex bytes or text.')
  if (message.length > MAX_MESSAGE_CHARS) throw invalid(`personal_sign: the message is ${count(message.length)} characters; at most ${count(MAX_MESSAGE_CHARS)} are reviewed.`)
  return message
}

/** eth_sign's data: [address, data], the data hex bytes at most MAX_MESSAGE_CHARS long (-32602 otherwise). */
export function readBlindSignature(params: unknown): Hex {
  const method = 'eth_sign'
  if (!Array.isArray(params)) throw invalid(`${method} takes [address, data]: the data must be hex bytes.`)
  readAddress(method, 'address', params[0], true)
  const data: unknown = params[1]
  if (typeof data === 'string' && data.length > MAX_MESSAGE_CHARS) throw invalid(`${method}: the data is ${count(data.length)} characters; at most ${count(MAX_MESSAGE_CHARS)} are reviewed.`)
  if (typeof data !== 'string' || !DATA.test(data)) throw invalid(`${method} takes [address, data]: the data must be hex bytes.`)
  return data as Hex
}

/** The JSON length of typed data given as an object (bigints as their digits), or undefined when it is not JSON (a cycle). */
function jsonLength(value: object): number | undefined {
  try {
    return JSON.stringify(value, (_key, item: unknown) => (typeof item === 'bigint' ? item.toString() : item))?.length ?? 0
  } catch {
    return undefined
  }
}

function readAddress(method: string, field: string, value: unknown, required: boolean): Address | undefined {
  if (value === undefined || value === null) {
    if (required) throw invalid(`${method}: "${field}" is missing; it must be a 20-byte hex address.`)
    return undefined
  }
  if (typeof value !== 'string' || !ADDRESS.test(value)) throw invalid(`${method}: "${field}" must be a 20-byte hex address.`)
  return value as Address
}

function readQuantity(method: string, field: string, value: unknown): bigint | undefined {
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'string' || !QUANTITY.test(value)) throw invalid(`${method}: "${field}" must be a hex quantity such as 0x1.`)
  return BigInt(value)
}

function readData(method: string, field: string, value: unknown): Hex | undefined {
  if (value === undefined || value === null) return undefined
  if (typeof value !== 'string' || !DATA.test(value)) throw invalid(`${method}: "${field}" must be hex bytes starting with 0x.`)
  return value as Hex
}

/** eth_sendTransaction's (or eth_signTransaction's) transaction, checked field by field (-32602 naming the field). */
export function readTransaction(params: unknown, method: 'eth_sendTransaction' | 'eth_signTransaction' = 'eth_sendTransaction'): TransactionToReview & { chainId?: bigint } {
  const tx = Array.isArray(params) ? (params[0] as Record<string, unknown> | undefined) : undefined
  if (typeof tx !== 'object' || tx === null) throw invalid(`${method} takes [transaction], a transaction object.`)
  const data = readData(method, 'data', tx.data ?? tx.input)
  const value = readQuantity(method, 'value', tx.value)
  const gas = readQuantity(method, 'gas', tx.gas)
  const gasPrice = readQuantity(method, 'gasPrice', tx.gasPrice)
  const maxFeePerGas = readQuantity(method, 'maxFeePerGas', tx.maxFeePerGas)
  const chainId = readQuantity(method, 'chainId', tx.chainId)
  const to = readAddress(method, 'to', tx.to, false)
  return {
    from: readAddress(method, 'from', tx.from, true)!,
    ...(to && { to }),
    ...(data && { data }),
    ...(value !== undefined && { value }),
    ...(gas !== undefined && { gas }),
    ...(gasPrice !== undefined && { gasPrice }),
    ...(maxFeePerGas !== undefined && { maxFeePerGas }),
    ...(chainId !== undefined && { chainId }),
  }
}

/** wallet_sendCalls' batch: its chain, sender and calls (EIP-5792's shape, already checked by createEip5792 for the provider). */
export function readCalls(params: unknown): { chainId: bigint; from?: Address; calls: CallToReview[] } {
  const method = 'wallet_sendCalls'
  const request = Array.isArray(params) ? (params[0] as Record<string, unknown> | undefined) : undefined
  if (typeof request !== 'object' || request === null || !Array.isArray(request.calls)) throw invalid(`${method} takes [{ chainId, calls }].`)
  const chainId = readQuantity(method, 'chainId', request.chainId)
  if (chainId === undefined) throw invalid(`${method}: "chainId" is missing; it must be a hex chain id.`)
  const calls = (request.calls as unknown[]).map((call, index) => {
    if (typeof call !== 'object' || call === null) throw invalid(`${method}: calls[${index}] must be an object.`)
    const { to, data, value } = call as Record<string, unknown>
    const address = readAddress(method, `calls[${index}].to`, to, false)
    const bytes = readData(method, `calls[${index}].data`, data)
    const amount = readQuantity(method, `calls[${index}].value`, value)
    return { ...(address && { to: address }), ...(bytes && { data: bytes }), ...(amount !== undefined && { value: amount }) }
  })
  const from = readAddress(method, 'from', request.from, false)
  return { chainId, ...(from && { from }), calls }
}

/** eth_signTypedData_v4's typed data (the JSON string or the object), at most MAX_TYPED_DATA_CHARS long (-32602 past it). */
export function readTypedData(method: string, params: unknown): unknown {
  const typedData = Array.isArray(params) ? params[1] : undefined
  if (typeof typedData === 'string') {
    if (typedData.length > MAX_TYPED_DATA_CHARS) throw tooLong(method, typedData.length)
    try {
      return JSON.parse(typedData)
    } catch {
      throw invalid(`${method}: the typed data is not valid JSON.`)
    }
  }
  if (typeof typedData !== 'object' || typedData === null) throw invalid(`${method} takes [address, typedData].`)
  const length = jsonLength(typedData)
  if (length === undefined) throw invalid(`${method}: the typed data is not valid JSON.`)
  if (length > MAX_TYPED_DATA_CHARS) throw tooLong(method, length)
  return typedData
}

/** The most fields legacy typed data may have: real ones have a handful; past it the request is refused (-32602). */
export const MAX_LEGACY_FIELDS = 100

const UINT_OR_INT = /^u?int(\d*)$/
const FIXED_BYTES = /^bytes([1-9]|[12]\d|3[0-2])$/

/** A legacy field's value as the review shows it, checked against its Solidity type (-32602 naming the field when it does not fit). */
function legacyValue(method: string, field: string, type: string, value: unknown): ReviewValue {
  const wrong = (what: string) => invalid(`${method}: ${field}.value must be ${what} for its type ${type.slice(0, 40)}.`)
  if (type === 'address') {
    if (typeof value !== 'string' || !ADDRESS.test(value)) throw wrong('a 20-byte hex address')
    return { kind: 'address', address: value as Address }
  }
  if (type === 'bool') {
    if (typeof value !== 'boolean') throw wrong('true or false')
    return { kind: 'bool', value }
  }
  if (type === 'string') {
    if (typeof value !== 'string') throw wrong('text')
    return { kind: 'text', value }
  }
  if (type === 'bytes' || FIXED_BYTES.test(type)) {
    if (typeof value !== 'string' || !DATA.test(value)) throw wrong('hex bytes starting with 0x')
    return { kind: 'bytes', value: value as Hex }
  }
  if (UINT_OR_INT.test(type)) {
    const isInteger = (typeof value === 'number' && Number.isSafeInteger(value)) || (typeof value === 'string' && /^-?\d{1,78}$|^0x[0-9a-fA-F]{1,64}$/.test(value))
    if (!isInteger) throw wrong('an integer (a number, or its digits or hex in a string)')
    return { kind: 'number', value: BigInt(value as number | string) }
  }
  // Arrays and other Solidity types: as the site wrote them.
  return { kind: 'text', value: JSON.stringify(value) ?? String(value) }
}

/**
 * Legacy typed data (eth_signTypedData_v1, MetaMask's eth_signTypedData): [fields, address], each field
 * `{ type, name, value }`. Read field by field into the rows the review shows (-32602 naming what is wrong).
 */
export function readLegacyTypedData(method: string, params: unknown): ReviewRow[] {
  const fields = Array.isArray(params) ? params[0] : undefined
  if (!Array.isArray(fields) || fields.length === 0) throw invalid(`${method} takes [typedData, address]: typedData must be a list of { type, name, value }.`)
  if (fields.length > MAX_LEGACY_FIELDS) throw invalid(`${method}: the typed data has ${count(fields.length)} fields; at most ${MAX_LEGACY_FIELDS} are reviewed.`)
  const length = jsonLength(fields)
  if (length === undefined) throw invalid(`${method}: the typed data is not valid JSON.`)
  if (length > MAX_TYPED_DATA_CHARS) throw tooLong(method, length)
  readAddress(method, 'address', (params as unknown[])[1], true)
  return fields.map((field: unknown, index) => {
    const { type, name, value } = (typeof field === 'object' && field !== null ? field : {}) as Record<string, unknown>
    if (typeof type !== 'string' || typeof name !== 'string') throw invalid(`${method}: typedData[${index}] must be { type, name, value } with type and name as text.`)
    return { path: `[${index}]`, label: name, value: legacyValue(method, `typedData[${index}]`, type, value) }
  })
}

/** eth_signTypedData is legacy typed data as MetaMask takes it ([fields, address]), or EIP-712's as the EIP names it ([address, typedData]). */
const isLegacyTypedData = (method: string, params: unknown) => method === 'eth_signTypedData_v1' || (method === 'eth_signTypedData' && Array.isArray(params) && Array.isArray(params[0]))

/**
 * The review before the wallet asks (issue #36): a request the site makes through the widget opens the modal on the
 * review, the worker decodes and simulates it, and the visitor confirms (the wallet is then asked) or declines (4001 to
 * the site; closing the modal is declining). Requests wait their turn, one review at a time.
 * @example const review = createRequestReview({ core, router, modal, account, nativeCurrency }); await review.confirm({ method, params })
 */
export function createRequestReview({ core, router, modal, account, nativeCurrency, descriptors, pageHost }: CreateRequestReviewParameters) {
  const store = createStore<RequestReviewState>()(() => ({ pending: undefined }))
  let nextId = 1
  let queue: Promise<unknown> = Promise.resolve()
  /** Requests taken and not settled yet: the one on screen (or in the wallet) and those waiting behind it. */
  let unsettled = 0
  let decide: ((confirmed: boolean) => void) | undefined

  const update = (id: number, patch: Partial<PendingReview>) => {
    const { pending } = store.getState()
    if (pending?.id === id) store.setState({ pending: { ...pending, ...patch } })
  }

  /** The request read (a malformed one fails here, naming its field, before the visitor sees anything) and its network. */
  const readRequest = (method: ReviewedMethod, params: unknown, walletNetwork: string | undefined, from: Address) => {
    if (method === 'eth_sendTransaction' || method === 'eth_signTransaction') {
      const { chainId, ...request } = readTransaction(params, method)
      return { caipNetworkId: chainId === undefined ? walletNetwork : `eip155:${chainId}`, query: { kind: 'transaction', request } as const }
    }
    if (method === 'wallet_sendCalls') {
      const { chainId, calls, from: sender } = readCalls(params)
      return { caipNetworkId: `eip155:${chainId}`, query: { kind: 'calls', from: sender ?? from, calls } as const }
    }
    if (method === 'personal_sign') return { caipNetworkId: walletNetwork, query: { kind: 'message', message: readMessage(params) } as const }
    if (method === 'eth_sign') return { caipNetworkId: walletNetwork, query: { kind: 'blindSignature', data: readBlindSignature(params) } as const }
    if ((PERMISSION_METHODS as readonly string[]).includes(method)) {
      const review = readPermissionRequest(method as PermissionMethod, params)
      return { caipNetworkId: review.grants[0]!.caipNetworkId, query: { kind: 'permissions', review } as const }
    }
    if (isLegacyTypedData(method, params)) return { caipNetworkId: walletNetwork, query: { kind: 'legacyTypedData', fields: readLegacyTypedData(method, params) } as const }
    return { caipNetworkId: walletNetwork, query: { kind: 'typedData', typedData: readTypedData(method, params) } as const }
  }

  const makeReview = async ({ caipNetworkId, query }: ReturnType<typeof readRequest>): Promise<RequestReviewResult> => {
    // A message is read here, on the page: no chain to ask, and its code loads with the first one.
    if (query.kind === 'message') return (await import('./reviewMessage')).reviewMessage(query.message, pageHost)
    if (query.kind === 'blindSignature') return (await import('./reviewMessage')).reviewBlindSignature(query.data)
    if (query.kind === 'legacyTypedData') return { kind: 'legacyTypedData', fields: query.fields }
    if (query.kind === 'permissions') return query.review
    if (!core) throw new Error('unavailable')
    if (query.kind === 'typedData') return core.reviewTypedData({ typedData: query.typedData as never, ...(caipNetworkId && { caipNetworkId }) })
    if (!caipNetworkId) throw new Error('unavailable')
    const currency = nativeCurrency(caipNetworkId)
    const chain = { caipNetworkId, ...(descriptors && { descriptors }), ...(currency && { nativeCurrency: currency }) }
    return query.kind === 'transaction' ? core.reviewTransaction({ ...chain, request: query.request }) : core.reviewCalls({ ...chain, from: query.from, calls: query.calls })
  }

  /** The EVM request read and its review started: a malformed one fails here, before the visitor sees anything. */
  const prepareEvm = (method: ReviewedMethod, params: unknown) => {
    const connected = account()
    if (!connected) throw new ProviderRpcError(4100, errorTable.UNAUTHORIZED.message)
    const request = readRequest(method, params, connected.caipNetworkId, connected.address as Address)
    return { method, caipNetworkId: request.caipNetworkId, makeReview: () => makeReview(request) }
  }

  /** One review, from opening to the visitor's answer; the wallet's answer comes after (see `confirm`). */
  const run = async ({ method, caipNetworkId, makeReview }: { method: PendingReview['method']; caipNetworkId: string | undefined; makeReview: () => Promise<RequestReviewResult> }): Promise<() => void> => {
    const id = nextId++
    store.setState({ pending: { id, method, caipNetworkId, status: 'checking' } })
    const wasOpen = modal.store.getState().open
    if (wasOpen) router.push('ReviewRequest')
    else {
      router.reset('ReviewRequest')
      void modal.open()
    }
    const decided = new Promise<boolean>((resolve) => (decide = resolve))
    // Closing the modal, or leaving the review for another view, is declining.
    const stopWatching = [
      modal.store.subscribe((state) => {
        if (!state.open) decide?.(false)
      }),
      router.store.subscribe((state) => {
        if (state.view !== 'ReviewRequest') decide?.(false)
      }),
    ]
    makeReview().then(
      (review) => update(id, { status: 'ready', review }),
      (error: unknown) => update(id, { status: 'ready', failure: typeof (error as { code?: unknown }).code === 'string' ? (error as { code: ErrorCode }).code : 'unavailable' }),
    )
    const confirmed = await decided
    decide = undefined
    stopWatching.forEach((stop) => stop())
    // Opened over another view (Swap, Send): back to it, which follows the wallet itself; opened for the request alone:
    // the review says the wallet is asking, and the modal closes once it answered.
    const leave = () => {
      if (wasOpen && router.store.getState().view === 'ReviewRequest') router.goBack()
    }
    const finish = () => {
      if (store.getState().pending?.id !== id) return
      store.setState({ pending: undefined })
      if (!wasOpen) modal.close()
      else leave()
    }
    if (!confirmed) {
      finish()
      throw new ProviderRpcError(4001, errorTable.USER_REJECTED.message)
    }
    update(id, { status: 'inWallet' })
    leave()
    return finish
  }

  /**
   * Requests wait their turn: a review shows once the wallet answered the one before. At most MAX_WAITING_REVIEWS wait
   * behind the one on screen; past them a request is refused at once (-32002), opening nothing.
   */
  const inTurn = <T,>(prepare: () => Parameters<typeof run>[0], send: () => Promise<T>): Promise<T> => {
    if (unsettled > MAX_WAITING_REVIEWS) return Promise.reject(new ProviderRpcError(-32002, 'Too many requests are already waiting for your review: answer them in the wallet window first.'))
    unsettled++
    const turn = queue.then(async () => {
      try {
        const finish = await run(prepare())
        try {
          return await send()
        } finally {
          finish()
        }
      } finally {
        unsettled--
      }
    })
    queue = turn.catch(() => {})
    return turn
  }

  return {
    store,
    /**
     * Shows the request, waits for the visitor, then sends it with `send` (the wallet asks); 4001 when declined. The
     * review stays on screen, saying the wallet is asking, until the wallet answers.
     */
    confirm<T>({ method, params }: { method: ReviewedMethod; params?: unknown }, send: () => Promise<T>): Promise<T> {
      return inTurn(() => prepareEvm(method, params), send)
    },
    /**
     * The same for a Solana transaction or a Bitcoin PSBT: `review` asks the family's worker module (core.solana,
     * core.bitcoin) what it will do.
     * @example await review.confirmFamily({ method: 'bip122_signPsbt', caipNetworkId, review: () => core.bitcoin.reviewPsbt({ caipNetworkId, psbt, addresses }) }, () => connector.signPsbt(args))
     */
    confirmFamily<T>({ method, caipNetworkId, review }: { method: FamilyReviewedMethod; caipNetworkId: string; review: () => Promise<SolanaTransactionReview | PsbtReview> }, send: () => Promise<T>): Promise<T> {
      return inTurn(() => {
        if (!core) return { method, caipNetworkId, makeReview: () => Promise.reject(new Error('unavailable')) }
        return { method, caipNetworkId, makeReview: review }
      }, send)
    },
    /** The visitor's answer to the review on screen (the view's buttons). */
    decide(confirmed: boolean) {
      const { pending } = store.getState()
      if (pending?.status === 'ready' || (pending?.status === 'checking' && !confirmed)) decide?.(confirmed)
    },
  }
}

export type RequestReview = ReturnType<typeof createRequestReview>
