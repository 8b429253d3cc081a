import { secp256k1 } from '@noble/curves/secp256k1'
import { crypto as bitcoinCrypto, initEccLib, payments, Psbt, Transaction } from 'bitcoinjs-lib'
import * as z from 'zod/mini'
import {
  bitcoinNetworks,
  decodeBitcoinAddress,
  describeBitcoinNetworks,
  type BitcoinNetwork,
  type DecodedBitcoinAddress,
} from '../../../shared/families/bip122/address'
import type { BitcoinBalance, BitcoinConfirmation, BitcoinFeeRates, BitcoinTransfer, BitcoinTransferParameters } from '../../../shared/families/bip122/coreApi'
import { createWidgetError, WidgetError } from '../../../shared/protocol/errors'
import { safeParse } from '../../../shared/protocol/schemas/parse'
import { createHttpEndpoints, httpStatusError, type CreateHttpEndpointsParameters, type HttpAnswer, type HttpClientParameters } from '../../rpc-transport/httpEndpoint'
import { guard } from '../../rpc-transport/guard'
import { RETRY_HTTP_STATUSES } from '../../rpc-transport/shouldRetry'
import { dustLimit, selectBitcoinCoins, type SpendableCoin, type SpendableType } from './selectBitcoinCoins'

export type { BitcoinBalance, BitcoinConfirmation, BitcoinFeeRates, BitcoinTransfer, BitcoinTransferParameters } from '../../../shared/families/bip122/coreApi'

export type CreateBitcoinClientParameters = {
  /** An Esplora-style REST API: `https://mempool.space/api`, `https://blockstream.info/testnet/api`, the local stack's. */
  apiUrl?: string
  /** Several of them, asked in ranked order with fallback (rpc-transport/rankedFallback.ts). */
  apiUrls?: readonly string[]
  network: BitcoinNetwork
} & HttpClientParameters

export type BitcoinWaitForConfirmationParameters = {
  txid: string
  pollIntervalMs?: number
  /** After this the outcome is unknown (RPC_TIMEOUT): a low fee can keep a transaction waiting for hours. */
  maxWaitMs?: number
  signal?: AbortSignal
}

const MAX_SATS = 2_100_000_000_000_000n
/** A coinbase output is spendable in the 100th block after its own (Bitcoin Core's COINBASE_MATURITY). */
const COINBASE_MATURITY = 100
/** Every input signals replace-by-fee (BIP-125), so a stuck transfer can be bumped. */
const RBF_SEQUENCE = 0xfffffffd
/** A standard transaction weighs at most 400,000 units: 400,000 bytes, twice as many hex characters. */
const MAX_TX_HEX_LENGTH = 800_000
const MIN_FEE_RATE = 1
const MAX_FEE_RATE = 10_000

const excerpt = (text: string) => text.slice(0, 200)
const toHex = (bytes: Uint8Array) => Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')
const fromHex = (hex: string) => Uint8Array.from(hex.match(/../g) ?? [], (pair) => parseInt(pair, 16))
const isHex = (value: unknown, bytes?: number): value is string =>
  typeof value === 'string' && value.length > 0 && value.length % 2 === 0 && /^[0-9a-fA-F]+$/.test(value) && (bytes === undefined || value.length === bytes * 2)
const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((byte, i) => byte === b[i])

/**
 * secp256k1 for bitcoinjs-lib from @noble/curves (pure JS): tiny-secp256k1 loads a .wasm file that a host's bundler may
 * not emit for a worker. bitcoinjs-lib needs only these two, for P2TR keys, and checks them against vectors on init.
 */
const nobleEcc = {
  isXOnlyPoint(point: Uint8Array): boolean {
    if (point.length !== 32) return false
    try {
      secp256k1.ProjectivePoint.fromHex(Uint8Array.of(2, ...point))
      return true
    } catch {
      return false
    }
  },
  xOnlyPointAddTweak(point: Uint8Array, tweak: Uint8Array): { parity: 0 | 1; xOnlyPubkey: Uint8Array } | null {
    const { ProjectivePoint, CURVE } = secp256k1
    const t = BigInt(`0x${toHex(tweak) || '0'}`)
    if (tweak.length !== 32 || t >= CURVE.n) return null
    let base
    try {
      base = ProjectivePoint.fromHex(Uint8Array.of(2, ...point))
    } catch {
      return null
    }
    const tweaked = t === 0n ? base : base.add(ProjectivePoint.BASE.multiply(t))
    if (tweaked.equals(ProjectivePoint.ZERO)) return null
    const compressed = tweaked.toRawBytes(true)
    return { parity: compressed[0] === 3 ? 1 : 0, xOnlyPubkey: compressed.slice(1) }
  },
}

