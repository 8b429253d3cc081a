import { sha256 } from '@noble/hashes/sha2.js'
import { bech32, bech32m, createBase58check } from '@scure/base'
import { Psbt, Transaction } from 'bitcoinjs-lib'
import { bitcoinNetworks, decodeBitcoinAddress, type BitcoinNetwork } from '../../../shared/families/bip122/address'
import type { CaipNetworkId } from '../../../shared/protocol/caip'
import { createWidgetError } from '../../../shared/protocol/errors'
import type { PsbtInputReview, PsbtOutputReview, PsbtReview, PsbtReviewWarning } from '../../../shared/protocol/review'

export type ReviewPsbtParameters = {
  network: BitcoinNetwork
  caipNetworkId: CaipNetworkId
  /** The PSBT as signPsbt receives it: base64, or hex. */
  psbt: string
  /** The account's addresses (payment, ordinals): inputs spending from them and outputs paying them are the account's. */
  addresses: readonly string[]
  /** The inputs the request asks the wallet to sign; the account's inputs when left out. */
  signingIndexes?: readonly number[]
}

/** A PSBT carrying its inputs' previous transactions can be large; far past any standard transaction's. */
const MAX_PSBT_CHARACTERS = 4_000_000
const MAX_ADDRESSES = 20
/** Bitcoin Core's default -maxfeerate (0.1 BTC/kvB): a node refuses to send a transaction paying more. */
const MAX_FEE_RATE = 10_000
const SIGHASH_DEFAULT = 0x00
const SIGHASH_ALL = 0x01
/** A sequence below 0xfffffffe signals replace-by-fee (BIP-125). */
const RBF_BELOW = 0xfffffffe
const OP_RETURN = 0x6a

const invalid = (field: string, details: string, cause?: unknown) => createWidgetError('INVALID_PARAMS', { field, details, cause })
const toHex = (bytes: Uint8Array) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')
const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((byte, index) => byte === b[index])
const compactSizeBytes = (n: number) => (n < 0xfd ? 1 : n <= 0xffff ? 3 : 5)
const base58check = createBase58check(sha256)

/** The PSBT from base64 or hex; INVALID_PARAMS (field `psbt`) for anything that is not one. */
function parsePsbt(text: unknown): Psbt {
  if (typeof text !== 'string' || text.length === 0 || text.length > MAX_PSBT_CHARACTERS) throw invalid('psbt', `A PSBT in base64 or hex, of at most ${MAX_PSBT_CHARACTERS} characters, was expected`)
  const isHex = /^70736274ff(?:[0-9a-f]{2})*$/i.test(text)
  if (!isHex && !/^[A-Za-z0-9+/]+={0,2}$/.test(text)) throw invalid('psbt', 'The PSBT is neither base64 nor hex')
  try {
    return isHex ? Psbt.fromHex(text) : Psbt.fromBase64(text)
  } catch (error) {
    throw invalid('psbt', `Not a PSBT (BIP-174): ${(error as Error).message}`, error)
  }
}

/**
 * The address an output script pays on `network`, when it has an address form: P2PKH, P2SH, and segwit programs
 * (v0 as bech32, v1 to v16 as bech32m).
 */
function addressOf(script: Uint8Array, network: BitcoinNetwork): string | undefined {
  const { pubKeyHash, scriptHash, bech32Prefix } = bitcoinNetworks[network]
  // OP_DUP OP_HASH160 <20> OP_EQUALVERIFY OP_CHECKSIG
  if (script.length === 25 && script[0] === 0x76 && script[1] === 0xa9 && script[2] === 20 && script[23] === 0x88 && script[24] === 0xac) {
    return base58check.encode(Uint8Array.of(pubKeyHash, ...script.subarray(3, 23)))
  }
  // OP_HASH160 <20> OP_EQUAL
  if (script.length === 23 && script[0] === 0xa9 && script[1] === 20 && script[22] === 0x87) return base58check.encode(Uint8Array.of(scriptHash, ...script.subarray(2, 22)))
  // OP_0 or OP_1 … OP_16, then one push of the 2- to 40-byte program.
  const [opcode, length] = [script[0]!, script[1]!]
  const version = opcode === 0 ? 0 : opcode >= 0x51 && opcode <= 0x60 ? opcode - 0x50 : undefined
  if (version === undefined || script.length !== length + 2 || length < 2 || length > 40 || (version === 0 && length !== 20 && length !== 32)) return undefined
  const words = [version, ...bech32.toWords(script.subarray(2))]
  return (version === 0 ? bech32 : bech32m).encode(bech32Prefix, words, 90)
}

