import type { BitcoinAddressType } from '../../../shared/families/bip122/address'

/** The input types a transfer can spend: what wallets give as payment (P2WPKH, P2SH-P2WPKH) and ordinals (P2TR) accounts. */
export type SpendableType = 'p2wpkh' | 'p2sh' | 'p2tr'

export type SpendableCoin = { txid: string; vout: number; value: bigint; isConfirmed: boolean }

/**
 * Weight of one signed input, at its largest: outpoint, script length and sequence (41 bytes × 4), the scriptSig
 * (P2SH-P2WPKH's 23-byte redeem script push), and the witness: a 72-byte ECDSA signature and the 33-byte key, or a
 * 65-byte Schnorr signature (64 with SIGHASH_DEFAULT).
 */
const INPUT_WEIGHT: Record<SpendableType, number> = { p2wpkh: 41 * 4 + 108, p2sh: (41 + 23) * 4 + 108, p2tr: 41 * 4 + 67 }

const compactSizeBytes = (n: number) => (n < 0xfd ? 1 : n <= 0xffff ? 3 : 5)

/**
 * The virtual size of a signed transaction with `inputCount` inputs of one type and outputs with these script lengths:
 * version, counts and locktime, the segwit marker and flag, each input and output (`8 + length + script`).
 * @example estimateVsize({ inputType: 'p2wpkh', inputCount: 1, outputScriptLengths: [22, 22] }) // 141
 */
export function estimateVsize({ inputType, inputCount, outputScriptLengths }: { inputType: SpendableType; inputCount: number; outputScriptLengths: readonly number[] }): number {
  const base = 4 + compactSizeBytes(inputCount) + compactSizeBytes(outputScriptLengths.length) + 4
  const outputs = outputScriptLengths.reduce((sum, length) => sum + 8 + compactSizeBytes(length) + length, 0)
  return Math.ceil(((base + outputs) * 4 + 2 + inputCount * INPUT_WEIGHT[inputType]) / 4)
}

/**
 * The smallest output a node relays for a type of address, in sats: 330 for 32-byte witness programs (P2TR, P2WSH,
 * future versions), 546 for the others (P2PKH, P2SH and P2WPKH: the limit wallets use for every "legacy-sized" output,
 * above Bitcoin Core's 294 for P2WPKH, so a payment is never refused by a node with a stricter policy).
 */
export const dustLimit = (type: BitcoinAddressType): bigint => (type === 'p2tr' || type === 'p2wsh' || type === 'witness' ? 330n : 546n)

export type SelectBitcoinCoinsParameters = {
  coins: readonly SpendableCoin[]
  amount: bigint
  /** sat/vB. */
  feeRate: number
  inputType: SpendableType
  recipientScriptLength: number
  changeScriptLength: number
  /** Change below this goes to the fee rather than into an output nobody could spend economically. */
  changeDust: bigint
  /** Whether a coin may be spent now (an immature coinbase may not); asked only of coins the selection reaches. */
  canSpend?: (coin: SpendableCoin) => boolean | Promise<boolean>
}

export type BitcoinCoinSelection =
  | { isEnough: true; selected: SpendableCoin[]; fee: bigint; change: bigint; vsize: number }
  | { isEnough: false; available: bigint; fee: bigint }

/**
 * Picks the coins that pay `amount` and the fee, largest first among confirmed coins, then unconfirmed ones:
 * 1. add the next coin; 2. if the coins pay the amount, the fee with a change output and change above dust, done;
 * 3. if they pay the amount and the fee without change, done, what is left over (less than the change output would
 *    cost plus dust) going to the fee; 4. otherwise go on. When all coins together are not enough, the answer says
 *    what they hold and what spending them all would cost.
 * @example await selectBitcoinCoins({ coins, amount: 10_000_000n, feeRate: 3, inputType: 'p2wpkh', recipientScriptLength: 22, changeScriptLength: 22, changeDust: 546n })
 */
export async function selectBitcoinCoins({ coins, amount, feeRate, inputType, recipientScriptLength, changeScriptLength, changeDust, canSpend = () => true }: SelectBitcoinCoinsParameters): Promise<BitcoinCoinSelection> {
  const ordered = [...coins].sort((a, b) => Number(b.isConfirmed) - Number(a.isConfirmed) || (b.value > a.value ? 1 : b.value < a.value ? -1 : 0))
  const feeFor = (inputCount: number, outputScriptLengths: number[]) => {
    const vsize = estimateVsize({ inputType, inputCount, outputScriptLengths })
    return { vsize, fee: BigInt(Math.ceil(vsize * feeRate)) }
  }
  const selected: SpendableCoin[] = []
  let total = 0n
  for (const coin of ordered) {
    if (!(await canSpend(coin))) continue
    selected.push(coin)
    total += coin.value
    const withChange = feeFor(selected.length, [recipientScriptLength, changeScriptLength])
    const change = total - amount - withChange.fee
    if (change >= changeDust) return { isEnough: true, selected, fee: withChange.fee, change, vsize: withChange.vsize }
    const withoutChange = feeFor(selected.length, [recipientScriptLength])
    if (total >= amount + withoutChange.fee) return { isEnough: true, selected, fee: total - amount, change: 0n, vsize: withoutChange.vsize }
  }
  return { isEnough: false, available: total, fee: feeFor(Math.max(selected.length, 1), [recipientScriptLength]).fee }
}