const sats = z.int().check(z.minimum(0), z.maximum(Number(MAX_SATS)))
const txidSchema = z.string().check(z.regex(/^[0-9a-f]{64}$/))
// Sums of everything an address ever received or spent, so not bounded by the supply (coins go round).
const sum = z.int().check(z.minimum(0))
const statsSchema = z.object({ funded_txo_sum: sum, spent_txo_sum: sum })
const addressSchema = z.object({ chain_stats: statsSchema, mempool_stats: statsSchema })
const utxosSchema = z.array(
  z.object({ txid: txidSchema, vout: z.int().check(z.minimum(0)), value: sats, status: z.object({ confirmed: z.boolean(), block_height: z.optional(z.int().check(z.minimum(0))) }) }),
)
const feeEstimatesSchema = z.record(z.string().check(z.regex(/^\d{1,4}$/)), z.number().check(z.positive(), z.maximum(1e6)))
const txStatusSchema = z.union([
  z.object({ confirmed: z.literal(true), block_height: z.int().check(z.minimum(0)), block_hash: txidSchema, block_time: z.optional(z.int()) }),
  z.object({ confirmed: z.literal(false) }),
])
const coinbaseSchema = z.object({ vin: z.array(z.object({ is_coinbase: z.boolean() })).check(z.minLength(1)) })
const tipHeightSchema = z.int().check(z.minimum(0))

/** Whether a failed read is worth another try: an HTTP status of SPEC §8's list, a timeout, or no answer at all. */
function isRetryable(error: unknown): boolean {
  if (!(error instanceof WidgetError)) return false
  if (error.status !== undefined) return RETRY_HTTP_STATUSES.has(error.status)
  // HTTP_REQUEST_FAILED without a status is no answer at all; an answer that is not JSON will not improve.
  return error.code === 'RPC_TIMEOUT' || (error.code === 'HTTP_REQUEST_FAILED' && !(error.cause instanceof SyntaxError))
}

type EsploraCall = { method: 'GET' | 'POST'; path: string; body?: string }

/**
 * One Esplora API call: a status worth asking elsewhere (SPEC §8: 403, 408, 413, 429, 5xx) throws HTTP_REQUEST_FAILED
 * with it, every other answer is the caller's to read (a 404, a refused broadcast).
 */
const callEsplora: CreateHttpEndpointsParameters<EsploraCall>['call'] = async (send, { method, path, body }) => {
  const answer = await send({ method, path, body, headers: body === undefined ? {} : { 'content-type': 'text/plain' } })
  if (RETRY_HTTP_STATUSES.has(answer.response.status)) throw httpStatusError(answer)
  return answer
}

/** An endpoint that did not answer, timed out or answered a retryable status: the next one is asked. */
const bitcoinFailureRules: CreateHttpEndpointsParameters<EsploraCall>['rules'] = {
  shouldThrow: (error) => !(error instanceof WidgetError) || !(error.code === 'RPC_TIMEOUT' || (error.code === 'HTTP_REQUEST_FAILED' && isRetryable(error))),
  shouldRetry: isRetryable,
  isHedgeable: ({ method }) => method === 'GET',
}

/** What a node said when it refused a broadcast: our API's `{ error: { reason } }`, or Esplora's `sendrawtransaction RPC error: {…}`. */
function refusalReason(text: string): string {
  const parse = (json: string) => {
    try {
      return JSON.parse(json) as unknown
    } catch {
      return undefined
    }
  }
  const body = parse(text) as { error?: { reason?: unknown; message?: unknown } | string } | undefined
  if (typeof body?.error === 'string') return excerpt(body.error)
  const reason = body?.error?.reason ?? body?.error?.message
  if (typeof reason === 'string' && reason) return excerpt(reason)
  const rpc = /RPC error:\s*(\{.*\})/s.exec(text)?.[1]
  const message = rpc ? (parse(rpc) as { message?: unknown } | undefined)?.message : undefined
  return excerpt(typeof message === 'string' ? message : text.trim() || 'no reason given')
}

