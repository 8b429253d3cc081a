import { createStore } from 'zustand/vanilla'
import { errorNotice, toErrorNotice, type ErrorNotice } from '../state/errorNotice'
import { TOKEN_BALANCE_RETRY_GAP_MS } from '../../shared/protocol/constants'
import { errorTable } from '../../shared/protocol/errorTable'
import { createWidgetError, isErrorCode } from '../../shared/protocol/errors'
import { formatUnits, parseUnits } from '../../shared/protocol/display'
import type { TokenBalance } from '../../shared/protocol/schemas/entities'
import type { Notifications } from '../state/createNotifications'

/**
 * Why a typed amount cannot be sent. The view words each reason in the widget's locale; none carries a library's or
 * a node's text.
 */
export type AmountIssue =
  /** Letters, an exponent (`1e3`), two decimal marks, a stray sign: not an amount a person writes. */
  | { reason: 'notANumber' }
  /** A comma where the locale writes decimals with a point (English `1,5`): said, not guessed. */
  | { reason: 'decimalSeparator' }
  | { reason: 'negative' }
  | { reason: 'zero' }
  /** More fraction digits than the token has. */
  | { reason: 'tooManyDecimals'; symbol: string; decimals: number }
  /** More than the balance of the token. */
  | { reason: 'overBalance'; symbol: string }
  /** Within the balance of the native token, but leaving less than the network fee it also pays. */
  | { reason: 'noRoomForFee'; symbol: string }

/** Why the receiver field cannot be sent to. */
export type ReceiverIssue =
  /** Not an address of the family (nor, where names resolve, a name). */
  | { reason: 'badAddress' }
  /** An EVM address in mixed case whose EIP-55 checksum fails: a typo. */
  | { reason: 'badChecksum' }
  /** The name service has no address for this name. */
  | { reason: 'unknownName'; name: string }
  /** The name service could not be asked. */
  | { reason: 'nameLookupFailed'; name: string }

/** A receiver typed as a name, and what the name service said of it so far. */
export type ReceiverName =
  | { name: string; status: 'resolving' }
  | { name: string; status: 'resolved'; address: string }
  | { name: string; status: 'unknown' }
  | { name: string; status: 'failed' }

/** What a family says of a typed receiver: an address it can send to (undefined), a name to look up, or the issue. */
export type ReceiverCheck = undefined | 'name' | ReceiverIssue

/** The send form's state (SPEC §3). */
export type SendState = {
  token: TokenBalance | undefined
  sendTokenAmount: string | undefined
  receiverAddress: string | undefined
  receiverProfileName: string | undefined
  gasPrice: bigint | undefined
  gasPriceInUSD: number | undefined
  networkBalanceInUSD: string | undefined
  tokenBalances: TokenBalance[]
  loading: boolean
  lastRetry: number | undefined
  isInsufficientGas: boolean
  /** The network fee in the native currency, where the family's fee is not priced in USD (Solana). */
  networkFee: { amount: string; symbol: string } | undefined
  /**
   * What to keep of the native balance for the network fee, as a decimal string of the native currency, once priced:
   * Max leaves it, and a native amount that does not is refused before anything is sent.
   */
  feeReserve: string | undefined
  /** What is wrong with the receiver field, as soon as it is known (a name's after its lookup). */
  receiverIssue: ReceiverIssue | undefined
  /** The receiver typed as a name, and its lookup. */
  receiverName: ReceiverName | undefined
  /** Whether the first token-balance read has ended (with balances or without). */
  hasLoadedBalances: boolean
  /** What is wrong, by error code: the view says it in the widget's locale. */
  error: ErrorNotice | undefined
}

export const initialSendState = (): SendState => ({
  token: undefined,
  sendTokenAmount: undefined,
  receiverAddress: undefined,
  receiverProfileName: undefined,
  gasPrice: undefined,
  gasPriceInUSD: undefined,
  networkBalanceInUSD: undefined,
  tokenBalances: [],
  loading: false,
  lastRetry: undefined,
  isInsufficientGas: false,
  networkFee: undefined,
  feeReserve: undefined,
  receiverIssue: undefined,
  receiverName: undefined,
  hasLoadedBalances: false,
  error: undefined,
})

/** How long the receiver field must rest before a name in it is looked up. */
export const NAME_LOOKUP_DELAY_MS = 400

/** A token's identity in a list: its CAIP address, or its symbol for the native one. */
export const tokenKey = (token: TokenBalance) => token.address ?? `native:${token.symbol}`

