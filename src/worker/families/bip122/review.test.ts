import { address as bitcoinAddress, crypto as bitcoinCrypto, initEccLib, networks, payments, Psbt, Transaction } from 'bitcoinjs-lib'
import { ECPairFactory } from 'ecpair'
import * as ecc from 'tiny-secp256k1'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bitcoinMinerAddress, deriveBitcoinAccounts, type BitcoinDevAccount } from '../../../../services/chain/bitcoin/devKeys'
import { startBitcoinChain, type BitcoinChain } from '../../../../services/chain/bitcoin/startBitcoinChain'
import { freePorts } from '../../../../services/stack/ports'
import { WidgetError } from '../../../shared/protocol/errors'
import { createWorkerApi } from '../../api'
import { createBitcoinClient, type BitcoinClient } from './bitcoin'
import { createBitcoinWorkerApi } from './bitcoinWorkerApi'
import { reviewPsbt, type ReviewPsbtParameters } from './review'

initEccLib(ecc)
const ecpair = ECPairFactory(ecc)
const regtest = networks.regtest
const BTC = 100_000_000n
const fromHex = (hex: string) => Uint8Array.from(hex.match(/../g) ?? [], (pair) => parseInt(pair, 16))
const toHex = (bytes: Uint8Array) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')
const INVALID = { code: 'INVALID_PARAMS', shortMessage: 'Invalid parameters were provided to the RPC method.' }

