import { describe, expect, it } from 'vitest'
import { dustLimit, estimateVsize, selectBitcoinCoins, type SpendableCoin } from './selectBitcoinCoins'

const coin = (value: bigint, isConfirmed = true, txid = String(value).padStart(64, '0')): SpendableCoin => ({ txid, vout: 0, value, isConfirmed })
const P2WPKH_SCRIPT = 22
const P2TR_SCRIPT = 34
const select = (coins: SpendableCoin[], amount: bigint, options: Partial<Parameters<typeof selectBitcoinCoins>[0]> = {}) =>
  selectBitcoinCoins({ coins, amount, feeRate: 2, inputType: 'p2wpkh', recipientScriptLength: P2WPKH_SCRIPT, changeScriptLength: P2WPKH_SCRIPT, changeDust: 546n, ...options })

describe('Bitcoin coin selection', () => {
  it.each([
    // The usual sizes: 1 P2WPKH input and 2 P2WPKH outputs is 141 vB with a 72-byte signature; P2TR key-path inputs 57.75 (a 65-byte signature allowed for).
    ['p2wpkh', 1, [P2WPKH_SCRIPT, P2WPKH_SCRIPT], 141],
    ['p2wpkh', 2, [P2WPKH_SCRIPT], 178],
    ['p2sh', 1, [P2WPKH_SCRIPT, P2WPKH_SCRIPT], 164],
    ['p2tr', 1, [P2TR_SCRIPT, P2TR_SCRIPT], 155],
    ['p2tr', 1, [P2WPKH_SCRIPT], 100],
  ] as const)('estimates %s × %i inputs with outputs %j at %i vB', (inputType, inputCount, outputScriptLengths, vsize) => {
    expect(estimateVsize({ inputType, inputCount, outputScriptLengths })).toBe(vsize)
  })

  it('uses 546 sats as the dust limit of P2PKH, P2SH and P2WPKH outputs and 330 for 32-byte witness programs', () => {
    expect(['p2pkh', 'p2sh', 'p2wpkh', 'p2wsh', 'p2tr', 'witness'].map((type) => dustLimit(type as never))).toEqual([546n, 546n, 546n, 330n, 330n, 330n])
  })

  it('spends the largest confirmed coin first, with change back', async () => {
    const selection = await select([coin(10_000n), coin(500_000n), coin(2_000_000n, false), coin(300_000n)], 200_000n)
    expect(selection).toEqual({ isEnough: true, selected: [coin(500_000n)], fee: 282n, change: 500_000n - 200_000n - 282n, vsize: 141 })
  })

  it('adds coins until they pay amount and fee, unconfirmed ones after every confirmed one', async () => {
    const selection = await select([coin(300_000n, false), coin(100_000n), coin(150_000n)], 260_000n)
    expect(selection).toMatchObject({ isEnough: true, selected: [coin(150_000n), coin(100_000n), coin(300_000n, false)] })
  })

  it('folds change below the dust limit into the fee rather than making an output of it', async () => {
    // 100,000 − 99,000 − 282 (fee with change) = 718 ≥ 546: change. 100,000 − 99,200 − 282 = 518 < 546: no change.
    expect(await select([coin(100_000n)], 99_000n)).toMatchObject({ change: 718n, fee: 282n })
    expect(await select([coin(100_000n)], 99_200n)).toEqual({ isEnough: true, selected: [coin(100_000n)], fee: 800n, change: 0n, vsize: 110 })
    // Not enough for a change output at all, enough without one: the leftover pays the fee.
    expect(await select([coin(100_000n)], 99_700n)).toMatchObject({ isEnough: true, fee: 300n, change: 0n })
  })

  it('says what all the coins hold and what spending them would cost when they are not enough', async () => {
    expect(await select([coin(100_000n), coin(50_000n)], 150_000n)).toEqual({ isEnough: false, available: 150_000n, fee: 356n })
    expect(await select([], 1_000n)).toEqual({ isEnough: false, available: 0n, fee: 220n })
  })

  it('skips coins it may not spend (an immature coinbase), asking only about the ones it reaches', async () => {
    const asked: bigint[] = []
    const selection = await select([coin(900_000n), coin(400_000n), coin(10_000n)], 300_000n, {
      canSpend: async (c) => (asked.push(c.value), c.value !== 900_000n),
    })
    expect(selection).toMatchObject({ isEnough: true, selected: [coin(400_000n)] })
    expect(asked).toEqual([900_000n, 400_000n])
  })
})