/** Whether a token is its network's native currency (balances list it without an address). */
export const isNativeToken = (token: TokenBalance) => token.address === undefined

export type CreateSendFormParameters = {
  notifications: Notifications
  now: () => number
  /** The family's reading of the receiver field; without it every non-empty receiver is taken as it is. */
  checkReceiver?: (value: string) => ReceiverCheck
  /** Looks a name up: its address, undefined when the service has none. Throws when the service cannot be asked. */
  lookupName?: (name: string) => Promise<string | undefined>
  nameLookupDelayMs?: number
  setTimer?: (run: () => void, ms: number) => unknown
  clearTimer?: (timer: unknown) => void
}

/**
 * What every family's send form shares: its store, its fields, its reset, the token-balance rule of SPEC §8–9
 * ('Token Balance Unavailable' on failure, and no new attempt for 30 s unless forced), and the receiver field's
 * checks: the family's own at once, and a name's lookup once the field has rested `nameLookupDelayMs`.
 */
export function createSendForm({
  notifications,
  now,
  checkReceiver,
  lookupName,
  nameLookupDelayMs = NAME_LOOKUP_DELAY_MS,
  setTimer = (run, ms) => setTimeout(run, ms),
  clearTimer = (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
}: CreateSendFormParameters) {
  const store = createStore<SendState>()(initialSendState)
  let lookupTimer: unknown
  let lookup: { name: string; done: Promise<void> } | undefined
  const cancelLookup = () => {
    if (lookupTimer !== undefined) clearTimer(lookupTimer)
    lookupTimer = undefined
  }

  /** Asks the name service for `name`; an answer for a name no longer in the field is dropped. */
  const resolveName = (name: string): Promise<void> => {
    if (lookup?.name === name) return lookup.done
    const done = (async () => {
      let receiverName: ReceiverName
      try {
        const address = await lookupName!(name)
        receiverName = address ? { name, status: 'resolved', address } : { name, status: 'unknown' }
      } catch {
        receiverName = { name, status: 'failed' }
      }
      if (store.getState().receiverAddress !== name) return
      const receiverIssue: ReceiverIssue | undefined =
        receiverName.status === 'unknown' ? { reason: 'unknownName', name } : receiverName.status === 'failed' ? { reason: 'nameLookupFailed', name } : undefined
      store.setState({ receiverName, receiverIssue, receiverProfileName: receiverName.status === 'resolved' ? name : undefined })
    })()
    lookup = { name, done }
    void done.finally(() => {
      if (lookup?.done === done) lookup = undefined
    })
    return done
  }

  return {
    store,
    setToken: (token: TokenBalance | undefined) => store.setState({ token, error: undefined }),
    setAmount: (sendTokenAmount: string) => store.setState({ sendTokenAmount, error: undefined }),
    /** The receiver field changed: the family's check says at once what is wrong; a name is looked up once the field rests. */
    setReceiver(receiverAddress: string) {
      cancelLookup()
      const check = receiverAddress && checkReceiver ? checkReceiver(receiverAddress) : undefined
      const isName = check === 'name' && lookupName !== undefined
      store.setState({
        receiverAddress,
        receiverProfileName: undefined,
        error: undefined,
        receiverIssue: check === 'name' ? (isName ? undefined : { reason: 'badAddress' }) : check,
        receiverName: isName ? { name: receiverAddress, status: 'resolving' } : undefined,
      })
      if (isName) lookupTimer = setTimer(() => void resolveName(receiverAddress), nameLookupDelayMs)
    },
    /**
     * The address the receiver field stands for: an address as it is, a name once the service resolves it (looked up
     * now if its rest has not ended yet). Throws the field's issue (NAME_RESOLVE_FAILED for a name) otherwise.
     */
    async resolveReceiver(): Promise<string> {
      const { receiverAddress } = store.getState()
      if (!receiverAddress) throw createWidgetError('SEND_INPUT_MISSING', { field: 'receiverAddress', details: 'missing: receiverAddress' })
      if (store.getState().receiverName?.status === 'resolving') {
        cancelLookup()
        await resolveName(receiverAddress)
      }
      const { receiverIssue, receiverName } = store.getState()
      if (receiverName?.name === receiverAddress && receiverName.status === 'resolved') return receiverName.address
      if (receiverIssue?.reason === 'unknownName' || receiverIssue?.reason === 'nameLookupFailed') {
        throw createWidgetError('NAME_RESOLVE_FAILED', { field: 'receiverAddress', details: `${receiverAddress}: ${receiverIssue.reason}` })
      }
      if (receiverIssue) throw createWidgetError('SEND_INPUT_MISSING', { field: 'receiverAddress', details: `receiverAddress: ${receiverIssue.reason}` })
      return receiverAddress
    },
    reset: ({ keepBalances = true } = {}) => {
      cancelLookup()
      const { tokenBalances, lastRetry, hasLoadedBalances } = store.getState()
      store.setState({ ...initialSendState(), tokenBalances: keepBalances ? tokenBalances : [], hasLoadedBalances: keepBalances && hasLoadedBalances, lastRetry })
    },
    /**
     * Fills the token list with what `read` answers, unless a failure is less than the retry gap ago. The chosen token
     * follows its new balance.
     */
    async loadBalances(read: () => Promise<TokenBalance[]>, { force = false } = {}) {
      const { lastRetry } = store.getState()
      if (lastRetry !== undefined && now() - lastRetry < TOKEN_BALANCE_RETRY_GAP_MS && !force) return
      store.setState({ loading: true })
      try {
        const tokenBalances = await read()
        const { token } = store.getState()
        const fresh = token ? tokenBalances.find((b) => tokenKey(b) === tokenKey(token)) : undefined
        store.setState({ tokenBalances, loading: false, lastRetry: undefined, hasLoadedBalances: true, ...(fresh ? { token: fresh } : {}) })
      } catch {
        store.setState({ loading: false, lastRetry: now(), hasLoadedBalances: true })
        notifications.show(errorNotice('TOKEN_BALANCE_UNAVAILABLE'), { variant: 'error' })
      }
    },
  }
}

const canonicalAmount = /^\d+(\.\d+)?$/

/** The decimal and grouping marks of a locale ('en': '.' and ','; 'fr': ',' and a narrow no-break space). */
function separatorsOf(locale: string): { decimal: string; group: string } {
  const parts = new Intl.NumberFormat(locale).formatToParts(12345.6)
  const decimal = parts.find((p) => p.type === 'decimal')?.value ?? '.'
  const group = parts.find((p) => p.type === 'group')?.value ?? ','
  return { decimal, group: /\s/.test(group) ? ' ' : group }
}

/**
 * A typed amount read as the visitor's locale writes numbers: the plain decimal string the form sends ('1.5'), nothing
 * for an empty field, or why it is not an amount.
 *
 * 1. Spaces (also no-break ones) group thousands in every locale; the locale's grouping mark does too, where it is
 *    well placed (English `1,500` is 1500).
 * 2. The locale's decimal mark ends the whole part. A locale that does not group with the other mark takes it as a
 *    decimal too: French `1,5` and `1.5` are both 1.5.
 * 3. English `1,5` is neither well-placed grouping nor English: the visitor is told to use a point, not guessed at.
 * 4. A leading minus is 'negative'; letters, exponents, a second decimal mark are 'notANumber'.
 * @example parseAmountInput('1,5', 'fr') // { amount: '1.5' }; parseAmountInput('1,5', 'en') // { issue: { reason: 'decimalSeparator' } }
 */
export function parseAmountInput(text: string, locale: string): { amount: string } | { issue: AmountIssue } | undefined {
  const trimmed = text.trim().replace(/[\s\u00a0\u202f]+/g, ' ')
  if (trimmed === '') return undefined
  const isNegative = /^[-\u2212]/.test(trimmed)
  const body = isNegative ? trimmed.slice(1).trimStart() : trimmed
  const notANumber = { issue: { reason: 'notANumber' } } as const
  if (!/^[\d.,' ]*\d[\d.,' ]*$/.test(body) || body.includes("'")) return notANumber
  const { decimal, group } = separatorsOf(locale)
  const other = decimal === '.' ? ',' : '.'
  const decimalMarks = group === other ? [decimal] : [decimal, other]
  const marks = [...body].filter((c) => decimalMarks.includes(c))
  // Where the other mark groups (English ','), it may only sit in the whole part.
  const groupInWhole = group === other ? other : undefined
  let whole = body
  let fraction = ''
  if (marks.length > 1) return notANumber
  if (marks.length === 1) {
    const at = body.indexOf(marks[0]!)
    whole = body.slice(0, at)
    fraction = body.slice(at + 1)
  }
  if (!/^\d*$/.test(fraction)) return notANumber
  if (/[ ,.]/.test(whole)) {
    const grouping = groupInWhole && whole.includes(groupInWhole) ? groupInWhole : ' '
    const isWellGrouped = new RegExp(`^[1-9]\\d{0,2}(${grouping === ' ' ? ' ' : `\\${grouping}`}\\d{3})+$`).test(whole)
    if (!isWellGrouped) {
      if (groupInWhole && fraction === '' && !body.includes(decimal) && new RegExp(`^\\d+\\${groupInWhole}\\d+$`).test(whole)) return { issue: { reason: 'decimalSeparator' } }
      return notANumber
    }
    whole = whole.replaceAll(grouping, '')
  }
  if (whole === '' && fraction === '') return notANumber
  const digits = whole.replace(/^0+(?=\d)/, '') || '0'
  const cutFraction = fraction.replace(/0+$/, '')
  const amount = cutFraction ? `${digits}.${cutFraction}` : digits
  if (isNegative) return { issue: { reason: 'negative' } }
  return { amount }
}

/**
 * An amount (as the form sends it) as the input shows it in the locale: '1.5' → '1,5' in French. No grouping: the
 * visitor edits it.
 */
export const toAmountInput = (amount: string, locale: string) => amount.replace('.', separatorsOf(locale).decimal)

/**
 * What is wrong with an amount the form holds (a plain decimal string) for `token`, checked without any request:
 * not a number, zero, more decimals than the token has, more than its balance, and for the native token an amount
 * that leaves less than `feeReserve` for the network fee.
 * @example checkAmount('5.1', { token: fiveEth }) // { reason: 'overBalance', symbol: 'ETH' }
 */
export function checkAmount(amount: string | undefined, { token, feeReserve }: { token: TokenBalance | undefined; feeReserve?: string | undefined }): AmountIssue | undefined {
  if (!amount) return undefined
  if (!canonicalAmount.test(amount)) return { reason: 'notANumber' }
  if (/^0+(\.0+)?$/.test(amount)) return { reason: 'zero' }
  if (!token) return undefined
  const decimals = Number(token.quantity.decimals)
  const [whole, fraction = ''] = amount.split('.') as [string, string?]
  const significant = fraction.replace(/0+$/, '')
  if (significant.length > decimals) return { reason: 'tooManyDecimals', symbol: token.symbol, decimals }
  const value = parseUnits(significant ? `${whole}.${significant}` : whole, decimals)
  let balance: bigint
  try {
    balance = parseUnits(token.quantity.numeric, decimals)
  } catch {
    return undefined
  }
  if (value > balance) return { reason: 'overBalance', symbol: token.symbol }
  if (isNativeToken(token) && feeReserve !== undefined && value + parseUnits(feeReserve, decimals) > balance) return { reason: 'noRoomForFee', symbol: token.symbol }
  return undefined
}

/**
 * The most of `token` the form can send: its balance, less the fee reserve for the native token. When the reserve is
 * more than the balance, the balance (the form then says there is no room for the fee). Undefined while a native
 * token's reserve is not priced yet.
 */
export function maxSendable({ token, feeReserve }: { token: TokenBalance | undefined; feeReserve: string | undefined }): string | undefined {
  if (!token) return undefined
  if (!isNativeToken(token)) return token.quantity.numeric
  if (feeReserve === undefined) return undefined
  const decimals = Number(token.quantity.decimals)
  const left = parseUnits(token.quantity.numeric, decimals) - parseUnits(feeReserve, decimals)
  return left > 0n ? formatUnits(left, decimals) : token.quantity.numeric
}

/**
 * What a failed estimate or send says, as one of our sentences: the wallet's refusal as it is; a node's "insufficient
 * funds" as the balance not covering the amount and its fee; any other node or contract failure as a transfer that
 * would fail; a transport, RPC or service failure as `unreachable` (estimates: the fee could not be priced).
 */
export function toSendErrorNotice(error: unknown, { unreachable = 'SEND_FEE_UNAVAILABLE' }: { unreachable?: 'SEND_FEE_UNAVAILABLE' | 'SOMETHING_WENT_WRONG' } = {}): ErrorNotice {
  const code = (error as { code?: unknown } | null)?.code
  if (!isErrorCode(code)) return errorNotice(unreachable)
  if (code === 'INSUFFICIENT_FUNDS') return errorNotice('SEND_FEE_NOT_COVERED')
  const { kind } = errorTable[code]
  if (kind === 'node' || kind === 'contract') return errorNotice('SEND_WOULD_FAIL')
  if (kind === 'transport' || kind === 'rpc' || kind === 'service') return errorNotice(unreachable)
  return toErrorNotice(error)
}