/** The key checks and PSBT fields of the paying address, by type. */
function describeSender(from: BitcoinTransferParameters['from'], network: BitcoinNetwork) {
  const { address, publicKey } = from ?? ({} as BitcoinTransferParameters['from'])
  const decoded = decodeAddress(address, network, 'from.address')
  const type = decoded.type
  if (type !== 'p2wpkh' && type !== 'p2sh' && type !== 'p2tr') {
    throw createWidgetError('INVALID_PARAMS', {
      field: 'from.address',
      details: `Sending from a ${type} address is not supported: use a native segwit (P2WPKH), nested segwit (P2SH-P2WPKH) or taproot (P2TR) account`,
    })
  }
  const badKey = (details: string) => createWidgetError('INVALID_PARAMS', { field: 'from.publicKey', details })
  if (publicKey !== undefined && !isHex(publicKey)) throw badKey('The public key must be hex')
  const key = publicKey === undefined ? undefined : fromHex(publicKey)
  const isCompressed = key?.length === 33 && (key[0] === 2 || key[0] === 3)
  if (type === 'p2wpkh') {
    if (key && (!isCompressed || !sameBytes(bitcoinCrypto.hash160(key), decoded.program))) throw badKey(`${publicKey} is not the public key of ${address}`)
    return { decoded, type: type as SpendableType, extra: {} }
  }
  if (!key) throw badKey(`The public key of ${address} is needed to spend from it`)
  if (type === 'p2sh') {
    // Nested segwit: the P2SH script is the P2WPKH program of the key (OP_0 <hash160(key)>).
    const redeemScript = Uint8Array.from([0x00, 0x14, ...bitcoinCrypto.hash160(key)])
    if (!isCompressed || !sameBytes(bitcoinCrypto.hash160(redeemScript), decoded.program)) {
      throw badKey(`${publicKey} is not the key of ${address}, or ${address} is not a nested segwit (P2SH-P2WPKH) address`)
    }
    return { decoded, type: type as SpendableType, extra: { redeemScript } }
  }
  // P2TR (BIP-86 key path): the address commits to the internal key tweaked by its own hash.
  const internalKey = key.length === 32 ? key : isCompressed ? key.slice(1) : undefined
  initEccLib(nobleEcc)
  const outputKey = internalKey && nobleEcc.isXOnlyPoint(internalKey) ? payments.p2tr({ internalPubkey: internalKey }).pubkey : undefined
  if (!internalKey || !outputKey || !sameBytes(outputKey, decoded.program)) throw badKey(`${publicKey} is not the internal key of ${address}`)
  return { decoded, type: type as SpendableType, extra: { tapInternalKey: internalKey } }
}

/** An address of `network`, decoded; INVALID_ADDRESS or BITCOIN_ADDRESS_WRONG_NETWORK (which names the address's network) otherwise. */
function decodeAddress(value: unknown, network: BitcoinNetwork, field: string): DecodedBitcoinAddress {
  const decoded = typeof value === 'string' ? decodeBitcoinAddress(value) : undefined
  if (!decoded) throw createWidgetError('INVALID_ADDRESS', { field, details: `"${String(value).slice(0, 100)}" is not a Bitcoin address` })
  if (!decoded.networks.includes(network)) {
    throw createWidgetError('BITCOIN_ADDRESS_WRONG_NETWORK', {
      field,
      params: { addressNetwork: describeBitcoinNetworks(decoded.networks), network: bitcoinNetworks[network].name },
      details: `${String(value)} is a ${describeBitcoinNetworks(decoded.networks)} address`,
    })
  }
  return decoded
}

/**
 * The worker's client for one Bitcoin network over an Esplora-style REST API: balances, fee rates, unsigned PSBTs for
 * a wallet to sign, broadcasts and bounded confirmation polling. Amounts are bigint sats; every error is a WidgetError.
 * @example const bitcoin = createBitcoinClient({ apiUrl: 'http://127.0.0.1:3002', network: 'regtest' }); await bitcoin.getBalance(address)
 */
