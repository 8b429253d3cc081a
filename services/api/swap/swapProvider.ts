import type { Address, Hex } from 'viem'

/** A token a swap provider trades; the native currency's address is NATIVE_TOKEN_ADDRESS (0xeeee…eeee). */
export type SwapProviderToken = { address: Address; name: string; symbol: string; decimals: number; iconUrl?: string }

/** What `amountIn` of `from` buys of `to` at `blockNumber`. Addresses are the chain's, the native currency as 0xeeee…eeee. */
export type SwapProviderQuote = {
  from: Address
  to: Address
  amountIn: bigint
  amountOut: bigint
  /** The tokens the trade goes through, `from` first, `to` last (the wrapped native currency in between, if any). */
  route: Address[]
  /** The execution price's shortfall from the mid price, the LP fee excluded, in percent. */
  priceImpactPercent: number
  source: { name: string; router: Address }
  blockNumber: bigint
  /** Gas the swap takes, estimated from the route's shape (no account needed). */
  gas: bigint
}

/** A transaction to sign, as a wallet's eth_sendTransaction takes it. */
export type SwapProviderTransaction = { from: Address; to: Address; data: Hex; value: bigint; gas: bigint; gasPrice: bigint }

export type SwapProviderBuiltSwap = {
  tx: SwapProviderTransaction
  quote: SwapProviderQuote
  /** The least the owner receives: the router reverts below it. */
  minimumReceived: bigint
  /** Unix seconds after which the router refuses the swap. */
  deadline: number
}

export type SwapProviderGasPrices = { standard: bigint; fast: bigint; instant: bigint }

/**
 * One chain's swaps (SPEC §7 `/v1/convert/*`), whatever trades them: the data service's routes speak only to this.
 * Invalid arguments throw {@link SwapInputError} (naming the argument); a node that fails throws {@link SwapUpstreamError}.
 * @example const [quote] = [await provider.quote({ from: NATIVE_TOKEN_ADDRESS, to: tusd, amount: 10n ** 17n })]
 */
export type SwapProvider = {
  /** The tokens it trades, the native currency first. */
  tokens(): readonly SwapProviderToken[]
  quote(args: { from: Address; to: Address; amount: bigint }): Promise<SwapProviderQuote>
  /** What the provider's spender (the router) may take of `owner`'s `token`; the native currency needs none (max uint256). */
  allowance(args: { token: Address; owner: Address }): Promise<bigint>
  /** `owner`'s approval of exactly `amount` of `token` to the spender (gas: the node's estimate plus a margin). */
  buildApprove(args: { owner: Address; token: Address; amount: bigint }): Promise<SwapProviderTransaction>
  /**
   * The swap of `amount` of `from` for `to`, paid to `owner`, refusing less than the quote less `slippagePercent`. Its
   * gas: the node's estimate for `owner` plus a margin, never below the route's gas; the route's alone with
   * `disableEstimate` or when the node cannot estimate (no allowance yet).
   */
  buildSwap(args: { from: Address; to: Address; amount: bigint; owner: Address; slippagePercent: number; disableEstimate?: boolean }): Promise<SwapProviderBuiltSwap>
  /** Wei per gas: the chain's price, and two faster ones. */
  gasPrice(): Promise<SwapProviderGasPrices>
}

/** The argument a {@link SwapInputError} is about, by the provider's parameter names. */
export type SwapInputField = 'from' | 'to' | 'amount' | 'token'

/**
 * An argument the provider refuses (an unknown token, the same token on both sides, an amount no pool can trade). The
 * message completes `<field>: …`.
 * @example throw new SwapInputError('amount', 'is too small to buy any TSR')
 */
export class SwapInputError extends Error {
  override name = 'SwapInputError'
  readonly code: 'SWAP_INVALID_INPUT' | 'SWAP_NO_ROUTE'
  constructor(readonly field: SwapInputField, message: string, { code = 'SWAP_INVALID_INPUT' }: { code?: SwapInputError['code'] } = {}) {
    super(message)
    this.code = code
  }
}

/**
 * The chain's node could not be reached (`unreachable`: refused, reset or timed out) or answered something unusable
 * (`invalid`: an error, garbage, a failed call). The message is ours; the node's own text stays in `cause`.
 */
export class SwapUpstreamError extends Error {
  override name = 'SwapUpstreamError'
  constructor(readonly kind: 'unreachable' | 'invalid', readonly chainName: string, options: { cause: unknown }) {
    super(kind === 'unreachable' ? `The node of ${chainName} could not be reached` : `The node of ${chainName} gave an answer that could not be used`, options)
  }
}
