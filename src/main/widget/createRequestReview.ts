import { createStore } from 'zustand/vanilla'
import type { Address } from 'viem'
import { errorTable } from '../../shared/protocol/errorTable'
import type { ErrorCode } from '../../shared/protocol/errorTable'
import type { CallsReview, LegacyTypedDataReview, MessageReview, NativeCurrency, PermissionsReview, PsbtReview, SolanaTransactionReview, TransactionReview, TypedDataReview } from '../../shared/protocol/review'
import type { Core } from '../core/createCore'
import type { createModal } from '../state/createModal'
import type { Router } from '../state/createRouter'
import { ProviderRpcError } from './providerRpcError'
import type { ReviewQuery } from './readReviewedRequest'
import type { ReviewedMethod } from './reviewedMethods'
import { retryingImport } from '../lazy/retryingImport'

// A message's reading and an EVM request's load with the first review (a failed load is asked for anew by the next).
const reviewMessageCode = retryingImport(() => import('./reviewMessage'), 'reviewMessage')
const readReviewedRequestCode = retryingImport(() => import('./readReviewedRequest'), 'readReviewedRequest')

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

/**
 * How many requests may wait behind the review on screen. A wallet asks one thing at a time and keeps a handful in
 * line (MetaMask does the same); a site that fires more is refused at once (-32002) until the line shortens.
 */
export const MAX_WAITING_REVIEWS = 4

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

  const makeReview = async ({ caipNetworkId, query }: ReviewQuery): Promise<RequestReviewResult> => {
    // A message is read here, on the page: no chain to ask, and its code loads with the first one.
    if (query.kind === 'message') return (await reviewMessageCode()).reviewMessage(query.message, pageHost)
    if (query.kind === 'blindSignature') return (await reviewMessageCode()).reviewBlindSignature(query.data)
    if (query.kind === 'legacyTypedData') return { kind: 'legacyTypedData', fields: query.fields }
    if (query.kind === 'permissions') return query.review
    if (!core) throw new Error('unavailable')
    if (query.kind === 'typedData') return core.reviewTypedData({ typedData: query.typedData as never, ...(caipNetworkId && { caipNetworkId }) })
    if (!caipNetworkId) throw new Error('unavailable')
    const currency = nativeCurrency(caipNetworkId)
    const chain = { caipNetworkId, ...(descriptors && { descriptors }), ...(currency && { nativeCurrency: currency }) }
    return query.kind === 'transaction' ? core.reviewTransaction({ ...chain, request: query.request }) : core.reviewCalls({ ...chain, from: query.from, calls: query.calls })
  }

  /**
   * The EVM request read and its review started: a malformed one fails here, before the visitor sees anything. When
   * the reading code cannot load (offline), the review says it could not check the request.
   */
  const prepareEvm = async (method: ReviewedMethod, params: unknown): Promise<Parameters<typeof run>[0]> => {
    const connected = account()
    if (!connected) throw new ProviderRpcError(4100, errorTable.UNAUTHORIZED.message)
    const reading = await readReviewedRequestCode().catch(() => undefined)
    if (!reading) return { method, caipNetworkId: connected.caipNetworkId, makeReview: () => Promise.reject(new Error('unavailable')) }
    const request = reading.readReviewedRequest(method, params, connected.caipNetworkId, connected.address as Address)
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
  const inTurn = <T,>(prepare: () => Parameters<typeof run>[0] | Promise<Parameters<typeof run>[0]>, send: () => Promise<T>): Promise<T> => {
    if (unsettled > MAX_WAITING_REVIEWS) return Promise.reject(new ProviderRpcError(-32002, 'Too many requests are already waiting for your review: answer them in the wallet window first.'))
    unsettled++
    const turn = queue.then(async () => {
      try {
        const finish = await run(await prepare())
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