export function createBitcoinClient({ apiUrl, apiUrls = apiUrl === undefined ? [] : [apiUrl], network, ...httpParameters }: CreateBitcoinClientParameters) {
  if (!(network in bitcoinNetworks)) throw createWidgetError('INVALID_CONFIG', { field: 'network', details: `"${String(network)}" is not mainnet, testnet, signet or regtest` })
  const endpoints = createHttpEndpoints<EsploraCall>({
    ...httpParameters,
    urls: apiUrls,
    noUrlDetails: 'A Bitcoin network needs at least one API URL',
    notAUrlDetails: 'The Bitcoin API URL is not a URL',
    describe: ({ method, path }) => `${method} ${path}`,
    call: callEsplora,
    ping: { method: 'GET', path: '/blocks/tip/height' },
    rules: bitcoinFailureRules,
  })

  /** One request on the best API, the next ones when it fails; `retryCount` rounds more (unset, the client's for a read). */
  const send = (call: EsploraCall, options: { signal?: AbortSignal; retryCount?: number }) => endpoints.request(call, options) as Promise<HttpAnswer>

  /** A GET whose answer is JSON of `schema` (or undefined on 404 when `isNotFoundOk`); the shape is checked, not trusted. */
  async function getJson<S extends z.ZodMiniType>(path: string, schema: S, { isNotFoundOk = false, signal, retryCount }: { isNotFoundOk?: boolean; signal?: AbortSignal; retryCount?: number } = {}): Promise<z.infer<S> | undefined> {
    const answer = await send({ method: 'GET', path }, { signal, retryCount })
    const { what, response, text } = answer
    if (isNotFoundOk && response.status === 404) return undefined
    if (!response.ok) throw httpStatusError(answer)
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch (cause) {
      throw createWidgetError('HTTP_REQUEST_FAILED', { details: `${what} answered with something that is not JSON: ${excerpt(text)}`, cause })
    }
    const parsed = safeParse(schema, json)
    if (!parsed.success) {
      const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(root)'}: ${issue.message}`).join('; ')
      throw createWidgetError('RPC_REQUEST_FAILED', { details: `${what} answered with an unexpected shape (${issues}): ${excerpt(text)}` })
    }
    return parsed.data
  }

  /** A read, retried by SPEC §8's rules: rounds over the APIs from `retryDelayMs`, or an API's Retry-After. */
  const get = async <S extends z.ZodMiniType>(path: string, schema: S): Promise<z.infer<S>> => (await getJson(path, schema)) as z.infer<S>

  const getFeeRates = async (): Promise<BitcoinFeeRates> => {
    const byTarget = await get('/fee-estimates', feeEstimatesSchema)
    const targets = Object.keys(byTarget).map(Number).sort((a, b) => a - b)
    // The estimate for the first target at or after `blocks` (Esplora leaves some out); 1 sat/vB when there is none
    // (a node with too little history answers {}), never below Bitcoin Core's default minimum relay fee.
    const rateFor = (blocks: number) => {
      const target = targets.find((t) => t >= blocks) ?? targets.at(-1)
      return Math.max(MIN_FEE_RATE, target === undefined ? MIN_FEE_RATE : byTarget[String(target)]!)
    }
    return { fast: rateFor(1), medium: rateFor(3), slow: rateFor(6), byTarget }
  }

  /** The unspent outputs of a script, each marked spendable or not: an immature coinbase is not. */
  async function getSpendableCoins(address: string) {
    const [utxos, tipHeight] = await Promise.all([get(`/address/${address}/utxo`, utxosSchema), get('/blocks/tip/height', tipHeightSchema)])
    const coins: SpendableCoin[] = utxos.map((utxo) => ({ txid: utxo.txid, vout: utxo.vout, value: BigInt(utxo.value), isConfirmed: utxo.status.confirmed }))
    const heights = new Map(utxos.map((utxo) => [`${utxo.txid}:${utxo.vout}`, utxo.status.block_height]))
    const coinbaseChecks = new Map<string, Promise<boolean>>()
    // Only a confirmed output fewer than 100 blocks deep can be an immature coinbase: ask the API about those alone.
    const canSpend = (coin: SpendableCoin) => {
      const height = heights.get(`${coin.txid}:${coin.vout}`)
      if (!coin.isConfirmed || height === undefined || tipHeight + 1 - height >= COINBASE_MATURITY) return true
      if (!coinbaseChecks.has(coin.txid)) coinbaseChecks.set(coin.txid, get(`/tx/${coin.txid}`, coinbaseSchema).then((tx) => !tx.vin[0]!.is_coinbase))
      return coinbaseChecks.get(coin.txid)!
    }
    return { coins, canSpend }
  }

  async function broadcast(txHex: string): Promise<string> {
    if (!isHex(txHex) || txHex.length > MAX_TX_HEX_LENGTH) {
      throw createWidgetError('INVALID_PARAMS', { field: 'txHex', details: `A raw transaction is up to ${MAX_TX_HEX_LENGTH} hex characters` })
    }
    let txid: string
    try {
      txid = Transaction.fromHex(txHex).getId()
    } catch (error) {
      throw createWidgetError('INVALID_PARAMS', { field: 'txHex', details: `Not a raw Bitcoin transaction: ${(error as Error).message}`, cause: error })
    }
    // Never retried: a second POST of a transaction that did go out is harmless, but the caller decides.
    const answer = await send({ method: 'POST', path: '/tx', body: txHex.toLowerCase() }, { retryCount: 0 })
    const { what, response, text } = answer
    if (response.status >= 400 && response.status < 500 && response.status !== 408 && response.status !== 429) {
      throw createWidgetError('BITCOIN_BROADCAST_REFUSED', { params: { reason: refusalReason(text) }, status: response.status, details: `${what} answered HTTP ${response.status}: ${excerpt(text)}` })
    }
    if (!response.ok) throw httpStatusError(answer)
    if (text.trim() !== txid) throw createWidgetError('RPC_REQUEST_FAILED', { details: `${what} answered ${excerpt(text)}, not the transaction's txid ${txid}` })
    return txid
  }

  return {
    apiUrls,
    network,
    /** Stops the APIs' ranking pings. */
    close: () => endpoints.stop(),

    /** What an address holds in sats: confirmed, and the mempool's change to it. */
    getBalance: (address: string): Promise<BitcoinBalance> =>
      guard('UNKNOWN', async () => {
        decodeAddress(address, network, 'address')
        const { chain_stats: chain, mempool_stats: mempool } = await get(`/address/${address}`, addressSchema)
        return { confirmed: BigInt(chain.funded_txo_sum - chain.spent_txo_sum), pending: BigInt(mempool.funded_txo_sum - mempool.spent_txo_sum) }
      }),

    /** sat/vB for about 1, 3 and 6 blocks, from the API's /fee-estimates. */
    getFeeRates: (): Promise<BitcoinFeeRates> => guard('UNKNOWN', getFeeRates),

    /**
     * An unsigned PSBT paying `amount` sats to `to` from `from`'s coins (largest confirmed first, no immature coinbase),
     * change back to `from` unless it would be dust, the fee the fee rate times the estimated signed vsize. Refused,
     * before anything is signed: an invalid address, one of another network, dust, more than `from` can spend.
     */
    buildTransfer: ({ from, to, amount, feeRate }: BitcoinTransferParameters): Promise<BitcoinTransfer> =>
      guard('UNKNOWN', async () => {
        const sender = describeSender(from, network)
        const recipient = decodeAddress(to, network, 'to')
        if (typeof amount !== 'bigint' || amount <= 0n || amount > MAX_SATS) {
          throw createWidgetError('INVALID_PARAMS', { field: 'amount', details: 'The amount must be a bigint of sats, more than 0 and at most 21 million BTC' })
        }
        const recipientDust = dustLimit(recipient.type)
        if (amount < recipientDust) {
          throw createWidgetError('BITCOIN_AMOUNT_BELOW_DUST', { field: 'amount', params: { dust: String(recipientDust) }, details: `${amount} sats to a ${recipient.type} address` })
        }
        if (feeRate !== undefined && (typeof feeRate !== 'number' || !Number.isFinite(feeRate) || feeRate < MIN_FEE_RATE || feeRate > MAX_FEE_RATE)) {
          throw createWidgetError('INVALID_PARAMS', { field: 'feeRate', details: `The fee rate must be from ${MIN_FEE_RATE} to ${MAX_FEE_RATE} sat/vB` })
        }
        const [rate, { coins, canSpend }] = await Promise.all([feeRate ?? getFeeRates().then((rates) => rates.medium), getSpendableCoins(from.address)])
        const selection = await selectBitcoinCoins({
          coins,
          amount,
          feeRate: rate,
          inputType: sender.type,
          recipientScriptLength: recipient.outputScript.length,
          changeScriptLength: sender.decoded.outputScript.length,
          changeDust: dustLimit(sender.decoded.type),
          canSpend,
        })
        if (!selection.isEnough) {
          throw createWidgetError('BITCOIN_INSUFFICIENT_FUNDS', {
            field: 'amount',
            params: { fee: String(selection.fee), available: String(selection.available) },
            details: `${amount} sats and a fee of ${selection.fee} sats at ${rate} sat/vB`,
          })
        }
        if (sender.type === 'p2tr') initEccLib(nobleEcc)
        const psbt = new Psbt()
        for (const coin of selection.selected) {
          psbt.addInput({ hash: coin.txid, index: coin.vout, sequence: RBF_SEQUENCE, witnessUtxo: { script: sender.decoded.outputScript, value: coin.value }, ...sender.extra })
        }
        psbt.addOutput({ script: recipient.outputScript, value: amount })
        if (selection.change > 0n) psbt.addOutput({ script: sender.decoded.outputScript, value: selection.change })
        return {
          psbtBase64: psbt.toBase64(),
          fee: selection.fee,
          feeRate: rate,
          vsize: selection.vsize,
          inputs: selection.selected.map(({ txid, vout, value }) => ({ txid, vout, value })),
          change: selection.change,
        }
      }),

    /** Sends a signed raw transaction (hex); answers its txid. The node's refusal is BITCOIN_BROADCAST_REFUSED with its reason. */
    broadcast: (txHex: string): Promise<string> => guard('UNKNOWN', () => broadcast(txHex)),

    /**
     * Finalizes a PSBT the wallet signed (inputs it left unfinalized), extracts the transaction and broadcasts it;
     * answers its txid. A PSBT that cannot be finalized (unsigned, foreign) is WALLET_BAD_RESPONSE.
     */
    finalizeAndBroadcast: (psbtBase64: string): Promise<string> =>
      guard('UNKNOWN', async () => {
        const badPsbt = (details: string, cause?: unknown) => createWidgetError('WALLET_BAD_RESPONSE', { field: 'psbtBase64', details, cause })
        if (typeof psbtBase64 !== 'string' || !/^[A-Za-z0-9+/]+={0,2}$/.test(psbtBase64)) throw badPsbt('The signed PSBT must be base64')
        initEccLib(nobleEcc)
        let psbt: Psbt
        try {
          psbt = Psbt.fromBase64(psbtBase64)
        } catch (error) {
          throw badPsbt(`Not a PSBT: ${(error as Error).message}`, error)
        }
        for (const [index, input] of psbt.data.inputs.entries()) {
          if (input.finalScriptWitness || input.finalScriptSig) continue
          try {
            psbt.finalizeInput(index)
          } catch (error) {
            throw badPsbt(`Input ${index} cannot be finalized (is it signed?): ${(error as Error).message}`, error)
          }
        }
        let txHex: string
        try {
          txHex = psbt.extractTransaction().toHex()
        } catch (error) {
          throw badPsbt(`The transaction cannot be extracted: ${(error as Error).message}`, error)
        }
        return broadcast(txHex)
      }),

    /**
     * Polls /tx/:txid/status every `pollIntervalMs` until the transaction is in a block (resolves), or `maxWaitMs`
     * passed (RPC_TIMEOUT: the outcome is unknown, do not send again blindly). A transaction the API does not know yet
     * (404) is waited for; a poll that fails as a read would be retried is tried again, up to `retryCount` in a row.
     */
    waitForConfirmation: ({ txid, pollIntervalMs = 2_000, maxWaitMs = 3_600_000, signal }: BitcoinWaitForConfirmationParameters): Promise<BitcoinConfirmation> =>
      guard('UNKNOWN', async () => {
        if (typeof txid !== 'string' || !/^[0-9a-f]{64}$/.test(txid)) throw createWidgetError('INVALID_PARAMS', { field: 'txid', details: `"${String(txid).slice(0, 100)}" is not a txid (64 lower-case hex characters)` })
        const confirmation = async (): Promise<BitcoinConfirmation | undefined> => {
          const status = await getJson(`/tx/${txid}/status`, txStatusSchema, { isNotFoundOk: true, signal, retryCount: 0 })
          if (!status?.confirmed) return undefined
          return { txid, blockHeight: status.block_height, blockHash: status.block_hash, ...(status.block_time === undefined ? {} : { blockTime: status.block_time }) }
        }
        return endpoints.waitForConfirmation({ id: txid, poll: confirmation, pollIntervalMs, maxWaitMs, signal })
      }),
  }
}

export type BitcoinClient = ReturnType<typeof createBitcoinClient>
