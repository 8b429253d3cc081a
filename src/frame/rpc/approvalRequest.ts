/**
 * What the person is asked to approve, in plain data the approval screen puts into words (each field a fact: who
 * receives, how much of what, the message's text). Amounts are already formatted in their unit (ETH, SOL, a token's).
 */
export type ApprovalRequest = {
  network: string
  account: string
  /** Set when the account is the wallet's smart account (ERC-4337), said on the screen. */
  accountType?: 'smartAccount'
} & (
  | { kind: 'signMessage'; text: string | undefined; hex: string }
  | {
      kind: 'signTypedData'
      domainName: string | undefined
      verifyingContract: string | undefined
      primaryType: string
      /** An ERC-2612 / Permit2 style permission to spend tokens: the spender and the amount ('unlimited' for 2^256 − 1). */
      permit: { spender: string; amount: string } | undefined
      fields: { label: string; value: string }[]
    }
  | {
      kind: 'sendTransaction'
      /** Undefined for a contract deployment. */
      to: string | undefined
      amount: string
      symbol: string
      /** The most the network fee can cost, in the native unit. */
      maxFee: string | undefined
      /** An ERC-20 transfer or approval found in the call data. */
      token: TokenCall | undefined
      dataBytes: number
      /** A smart account's operation: who pays its network fee. */
      fee?: FeeShown
    }
  | {
      kind: 'sendCalls'
      calls: { to: string; amount: string; dataBytes: number; token?: TokenCall | undefined }[]
      symbol: string
      /** All or none (one smart-account operation), or one transaction after the other. */
      atomic: boolean
      /** The most the fees can cost, in the native unit, when the account pays them. */
      maxFee?: string | undefined
      fee?: FeeShown
    }
  | { kind: 'solanaSignMessage'; text: string | undefined; hex: string }
  | {
      kind: 'solanaTransaction'
      /** signAndSend: the frame sends it too; otherwise the signed transaction goes back to the page. */
      willSend: boolean
      count: number
      actions: SolanaAction[]
    }
)

/** An ERC-20 transfer or approval found in the call data. */
export type TokenCall = { action: 'transfer' | 'approve'; counterparty: string; amount: string; symbol: string | undefined; contract: string }

/**
 * Who pays a smart account's network fee: the app's sponsor, or the account itself, with the sponsor's reason when it
 * declined (its own sentence) or that it could not be reached.
 */
export type FeeShown = { payer: 'sponsor' } | { payer: 'account'; sponsorRefused: { code: number; message: string } | undefined; sponsorUnreachable: boolean }

export type SolanaAction =
  | { kind: 'transfer'; to: string; amount: string }
  | { kind: 'tokenTransfer'; to: string; amount: string; mint: string | undefined }
  | { kind: 'createTokenAccount'; owner: string | undefined }
  | { kind: 'feeSettings' }
  | { kind: 'program'; programId: string }

/** The longest text shown for a message or a field; the rest is cut with an ellipsis (the full bytes are still signed). */
export const MAX_SHOWN_TEXT = 2_000

export const clip = (text: string, max = MAX_SHOWN_TEXT) => (text.length > max ? `${text.slice(0, max)}…` : text)

/**
 * The message's text when its bytes are UTF-8 a person can read (letters, spaces, line breaks), else undefined (the
 * screen then shows the hex and says it cannot be read).
 */
export function readableText(bytes: Uint8Array): string | undefined {
  let text: string
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
  } catch {
    return undefined
  }
  // Control characters other than tab and line breaks, and bidi overrides that could reorder what is shown, are refused.
  // eslint-disable-next-line no-control-regex -- finding control characters is the point
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(text)) return undefined
  return text
}