describe('reviewPsbt', () => {
  let chain: BitcoinChain
  let accounts: BitcoinDevAccount[]
  let client: BitcoinClient

  const review = (parameters: Omit<ReviewPsbtParameters, 'network' | 'caipNetworkId'>) => reviewPsbt({ network: 'regtest', caipNetworkId: chain.caipNetworkId, ...parameters })
  const nodeBalance = async (address: string) => {
    const { chain_stats: c, mempool_stats: m } = (await (await fetch(`${chain.apiUrl}/address/${address}`)).json()) as { chain_stats: { funded_txo_sum: number; spent_txo_sum: number }; mempool_stats: { funded_txo_sum: number; spent_txo_sum: number } }
    return BigInt(c.funded_txo_sum - c.spent_txo_sum + m.funded_txo_sum - m.spent_txo_sum)
  }

  beforeAll(async () => {
    accounts = deriveBitcoinAccounts()
    chain = await startBitcoinChain({ port: (await freePorts()).bitcoin, blockIntervalMs: 0, coinbaseAddress: bitcoinMinerAddress(), premine: { blocks: 450, addresses: accounts.map((account) => account.payment.address) } })
    client = createBitcoinClient({ apiUrl: chain.apiUrl, network: 'regtest' })
  })
  afterAll(async () => {
    client?.close()
    await chain?.stop()
  })

  it('a transfer as the widget builds it: inputs, recipient and change, fee, size and rate, net change; sent, the account moves by exactly that', async () => {
    const [sender, recipient] = [accounts[1]!, accounts[2]!]
    const amount = BTC / 4n
    const transfer = await client.buildTransfer({ from: sender.payment, to: recipient.payment.address, amount, feeRate: 3 })
    const result = review({ psbt: transfer.psbtBase64, addresses: [sender.payment.address, sender.ordinals.address] })
    expect(result).toEqual({
      kind: 'psbt',
      network: chain.caipNetworkId,
      inputs: transfer.inputs.map(({ txid, vout, value }, index) => ({ index, txid, vout, value, address: sender.payment.address, isAccount: true, isToSign: true, isSigned: false, sequence: 0xfffffffd })),
      outputs: [
        { index: 0, kind: 'address', address: recipient.payment.address, value: amount, isAccount: false },
        { index: 1, kind: 'address', address: sender.payment.address, value: transfer.change, isAccount: true },
      ],
      fee: transfer.fee,
      // The coin selection's estimate and the review's are the same arithmetic.
      vsize: transfer.vsize,
      feeRate: Math.round((Number(transfer.fee) * 10) / transfer.vsize) / 10,
      netChange: -(amount + transfer.fee),
      locktime: 0,
      isReplaceable: true,
      warnings: [],
    })

    const before = await nodeBalance(sender.payment.address)
    const signed = Psbt.fromBase64(transfer.psbtBase64, { network: regtest }).signAllInputs(ecpair.fromWIF(sender.payment.wif, regtest))
    expect(review({ psbt: signed.toBase64(), addresses: [sender.payment.address] }).inputs.every((input) => input.isSigned)).toBe(true)
    const finalized = signed.finalizeAllInputs()
    const sent = finalized.extractTransaction()
    // Once finalized, the size is the real one; before, an upper bound (a signature is 71 or 72 bytes).
    expect(review({ psbt: finalized.toBase64(), addresses: [sender.payment.address] }).vsize).toBe(sent.virtualSize())
    expect(sent.virtualSize()).toBeLessThanOrEqual(result.vsize!)
    expect(sent.virtualSize()).toBeGreaterThanOrEqual(result.vsize! - transfer.inputs.length)
    await client.broadcast(sent.toHex())
    await chain.mine(1)
    expect((await nodeBalance(sender.payment.address)) - before).toBe(result.netChange)
  })

  it('reads hex as it reads base64', async () => {
    const sender = accounts[3]!
    const transfer = await client.buildTransfer({ from: sender.payment, to: accounts[4]!.payment.address, amount: BTC, feeRate: 2 })
    const hex = toHex(Uint8Array.from(atob(transfer.psbtBase64), (char) => char.charCodeAt(0)))
    expect(review({ psbt: hex, addresses: [sender.payment.address] })).toEqual(review({ psbt: transfer.psbtBase64, addresses: [sender.payment.address] }))
  })

  describe('a PSBT built by hand: every input type, OP_RETURN and bare scripts', () => {
    const keys = [1, 2, 3].map((n) => ecpair.fromPrivateKey(new Uint8Array(32).fill(n), { network: regtest }))
    const [legacyKey, nestedKey, taprootKey] = keys as [(typeof keys)[0], (typeof keys)[0], (typeof keys)[0]]
    const legacy = payments.p2pkh({ pubkey: legacyKey.publicKey, network: regtest })
    const nestedInner = payments.p2wpkh({ pubkey: nestedKey.publicKey, network: regtest })
    const nested = payments.p2sh({ redeem: nestedInner, network: regtest })
    const xOnly = taprootKey.publicKey.slice(1, 33)
    const taproot = payments.p2tr({ internalPubkey: xOnly, network: regtest })
    const multisigScript = payments.p2ms({ m: 1, pubkeys: [legacyKey.publicKey, nestedKey.publicKey], network: regtest }).output!
    const p2wsh = payments.p2wsh({ redeem: { output: multisigScript }, network: regtest })
    const opReturn = payments.embed({ data: [new TextEncoder().encode('tessera'), Uint8Array.of(1, 2)] }).output!

    /** A previous transaction paying the legacy address 0.5 BTC at output 1, so nonWitnessUtxo is real. */
    const previous = new Transaction()
    previous.addInput(new Uint8Array(32).fill(7), 0)
    previous.addOutput(taproot.output!, 1_000n)
    previous.addOutput(legacy.output!, BTC / 2n)

    function build({ sighashType, withUtxo = true }: { sighashType?: number; withUtxo?: boolean } = {}) {
      const psbt = new Psbt({ network: regtest })
      psbt.addInput({ hash: previous.getId(), index: 1, ...(withUtxo && { nonWitnessUtxo: previous.toBuffer() }), ...(sighashType !== undefined && { sighashType }) })
      psbt.addInput({ hash: '11'.repeat(32), index: 0, sequence: 0xffffffff, ...(withUtxo && { witnessUtxo: { script: nested.output!, value: BTC / 4n } }), redeemScript: nested.redeem!.output! })
      psbt.addInput({ hash: '22'.repeat(32), index: 3, sequence: 0xffffffff, witnessUtxo: { script: taproot.output!, value: BTC / 4n }, tapInternalKey: xOnly })
      psbt.addOutput({ script: p2wsh.output!, value: BTC / 2n })
      psbt.addOutput({ script: opReturn, value: 0n })
      psbt.addOutput({ script: multisigScript, value: 10_000n })
      psbt.addOutput({ script: taproot.output!, value: BTC / 2n - 20_000n })
      psbt.setLocktime(500)
      return psbt
    }

    it('names every input and output, the account being the taproot address; the size estimate bounds the signed one', () => {
      const psbt = build()
      const result = review({ psbt: psbt.toBase64(), addresses: [taproot.address!] })
      expect(result.inputs).toEqual([
        { index: 0, txid: previous.getId(), vout: 1, value: BTC / 2n, address: legacy.address, isAccount: false, isToSign: false, isSigned: false, sequence: 0xffffffff },
        { index: 1, txid: '11'.repeat(32), vout: 0, value: BTC / 4n, address: nested.address, isAccount: false, isToSign: false, isSigned: false, sequence: 0xffffffff },
        { index: 2, txid: '22'.repeat(32), vout: 3, value: BTC / 4n, address: taproot.address, isAccount: true, isToSign: true, isSigned: false, sequence: 0xffffffff },
      ])
      expect(result.outputs).toEqual([
        { index: 0, kind: 'address', address: p2wsh.address, value: BTC / 2n, isAccount: false },
        { index: 1, kind: 'opReturn', data: toHex(new TextEncoder().encode('tessera')) + '0102', value: 0n },
        { index: 2, kind: 'script', script: toHex(multisigScript), value: 10_000n },
        { index: 3, kind: 'address', address: taproot.address, value: BTC / 2n - 20_000n, isAccount: true },
      ])
      // bitcoinjs-lib's own address encoding agrees with the review's.
      expect(result.outputs.flatMap((output) => (output.kind === 'address' ? [output.address] : []))).toEqual([bitcoinAddress.fromOutputScript(p2wsh.output!, regtest), bitcoinAddress.fromOutputScript(taproot.output!, regtest)])
      // 1 BTC in, 1 BTC less 10,000 sats out; the account spends 0.25 BTC and gets 0.5 BTC less 20,000 sats back.
      expect(result).toMatchObject({ fee: 10_000n, netChange: BTC / 4n - 20_000n, locktime: 500, isReplaceable: false, warnings: [] })

      psbt.signInput(0, legacyKey).signInput(1, nestedKey).signInput(2, taprootKey.tweak(bitcoinCrypto.taggedHash('TapTweak', xOnly)))
      const signed = psbt.finalizeAllInputs().extractTransaction()
      expect(signed.virtualSize()).toBeLessThanOrEqual(result.vsize!)
      expect(signed.virtualSize()).toBeGreaterThanOrEqual(result.vsize! - 2)
      expect(result.feeRate).toBe(Math.round((10_000 * 10) / result.vsize!) / 10)
    })

    it('inputs without UTXO data: missingUtxo, no fee, rate or net change', () => {
      const result = review({ psbt: build({ withUtxo: false }).toBase64(), addresses: [taproot.address!] })
      expect(result.warnings).toEqual([{ kind: 'missingUtxo', inputIndexes: [0, 1] }])
      expect(result.inputs[0]).toEqual({ index: 0, txid: previous.getId(), vout: 1, isAccount: false, isToSign: false, isSigned: false, sequence: 0xffffffff })
      expect(result).not.toHaveProperty('fee')
      expect(result).not.toHaveProperty('feeRate')
      expect(result).not.toHaveProperty('netChange')
      expect(result).not.toHaveProperty('vsize')
    })

    it('a sighash other than ALL, and a request to sign inputs that are not the account’s, are called out', () => {
      const result = review({ psbt: build({ sighashType: Transaction.SIGHASH_SINGLE | Transaction.SIGHASH_ANYONECANPAY }).toBase64(), addresses: [taproot.address!], signingIndexes: [0, 2] })
      expect(result.inputs.map((input) => input.isToSign)).toEqual([true, false, true])
      expect(result.inputs[0]).toMatchObject({ sighashType: 0x83 })
      expect(result.warnings).toEqual([
        { kind: 'sighash', inputIndex: 0, sighashType: 0x83 },
        { kind: 'signsOtherInputs', inputIndexes: [0] },
      ])
    })

    it('a fee rate past Bitcoin Core’s maxfeerate: highFeeRate', () => {
      const psbt = new Psbt({ network: regtest })
      psbt.addInput({ hash: '33'.repeat(32), index: 0, witnessUtxo: { script: taproot.output!, value: BTC } })
      psbt.addOutput({ script: taproot.output!, value: 1_000n })
      const result = review({ psbt: psbt.toBase64(), addresses: [taproot.address!] })
      expect(result.warnings).toEqual([{ kind: 'highFeeRate', feeRate: result.feeRate, limit: 10_000 }])
      expect(result.feeRate).toBeGreaterThan(500_000)
    })

    describe('hostile input: INVALID_PARAMS (or INVALID_ADDRESS), never a library’s error', () => {
      const expectError = (parameters: Omit<ReviewPsbtParameters, 'network' | 'caipNetworkId'>, expected: object) => {
        let error: unknown
        try {
          review(parameters)
        } catch (caught) {
          error = caught
        }
        expect(error).toBeInstanceOf(WidgetError)
        expect(error).toMatchObject(expected)
      }

      it.each([
        ['an empty string', ''],
        ['text that is neither base64 nor hex', 'not a psbt!'],
        ['base64 of garbage', 'AAECAwQFBgcICQ=='],
        ['hex of the magic alone', '70736274ff'],
        ['hex of garbage after the magic', '70736274ff0102030405'],
        ['a number', 42],
        ['more than 4 million characters', 'A'.repeat(4_000_004)],
      ])('%s', (_, psbt) => expectError({ psbt: psbt as string, addresses: [taproot.address!] }, { ...INVALID, field: 'psbt' }))

      it('every truncation of a valid PSBT', () => {
        const bytes = fromHex(build().toHex())
        for (let length = 1; length < bytes.length; length += 1) {
          const truncated = bytes.slice(0, length)
          expectError({ psbt: btoa(String.fromCharCode(...truncated)), addresses: [taproot.address!] }, { ...INVALID, field: 'psbt' })
        }
      })

      it('a nonWitnessUtxo that is not the transaction the input spends', () => {
        const psbt = new Psbt({ network: regtest })
        psbt.addInput({ hash: '44'.repeat(32), index: 1, nonWitnessUtxo: previous.toBuffer() })
        psbt.addOutput({ script: taproot.output!, value: 1_000n })
        expectError({ psbt: psbt.toBase64(), addresses: [taproot.address!] }, { ...INVALID, field: 'psbt.inputs.0' })
      })

      it('outputs worth more than the inputs', () => {
        const psbt = new Psbt({ network: regtest })
        psbt.addInput({ hash: '55'.repeat(32), index: 0, witnessUtxo: { script: taproot.output!, value: 1_000n } })
        psbt.addOutput({ script: taproot.output!, value: 2_000n })
        expectError({ psbt: psbt.toBase64(), addresses: [taproot.address!] }, { ...INVALID, field: 'psbt' })
      })

      it.each([
        ['an index past the inputs', [3]],
        ['a negative index', [-1]],
        ['a fraction', [0.5]],
        ['not an array', 'all'],
      ])('signing indexes: %s', (_, signingIndexes) =>
        expectError({ psbt: build().toBase64(), addresses: [taproot.address!], signingIndexes: signingIndexes as number[] }, { ...INVALID, field: 'signingIndexes' }),
      )

      it('no address, a mainnet one, not an address', () => {
        expectError({ psbt: build().toBase64(), addresses: [] }, { ...INVALID, field: 'addresses' })
        expectError({ psbt: build().toBase64(), addresses: ['bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq'] }, { code: 'INVALID_ADDRESS', field: 'addresses.0' })
        expectError({ psbt: build().toBase64(), addresses: [7 as unknown as string] }, { code: 'INVALID_ADDRESS', field: 'addresses.0' })
      })
    })
  })

  it('through the worker’s Bitcoin API by CAIP-2 id and through core.bitcoin’s call list', async () => {
    const sender = accounts[5]!
    const transfer = await client.buildTransfer({ from: sender.payment, to: accounts[6]!.payment.address, amount: BTC, feeRate: 2 })
    const bitcoin = createBitcoinWorkerApi({ chains: [{ caipNetworkId: chain.caipNetworkId, apiUrl: chain.apiUrl }] })
    try {
      const result = await bitcoin.reviewPsbt({ caipNetworkId: chain.caipNetworkId, psbt: transfer.psbtBase64, addresses: [sender.payment.address] })
      expect(structuredClone(result)).toEqual(result)
      expect(result).toMatchObject({ fee: transfer.fee, netChange: -(BTC + transfer.fee) })
      await expect(bitcoin.reviewPsbt({ caipNetworkId: 'bip122:000000000019d6689c085ae165831e93', psbt: transfer.psbtBase64, addresses: [sender.payment.address] })).rejects.toMatchObject({ code: 'NETWORK_NOT_FOUND' })
    } finally {
      bitcoin.destroy()
    }
    const api = createWorkerApi()
    api.configure({ chains: [], familyModules: { bip122: new URL('./bitcoinFamily.ts', import.meta.url).href }, familyChains: { bip122: [{ caipNetworkId: chain.caipNetworkId, apiUrl: chain.apiUrl }] } })
    const viaCore = await api.familyCall({ namespace: 'bip122', method: 'reviewPsbt', args: { caipNetworkId: chain.caipNetworkId, psbt: transfer.psbtBase64, addresses: [sender.payment.address] } })
    expect(viaCore).toMatchObject({ kind: 'psbt', fee: transfer.fee })
  })
})