/** The data an OP_RETURN script carries: its pushes joined (the rest as it is when they do not parse). */
function opReturnData(script: Uint8Array): string {
  const data: number[] = []
  for (let offset = 1; offset < script.length; ) {
    const opcode = script[offset]!
    const [length, skip] =
      opcode <= 75 ? [opcode, 1] : opcode === 0x4c ? [script[offset + 1], 2] : opcode === 0x4d ? [(script[offset + 1] ?? 0) | ((script[offset + 2] ?? 0) << 8), 3] : [undefined, 0]
    if (length === undefined || offset + skip + length > script.length) return toHex(script.subarray(1))
    data.push(...script.subarray(offset + skip, offset + skip + length))
    offset += skip + length
  }
  return toHex(Uint8Array.from(data))
}

/** What a signed input adds: scriptSig bytes and witness bytes (its item count included); undefined when not known. */
type InputSize = { scriptSig: number; witness: number }

/**
 * The size a signed input will have, at its largest: a finalized input's own; else by the script it spends (a 72-byte
 * ECDSA signature and a 33-byte key; a 64-byte Schnorr signature, 65 with a sighash byte). P2SH counts as P2SH-P2WPKH
 * unless its redeem script says otherwise; P2WSH, bare scripts and future versions are unknown.
 */
function signedInputSize(input: Psbt['data']['inputs'][number], script: Uint8Array | undefined): InputSize | undefined {
  if (input.finalScriptSig || input.finalScriptWitness) return { scriptSig: input.finalScriptSig?.length ?? 0, witness: input.finalScriptWitness?.length ?? 0 }
  if (!script) return undefined
  const isP2wpkh = (bytes: Uint8Array) => bytes.length === 22 && bytes[0] === 0 && bytes[1] === 20
  if (isP2wpkh(script)) return { scriptSig: 0, witness: 108 }
  if (script.length === 34 && script[0] === 0x51 && script[1] === 32) return { scriptSig: 0, witness: 66 + (input.sighashType === undefined || input.sighashType === SIGHASH_DEFAULT ? 0 : 1) }
  if (script.length === 23 && script[0] === 0xa9) return !input.redeemScript || isP2wpkh(input.redeemScript) ? { scriptSig: 23, witness: 108 } : undefined
  if (script.length === 25 && script[0] === 0x76) return { scriptSig: 107, witness: 0 }
  return undefined
}

/** The output an input spends (script and sats) from its nonWitnessUtxo, checked against the txid, or its witnessUtxo. */
function spentOutput(input: Psbt['data']['inputs'][number], hash: Uint8Array, vout: number, index: number): { script: Uint8Array; value: bigint } | undefined {
  const field = `psbt.inputs.${index}`
  if (input.nonWitnessUtxo) {
    let previous: Transaction
    try {
      previous = Transaction.fromBuffer(input.nonWitnessUtxo)
    } catch (error) {
      throw invalid(field, `Input ${index}'s nonWitnessUtxo is not a transaction: ${(error as Error).message}`, error)
    }
    const output = previous.outs[vout]
    if (!sameBytes(previous.getHash(), hash) || !output) throw invalid(field, `Input ${index}'s nonWitnessUtxo is not the transaction whose output ${vout} it spends`)
    if (input.witnessUtxo && (input.witnessUtxo.value !== output.value || !sameBytes(input.witnessUtxo.script, output.script))) {
      throw invalid(field, `Input ${index}'s witnessUtxo and nonWitnessUtxo disagree`)
    }
    return { script: output.script, value: output.value }
  }
  return input.witnessUtxo ? { script: input.witnessUtxo.script, value: input.witnessUtxo.value } : undefined
}

/**
 * What a PSBT does for an account, before the wallet is asked to sign it, without asking any node:
 * 1. the PSBT parsed (INVALID_PARAMS, field `psbt`, for anything that is not one), the account's addresses decoded;
 * 2. each input: the outpoint, the output it spends (nonWitnessUtxo checked against the txid, or witnessUtxo), its
 *    address, whether it is the account's, whether the request signs it, its sighash;
 * 3. each output: an address (the account's = change), OP_RETURN data, or a bare script;
 * 4. the fee (inputs − outputs), the signed size estimated and the fee rate, the account's net change;
 * 5. what could not be known and what a signature would allow, as warnings.
 * @example const review = reviewPsbt({ network: 'mainnet', caipNetworkId, psbt: psbtBase64, addresses: [payment.address] })
 */
