// The paymaster service's JSON-RPC errors (services/paymaster): codes and sentences in one place, for the service that
// answers them and the frame that shows them.

/**
 * Every error code the paymaster service answers. The JSON-RPC ones are the spec's; a refusal to sponsor is one of
 * -32080…-32089, implementation-defined server errors that neither viem (which maps -32000…-32006 and 4001…7000 to
 * classes of its own) nor a bundler (ERC-7769's -32500…-32521) uses, so a client sees them unchanged.
 */
export const paymasterErrorCodes = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
  /** context.projectId names no project the service knows. */
  unknownProject: -32080,
  /** The request came from a page whose origin the project does not list. */
  originNotAllowed: -32081,
  /** The chain is not one of the project's, or the service has no paymaster there. */
  chainNotSponsored: -32082,
  /** The EntryPoint is not the one the chain's paymaster serves (another account version). */
  entryPointNotSupported: -32083,
  /** A call goes to a contract outside the project's allowedContracts. */
  contractNotSponsored: -32084,
  /** The project has allowedContracts and the account's callData is not a call the service can read. */
  callsNotReadable: -32085,
  /** The account's sponsored gas for the UTC day would pass the project's dailyGasPerAccount. */
  dailyGasExhausted: -32086,
  /** The operation offers more per gas than the chain's sponsored fee cap. */
  feeTooHigh: -32087,
  /** The service tracks as many accounts today as its limit allows, and this one is new. */
  sponsorAtCapacity: -32088,
  /** The paymaster's EntryPoint deposit could not pay for this operation. */
  depositTooLow: -32089,
  /** The count of today's sponsored gas, shared by the service's instances (Redis), did not answer. */
  usageUnavailable: -32090,
} as const

export type PaymasterErrorName = keyof typeof paymasterErrorCodes
export type PaymasterErrorCode = (typeof paymasterErrorCodes)[PaymasterErrorName]

/** Why the service will not sponsor an operation, with what its sentence shows. Gas and fees are decimal strings. */
export type SponsorshipRefusal =
  | { reason: 'unknownProject' }
  | { reason: 'originNotAllowed' }
  | { reason: 'chainNotSponsored' }
  | { reason: 'entryPointNotSupported' }
  | { reason: 'contractNotSponsored'; contract: string }
  | { reason: 'callsNotReadable' }
  /** `usedGas`: what today's sponsored operations and this one add up to; `dailyGas`: the project's allowance. */
  | { reason: 'dailyGasExhausted'; usedGas: string; dailyGas: string }
  /** `maxFeePerGasWei`: the chain's cap. */
  | { reason: 'feeTooHigh'; maxFeePerGasWei: string }
  | { reason: 'sponsorAtCapacity' }
  | { reason: 'depositTooLow' }
  | { reason: 'usageUnavailable' }

/** 1234567 → "1,234,567", whatever the locale. */
const groupDigits = (decimal: string) => decimal.replace(/\B(?=(\d{3})+(?!\d))/g, ',')

/** Wei per gas as gwei, up to 9 decimals without trailing zeros: "1500000000" → "1.5". */
const toGwei = (wei: string) => {
  const padded = wei.padStart(10, '0')
  const whole = padded.slice(0, -9)
  const fraction = padded.slice(-9).replace(/0+$/, '')
  return `${groupDigits(whole)}${fraction ? `.${fraction}` : ''}`
}

/** What a visitor reads when an operation is not sponsored; every sentence tells them the account can still pay. */
const sentences: { [R in SponsorshipRefusal['reason']]: (refusal: Extract<SponsorshipRefusal, { reason: R }>) => string } = {
  unknownProject: () => 'Gas is not sponsored for this app.',
  originNotAllowed: () => 'Gas is not sponsored for this app on this site.',
  chainNotSponsored: () => 'Gas is not sponsored on this network for this app.',
  entryPointNotSupported: () => 'Gas is not sponsored for this kind of account on this network.',
  contractNotSponsored: ({ contract }) => `Gas is not sponsored for calls to ${contract}.`,
  callsNotReadable: () => 'Gas is not sponsored for these calls: the sponsor cannot tell which contracts they reach.',
  dailyGasExhausted: ({ usedGas, dailyGas }) =>
    `Gas is not sponsored: this account has used its sponsored gas for today (${groupDigits(usedGas)} of ${groupDigits(dailyGas)} gas). It can pay the fee itself.`,
  feeTooHigh: ({ maxFeePerGasWei }) => `Gas is not sponsored at this fee: this app pays up to ${toGwei(maxFeePerGasWei)} gwei per gas on this network.`,
  sponsorAtCapacity: () => 'Gas is not sponsored right now: the sponsor is serving as many accounts today as it can.',
  depositTooLow: () => "Gas is not sponsored right now: the sponsor's funds on this network are too low.",
  usageUnavailable: () => 'Gas is not sponsored right now: the sponsor cannot count today’s gas. Try again in a few seconds, or pay the fee yourself.',
}

/** A JSON-RPC error object as the service answers it. */
export type PaymasterRpcError = { code: number; message: string; data?: unknown }

/**
 * The JSON-RPC error for a refusal: its stable code, the sentence a visitor reads, and the refusal itself as `data`
 * (so a client may word it in another language).
 * @example sponsorshipError({ reason: 'dailyGasExhausted', usedGas: '1200000', dailyGas: '1000000' }).message
 * // 'Gas is not sponsored: this account has used its sponsored gas for today (1,200,000 of 1,000,000 gas). It can pay the fee itself.'
 */
export function sponsorshipError(refusal: SponsorshipRefusal): PaymasterRpcError & { code: PaymasterErrorCode; data: SponsorshipRefusal } {
  const sentence = (sentences[refusal.reason] as (refusal: SponsorshipRefusal) => string)(refusal)
  return { code: paymasterErrorCodes[refusal.reason], message: sentence, data: refusal }
}

const refusalCodes = new Set<number>(
  (Object.keys(sentences) as SponsorshipRefusal['reason'][]).map((reason) => paymasterErrorCodes[reason]),
)

/** True for the codes of a refusal to sponsor (not for malformed requests). */
export const isSponsorshipRefusalCode = (code: unknown): code is PaymasterErrorCode => typeof code === 'number' && refusalCodes.has(code)

/**
 * The service's refusal inside whatever error a client library threw around it: follows `cause` (viem's
 * UserOperationExecutionError → RpcRequestError → the JSON-RPC error object) to an object with a refusal code.
 * Narrows on the code, never on message text (viem's bundler-error matching reads messages and may wrap ours in a
 * class of its own when an address in it happens to contain "aa21").
 * @example const refusal = findSponsorshipRefusal(error); if (refusal) show(refusal.message)
 */
export function findSponsorshipRefusal(error: unknown): { code: PaymasterErrorCode; message: string } | undefined {
  const seen = new Set<unknown>()
  for (let current = error; typeof current === 'object' && current !== null && !seen.has(current); current = (current as { cause?: unknown }).cause) {
    seen.add(current)
    const { code, message, details } = current as { code?: unknown; message?: unknown; details?: unknown }
    if (!isSponsorshipRefusalCode(code)) continue
    // viem's RpcRequestError keeps the server's message as `details`; the raw error object (its cause) as `message`.
    const text = typeof details === 'string' && details ? details : typeof message === 'string' ? message : ''
    return { code, message: text }
  }
  return undefined
}