export function reviewPsbt({ network, caipNetworkId, psbt: text, addresses, signingIndexes }: ReviewPsbtParameters): PsbtReview {
  if (!Array.isArray(addresses) || addresses.length === 0 || addresses.length > MAX_ADDRESSES) throw invalid('addresses', `From 1 to ${MAX_ADDRESSES} addresses of the account were expected`)
  const accountScripts = new Set(
    addresses.map((address, index) => {
      const decoded = typeof address === 'string' ? decodeBitcoinAddress(address) : undefined
      if (!decoded?.networks.includes(network)) throw createWidgetError('INVALID_ADDRESS', { field: `addresses.${index}`, details: `"${String(address).slice(0, 100)}" is not a ${bitcoinNetworks[network].name} address` })
      return toHex(decoded.outputScript)
    }),
  )
  const psbt = parsePsbt(text)
  const txInputs = psbt.txInputs
  if (signingIndexes !== undefined && (!Array.isArray(signingIndexes) || !signingIndexes.every((index) => Number.isInteger(index) && index >= 0 && index < txInputs.length))) {
    throw invalid('signingIndexes', `Signing indexes must be input indexes, from 0 to ${txInputs.length - 1}`)
  }

  const warnings: PsbtReviewWarning[] = []
  const sizes: (InputSize | undefined)[] = []
  const inputs = txInputs.map(({ hash, index: vout, sequence = 0xffffffff }, index): PsbtInputReview => {
    const input = psbt.data.inputs[index]!
    const spent = spentOutput(input, hash, vout, index)
    sizes.push(signedInputSize(input, spent?.script))
    const address = spent && addressOf(spent.script, network)
    const isAccount = spent !== undefined && accountScripts.has(toHex(spent.script))
    const { sighashType } = input
    const hasOtherSighash = sighashType !== undefined && sighashType !== SIGHASH_ALL && sighashType !== SIGHASH_DEFAULT
    if (hasOtherSighash) warnings.push({ kind: 'sighash', inputIndex: index, sighashType })
    return {
      index,
      txid: toHex(Uint8Array.from(hash).reverse()),
      vout,
      ...(spent && { value: spent.value }),
      ...(address !== undefined ? { address } : spent && { script: toHex(spent.script) }),
      isAccount,
      isToSign: signingIndexes === undefined ? isAccount : signingIndexes.includes(index),
      isSigned: Boolean(input.finalScriptSig || input.finalScriptWitness || input.partialSig?.length || input.tapKeySig || input.tapScriptSig?.length),
      sequence,
      ...(hasOtherSighash && { sighashType }),
    }
  })

  const outputs = psbt.txOutputs.map(({ script, value }, index): PsbtOutputReview => {
    if (script[0] === OP_RETURN) return { index, kind: 'opReturn', data: opReturnData(script), value }
    const address = addressOf(script, network)
    return address === undefined ? { index, kind: 'script', script: toHex(script), value } : { index, kind: 'address', address, value, isAccount: accountScripts.has(toHex(script)) }
  })

  const missing = inputs.filter((input) => input.value === undefined).map((input) => input.index)
  if (missing.length > 0) warnings.unshift({ kind: 'missingUtxo', inputIndexes: missing })
  const signsOther = inputs.filter((input) => input.isToSign && !input.isAccount).map((input) => input.index)
  if (signsOther.length > 0) warnings.push({ kind: 'signsOtherInputs', inputIndexes: signsOther })

  const sum = (values: readonly bigint[]) => values.reduce((total, value) => total + value, 0n)
  const totalOut = sum(outputs.map((output) => output.value))
  const fee = missing.length === 0 ? sum(inputs.map((input) => input.value!)) - totalOut : undefined
  if (fee !== undefined && fee < 0n) throw invalid('psbt', `The outputs (${totalOut} sats) are more than the inputs (${totalOut + fee} sats)`)

  // The unsigned transaction's size (empty scriptSigs), then each input's signature bytes: scriptSig bytes weigh 4
  // units, witness bytes 1, and a segwit transaction adds its marker and flag and an empty witness for other inputs.
  let vsize: number | undefined
  if (sizes.every((size) => size !== undefined)) {
    const unsigned = 8 + compactSizeBytes(inputs.length) + inputs.length * 41 + compactSizeBytes(outputs.length) + psbt.txOutputs.reduce((total, { script }) => total + 8 + compactSizeBytes(script.length) + script.length, 0)
    const scriptSigs = sizes.reduce((total, { scriptSig }) => total + scriptSig + compactSizeBytes(scriptSig) - 1, 0)
    const witnesses = sizes.some(({ witness }) => witness > 0) ? 2 + sizes.reduce((total, { witness }) => total + Math.max(witness, 1), 0) : 0
    vsize = Math.ceil(((unsigned + scriptSigs) * 4 + witnesses) / 4)
  }
  const feeRate = fee !== undefined && vsize !== undefined ? Math.round((Number(fee) * 10) / vsize) / 10 : undefined
  if (feeRate !== undefined && feeRate > MAX_FEE_RATE) warnings.push({ kind: 'highFeeRate', feeRate, limit: MAX_FEE_RATE })

  const netChange =
    missing.length === 0
      ? sum(outputs.flatMap((output) => (output.kind === 'address' && output.isAccount ? [output.value] : []))) - sum(inputs.flatMap((input) => (input.isAccount ? [input.value!] : [])))
      : undefined

  return {
    kind: 'psbt',
    network: caipNetworkId,
    inputs,
    outputs,
    ...(fee !== undefined && { fee }),
    ...(vsize !== undefined && { vsize }),
    ...(feeRate !== undefined && { feeRate }),
    ...(netChange !== undefined && { netChange }),
    locktime: psbt.locktime,
    isReplaceable: inputs.some((input) => input.sequence < RBF_BELOW),
    warnings,
  }
}
