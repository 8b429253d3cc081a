import { createServer, type Server, type ServerResponse } from 'node:http'
import { crypto as bitcoinCrypto, initEccLib, networks, Psbt, Transaction } from 'bitcoinjs-lib'
import { ECPairFactory } from 'ecpair'
import * as ecc from 'tiny-secp256k1'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bitcoinMinerAddress, deriveBitcoinAccounts, type BitcoinDevAccount } from '../../../../services/chain/bitcoin/devKeys'
import { startBitcoinChain, type BitcoinChain } from '../../../../services/chain/bitcoin/startBitcoinChain'
import { freePorts } from '../../../../services/stack/ports'
import { balanceKey } from '../../../shared/protocol/core/coreState'
import { createWorkerApi } from '../../api'
import { createBitcoinClient, type BitcoinClient } from './bitcoin'
import { createBitcoinWorkerApi } from './bitcoinWorkerApi'

initEccLib(ecc)
const ecpair = ECPairFactory(ecc)
const regtest = networks.regtest

type Utxo = { txid: string; vout: number; value: number; status: { confirmed: boolean; block_height?: number } }
type AddressInfo = { chain_stats: { funded_txo_sum: number; spent_txo_sum: number }; mempool_stats: { funded_txo_sum: number; spent_txo_sum: number; tx_count: number } }

const BTC = 100_000_000n
const START_BLOCKS = 450
const MAINNET_ADDRESS = 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq'

describe('the worker Bitcoin client against a local regtest chain', () => {
  let chain: BitcoinChain
  let accounts: BitcoinDevAccount[]
  let client: BitcoinClient
  /** Every POST the client made: a refused transfer must make none. */
  let posts: string[]

  beforeAll(async () => {
    accounts = deriveBitcoinAccounts()
    chain = await startBitcoinChain({
      port: (await freePorts()).bitcoin,
      blockIntervalMs: 0, // blocks only on mine(): every step below is deterministic
      coinbaseAddress: bitcoinMinerAddress(),
      premine: { blocks: START_BLOCKS, addresses: accounts.map((account) => account.payment.address) },
    })
    posts = []
    client = createBitcoinClient({
      apiUrl: chain.apiUrl,
      network: 'regtest',
      fetch: (input, init) => {
        if (init.method === 'POST') posts.push(input)
        return fetch(input, init)
      },
    })
  })
  afterAll(() => chain?.stop())

  const getJson = async <T>(path: string): Promise<T> => (await (await fetch(`${chain.apiUrl}${path}`)).json()) as T
  /** What the node says an address holds, in sats: confirmed, and confirmed plus the mempool's change. */
  async function nodeBalance(address: string) {
    const { chain_stats: c, mempool_stats: m } = await getJson<AddressInfo>(`/address/${address}`)
    const confirmed = BigInt(c.funded_txo_sum - c.spent_txo_sum)
    return { confirmed, total: confirmed + BigInt(m.funded_txo_sum - m.spent_txo_sum), mempoolTxs: m.tx_count }
  }

  /** Signs every input with the account's payment key, as a wallet's signPsbt does (without finalizing). */
  const signAsWallet = (psbtBase64: string, account: BitcoinDevAccount) =>
    Psbt.fromBase64(psbtBase64, { network: regtest }).signAllInputs(ecpair.fromWIF(account.payment.wif, regtest)).toBase64()

  it('reads the balance the node holds, all of it confirmed after the premine', async () => {
    const { payment } = accounts[0]!
    const utxos = await getJson<Utxo[]>(`/address/${payment.address}/utxo`)
    const balance = await client.getBalance(payment.address)
    expect(balance).toEqual({ confirmed: utxos.reduce((sum, utxo) => sum + BigInt(utxo.value), 0n), pending: 0n })
    expect(balance.confirmed).toBe((await nodeBalance(payment.address)).confirmed)
    expect(balance.confirmed).toBeGreaterThan(100n * BTC)
  })

  it('answers the API’s fee rates for about 1, 3 and 6 blocks, in sat/vB', async () => {
    expect(await client.getFeeRates()).toMatchObject({ fast: 5, medium: 3, slow: 2, byTarget: { '1': 5, '6': 2, '144': 1 } })
  })

  it('sends 0.1 BTC: built by the client, signed by the wallet, finalized and broadcast; confirmed after one block, the recipient up by exactly 0.1 BTC', async () => {
    const [, sender, recipient] = accounts as [BitcoinDevAccount, BitcoinDevAccount, BitcoinDevAccount]
    const amount = BTC / 10n
    const [senderBefore, recipientBefore] = [await nodeBalance(sender.payment.address), await nodeBalance(recipient.payment.address)]

    const transfer = await client.buildTransfer({ from: sender.payment, to: recipient.payment.address, amount })
    expect(transfer).toMatchObject({ feeRate: 3, change: expect.any(BigInt), inputs: [{ txid: expect.stringMatching(/^[0-9a-f]{64}$/), vout: 0 }] })
    expect(transfer.fee).toBe(BigInt(Math.ceil(transfer.vsize * 3)))
    const psbt = Psbt.fromBase64(transfer.psbtBase64, { network: regtest })
    expect(psbt.txOutputs.map(({ address, value }) => ({ address, value }))).toEqual([
      { address: recipient.payment.address, value: amount },
      { address: sender.payment.address, value: transfer.change },
    ])
    expect(psbt.data.inputs[0]!.witnessUtxo).toEqual({ script: expect.any(Uint8Array), value: transfer.inputs[0]!.value })
    expect(psbt.txInputs[0]!.sequence).toBe(0xfffffffd) // replace-by-fee
    expect(transfer.inputs[0]!.value - amount - transfer.change).toBe(transfer.fee)

    const signed = signAsWallet(transfer.psbtBase64, sender)
    const txid = await client.finalizeAndBroadcast(signed)
    const sent = Transaction.fromHex(Psbt.fromBase64(signed).finalizeAllInputs().extractTransaction().toHex())
    expect(txid).toBe(sent.getId())
    // The estimate is an upper bound: the fee rate paid is at least the one asked for.
    expect(sent.virtualSize()).toBeLessThanOrEqual(transfer.vsize)
    expect(Number(transfer.fee) / sent.virtualSize()).toBeGreaterThanOrEqual(3)
    expect(await client.getBalance(recipient.payment.address)).toEqual({ confirmed: recipientBefore.confirmed, pending: amount })
    expect(await client.getBalance(sender.payment.address)).toEqual({ confirmed: senderBefore.confirmed, pending: -(amount + transfer.fee) })

    const confirmation = client.waitForConfirmation({ txid, pollIntervalMs: 20, maxWaitMs: 10_000 })
    const [blockHash] = await chain.mine(1)
    expect(await confirmation).toEqual({ txid, blockHeight: START_BLOCKS + 1, blockHash, blockTime: expect.any(Number) })
    expect((await nodeBalance(recipient.payment.address)).confirmed - recipientBefore.confirmed).toBe(amount)
    expect((await nodeBalance(sender.payment.address)).confirmed).toBe(senderBefore.confirmed - amount - transfer.fee)
    expect(await client.getBalance(recipient.payment.address)).toEqual({ confirmed: recipientBefore.confirmed + amount, pending: 0n })
  })

  it('refuses dust, more than the account can spend, a mainnet address and a malformed one, each with its sentence, and broadcasts nothing', async () => {
    const [sender, recipient] = [accounts[5]!, accounts[6]!]
    const tip = Number(await (await fetch(`${chain.apiUrl}/blocks/tip/height`)).text())
    const utxos = await getJson<Utxo[]>(`/address/${sender.payment.address}/utxo`)
    // Premined coinbase outputs: those younger than 100 blocks count in the balance but cannot be spent yet.
    const spendable = utxos.filter((utxo) => tip + 1 - utxo.status.block_height! >= 100).reduce((sum, utxo) => sum + BigInt(utxo.value), 0n)
    const { confirmed } = await client.getBalance(sender.payment.address)
    expect(spendable).toBeLessThan(confirmed)
    const postsBefore = posts.length
    const send = (to: string, amount: bigint) => client.buildTransfer({ from: sender.payment, to, amount })

    await expect(send(recipient.payment.address, 545n)).rejects.toMatchObject({
      code: 'BITCOIN_AMOUNT_BELOW_DUST',
      shortMessage: 'The amount is below the dust limit: send at least 546 sats to this address',
      field: 'amount',
    })
    await expect(send(recipient.ordinals.address, 329n)).rejects.toMatchObject({ shortMessage: 'The amount is below the dust limit: send at least 330 sats to this address' })
    for (const amount of [spendable, confirmed, 21_000_000n * BTC]) {
      const error = await send(recipient.payment.address, amount).catch((e: unknown) => e)
      expect(error).toMatchObject({ code: 'BITCOIN_INSUFFICIENT_FUNDS', params: { available: String(spendable) }, field: 'amount' })
      expect((error as Error & { shortMessage: string }).shortMessage).toMatch(new RegExp(`^The amount and its network fee of \\d+ sats are more than the ${spendable} sats this account can spend$`))
    }
    await expect(send(MAINNET_ADDRESS, BTC)).rejects.toMatchObject({
      code: 'BITCOIN_ADDRESS_WRONG_NETWORK',
      shortMessage: 'This is a Bitcoin mainnet address; the selected network is Bitcoin Regtest',
      field: 'to',
    })
    await expect(send('tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx', BTC)).rejects.toMatchObject({
      shortMessage: 'This is a Bitcoin testnet or signet address; the selected network is Bitcoin Regtest',
    })
    for (const malformed of [`${recipient.payment.address.slice(0, -1)}q`, 'hello', '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed']) {
      await expect(send(malformed, BTC)).rejects.toMatchObject({ code: 'INVALID_ADDRESS', shortMessage: 'Address is invalid.', field: 'to' })
    }
    await expect(client.buildTransfer({ from: { address: MAINNET_ADDRESS }, to: recipient.payment.address, amount: BTC })).rejects.toMatchObject({
      code: 'BITCOIN_ADDRESS_WRONG_NETWORK',
      field: 'from.address',
    })
    await expect(client.buildTransfer({ from: { address: sender.payment.address, publicKey: recipient.payment.publicKey }, to: recipient.payment.address, amount: BTC })).rejects.toMatchObject({
      code: 'INVALID_PARAMS',
      field: 'from.publicKey',
    })
    await expect(client.getBalance(MAINNET_ADDRESS)).rejects.toMatchObject({ code: 'BITCOIN_ADDRESS_WRONG_NETWORK' })

    expect(posts.length).toBe(postsBefore)
    expect(await getJson(`/address/${sender.payment.address}/txs/mempool`)).toEqual([])
  })

  it("fails a broadcast the node refuses with the node's reason: a double spend, an unsigned PSBT refused before it is sent", async () => {
    const [sender, first, second] = [accounts[7]!, accounts[8]!, accounts[9]!]
    // Built before either is sent, both spend the same largest coin.
    const spend = await client.buildTransfer({ from: sender.payment, to: first.payment.address, amount: 100_000n })
    const doubleSpend = await client.buildTransfer({ from: sender.payment, to: second.payment.address, amount: 200_000n, feeRate: 10 })
    expect(doubleSpend.inputs).toEqual(spend.inputs)
    expect(doubleSpend.fee).toBe(BigInt(doubleSpend.vsize * 10))

    const postsBefore = posts.length
    await expect(client.finalizeAndBroadcast(spend.psbtBase64)).rejects.toMatchObject({ code: 'WALLET_BAD_RESPONSE', field: 'psbtBase64' })
    await expect(client.finalizeAndBroadcast('bm90IGEgcHNidA==')).rejects.toMatchObject({ code: 'WALLET_BAD_RESPONSE' })
    await expect(client.broadcast('0100')).rejects.toMatchObject({ code: 'INVALID_PARAMS', field: 'txHex' })
    expect(posts.length).toBe(postsBefore)

    const txid = await client.finalizeAndBroadcast(signAsWallet(spend.psbtBase64, sender))
    await expect(client.finalizeAndBroadcast(signAsWallet(doubleSpend.psbtBase64, sender))).rejects.toMatchObject({
      code: 'BITCOIN_BROADCAST_REFUSED',
      shortMessage: 'The network refused the transaction: bad-txns-inputs-spent',
      status: 400,
    })
    // Sending the same signed transaction again is no double spend: the node answers its txid.
    const signedHex = Psbt.fromBase64(signAsWallet(spend.psbtBase64, sender)).finalizeAllInputs().extractTransaction().toHex()
    expect(await client.broadcast(signedHex)).toBe(txid)
  })

  it('builds a PSBT spending a P2TR (ordinals) input with its internal key; the BIP-86 signature a wallet makes of it verifies', async () => {
    const account = accounts[3]!
    const { ordinals, payment } = account
    const funding = await client.buildTransfer({ from: payment, to: ordinals.address, amount: 1_000_000n })
    await client.finalizeAndBroadcast(signAsWallet(funding.psbtBase64, account))
    await chain.mine(1)
    expect(await client.getBalance(ordinals.address)).toEqual({ confirmed: 1_000_000n, pending: 0n })

    // A P2TR account must give its key: the PSBT carries it for the wallet (tapInternalKey).
    await expect(client.buildTransfer({ from: { address: ordinals.address }, to: payment.address, amount: 500_000n })).rejects.toMatchObject({ code: 'INVALID_PARAMS', field: 'from.publicKey' })
    await expect(client.buildTransfer({ from: { address: ordinals.address, publicKey: accounts[4]!.ordinals.publicKey }, to: payment.address, amount: 500_000n })).rejects.toMatchObject({
      code: 'INVALID_PARAMS',
      details: `${accounts[4]!.ordinals.publicKey} is not the internal key of ${ordinals.address}`,
    })
    const transfer = await client.buildTransfer({ from: ordinals, to: payment.address, amount: 500_000n })
    const internalKey = Buffer.from(ordinals.publicKey, 'hex')
    const psbt = Psbt.fromBase64(transfer.psbtBase64, { network: regtest })
    const prevoutScript = psbt.data.inputs[0]!.witnessUtxo!.script
    expect(psbt.data.inputs).toHaveLength(1)
    expect(psbt.data.inputs[0]).toMatchObject({ tapInternalKey: new Uint8Array(internalKey), witnessUtxo: { value: 1_000_000n } })
    expect(Buffer.from(prevoutScript).toString('hex')).toMatch(/^5120[0-9a-f]{64}$/)
    expect(psbt.txOutputs.map(({ address, value }) => ({ address, value }))).toEqual([
      { address: payment.address, value: 500_000n },
      { address: ordinals.address, value: 1_000_000n - 500_000n - transfer.fee },
    ])

    // The wallet signs offline with the tweaked key (BIP-86 key path); bitcoinjs-lib finalizes the key-path spend.
    psbt.signInput(0, ecpair.fromWIF(ordinals.wif, regtest).tweak(bitcoinCrypto.taggedHash('TapTweak', internalKey)))
    const spend = Psbt.fromBase64(psbt.toBase64()).finalizeAllInputs().extractTransaction()
    const [signature] = spend.ins[0]!.witness
    const sighash = spend.hashForWitnessV1(0, [prevoutScript], [1_000_000n], Transaction.SIGHASH_DEFAULT)
    expect(ecc.verifySchnorr(sighash, prevoutScript.subarray(2), signature!)).toBe(true)
    expect(spend.virtualSize()).toBeLessThanOrEqual(transfer.vsize)

    // bcoin predates Taproot and refuses spends of witness v1 outputs (LOCAL-STACK.md): the refusal comes back with its reason.
    await expect(client.finalizeAndBroadcast(psbt.toBase64())).rejects.toMatchObject({
      code: 'BITCOIN_BROADCAST_REFUSED',
      shortMessage: 'The network refused the transaction: non-mandatory-script-verify-flag',
    })
  })

  it('gives up waiting for a transaction that never confirms after maxWaitMs, its outcome unknown', async () => {
    await expect(client.waitForConfirmation({ txid: 'ab'.repeat(32), pollIntervalMs: 10, maxWaitMs: 60 })).rejects.toMatchObject({ code: 'RPC_TIMEOUT' })
    await expect(client.waitForConfirmation({ txid: 'not a txid' })).rejects.toMatchObject({ code: 'INVALID_PARAMS', field: 'txid' })
  })

  it('serves configured networks by CAIP-2 id through the worker, mirrors confirmed + pending into the store, and refuses others', async () => {
    const { payment } = accounts[4]!
    const api = createWorkerApi()
    // The page gives the URL of the Bitcoin module (src/main/core/familyModules.ts); here, its source.
    api.configure({ chains: [], familyModules: { bip122: new URL('./bitcoinFamily.ts', import.meta.url).href }, familyChains: { bip122: [{ caipNetworkId: chain.caipNetworkId, apiUrl: chain.apiUrl }] } })
    const balance = await api.familyCall({ namespace: 'bip122', method: 'getBalance', args: { caipNetworkId: chain.caipNetworkId, address: payment.address } })
    expect(structuredClone(balance)).toEqual(balance)
    expect(api.getState().balances[balanceKey(chain.caipNetworkId, payment.address)]).toMatchObject({
      caipNetworkId: chain.caipNetworkId,
      owner: payment.address,
      token: null,
      value: balance.confirmed + balance.pending,
    })
    // The one balance call of every family, by CAIP-2 id: the amount the store mirrors.
    expect(await api.getNativeBalance({ caipNetworkId: chain.caipNetworkId, address: payment.address })).toBe(balance.confirmed + balance.pending)
    await expect(api.getNativeBalance({ caipNetworkId: 'not a network', address: payment.address })).rejects.toMatchObject({ code: 'NETWORK_NOT_FOUND' })
    const transfer = await api.familyCall({ namespace: 'bip122', method: 'buildTransfer', args: { caipNetworkId: chain.caipNetworkId, from: payment, to: accounts[0]!.payment.address, amount: BTC } })
    expect(structuredClone(transfer)).toEqual(transfer)
    await expect(api.familyCall({ namespace: 'bip122', method: 'getBalance', args: { caipNetworkId: 'bip122:000000000019d6689c085ae165831e93', address: MAINNET_ADDRESS } })).rejects.toMatchObject({ code: 'NETWORK_NOT_FOUND' })
    await expect(api.familyCall({ namespace: 'bip122', method: 'getFeeRates', args: { caipNetworkId: 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp' } })).rejects.toMatchObject({ code: 'NETWORK_NOT_FOUND' })

    const withoutBitcoin = createWorkerApi()
    withoutBitcoin.configure({ chains: [] })
    await expect(withoutBitcoin.familyCall({ namespace: 'bip122', method: 'getFeeRates', args: { caipNetworkId: chain.caipNetworkId } })).rejects.toMatchObject({ code: 'NETWORK_NOT_FOUND', details: 'no Bitcoin network is configured in the core' })
    expect(() => createBitcoinWorkerApi({ chains: [{ caipNetworkId: 'bip122:00000000da84f2bafbbc53dee25a72ae', apiUrl: chain.apiUrl }] })).toThrow(expect.objectContaining({ code: 'INVALID_CONFIG' }))
    expect(() => createBitcoinWorkerApi({ chains: [{ caipNetworkId: chain.caipNetworkId, apiUrl: '' }] })).toThrow(expect.objectContaining({ code: 'NO_RPC_URL' }))
  })
})

describe('the worker Bitcoin client against an API that misbehaves', () => {
  let server: Server
  let apiUrl: string
  let requests: string[]
  let answer: (path: string, res: ServerResponse, body: string) => void

  beforeAll(async () => {
    server = createServer(async (req, res) => {
      let body = ''
      for await (const chunk of req) body += chunk
      requests.push(`${req.method} ${req.url}`)
      answer(req.url ?? '/', res, body)
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    apiUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}/api/`
  })
  afterAll(() => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))))

  const clientWith = (handler: typeof answer, options: Partial<Parameters<typeof createBitcoinClient>[0]> = {}) => {
    requests = []
    answer = handler
    return createBitcoinClient({ apiUrl, network: 'regtest', retryDelayMs: 1, timeoutMs: 200, ...options })
  }
  const reply = (res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers })
    res.end(body)
  }
  const address = deriveBitcoinAccounts({ count: 1 })[0]!.payment.address

  it.each([
    ['a body that is not JSON', (res: ServerResponse) => reply(res, 200, '<html>502</html>'), 'HTTP_REQUEST_FAILED', /answered with something that is not JSON/],
    ['a wrong shape', (res: ServerResponse) => reply(res, 200, JSON.stringify({ chain_stats: { funded_txo_sum: -1 } })), 'RPC_REQUEST_FAILED', /unexpected shape \(chain_stats\.funded_txo_sum/],
    ['an HTTP error', (res: ServerResponse) => reply(res, 400, 'Invalid Bitcoin address'), 'HTTP_REQUEST_FAILED', /answered HTTP 400: Invalid Bitcoin address/],
    ['silence', () => {}, 'RPC_TIMEOUT', /got no answer within 200 ms/],
    ['an answer too large', (res: ServerResponse) => reply(res, 200, 'x'.repeat(2_000)), 'HTTP_REQUEST_FAILED', /larger than 1000 bytes/],
  ])('answers %s with a WidgetError that says so', async (_case, handler, code, details) => {
    const client = clientWith((_path, res) => handler(res), { maxResponseBodyBytes: 1_000, retryCount: 0 })
    await expect(client.getBalance(address)).rejects.toMatchObject({ code, details: expect.stringMatching(details) })
    expect(requests).toEqual([`GET /api/address/${address}`])
  })

  it('retries a failed read (503, then an answer) and never a broadcast', async () => {
    let calls = 0
    const client = clientWith((_path, res) => (++calls < 3 ? reply(res, 503, 'busy') : reply(res, 200, JSON.stringify({ '1': 7.5, '3': 0.4 }))))
    // Below 1 sat/vB rounds up to it; missing targets take the next one available.
    expect(await client.getFeeRates()).toEqual({ fast: 7.5, medium: 1, slow: 1, byTarget: { '1': 7.5, '3': 0.4 } })
    expect(requests).toHaveLength(3)

    const tx = new Transaction()
    tx.addInput(new Uint8Array(32).fill(1), 0)
    tx.addOutput(Uint8Array.from([0x51]), 1_000n)
    const refusing = clientWith((_path, res) => reply(res, 503, 'busy'))
    await expect(refusing.broadcast(tx.toHex())).rejects.toMatchObject({ code: 'HTTP_REQUEST_FAILED', status: 503 })
    expect(requests).toEqual(['POST /api/tx'])
  })

  it("reads Esplora's refusal text (sendrawtransaction RPC error) as the reason", async () => {
    const tx = new Transaction()
    tx.addInput(new Uint8Array(32).fill(1), 0)
    tx.addOutput(Uint8Array.from([0x51]), 1_000n)
    const client = clientWith((_path, res) => reply(res, 400, 'sendrawtransaction RPC error: {"code":-26,"message":"min relay fee not met, 100 < 141"}', { 'content-type': 'text/plain' }))
    await expect(client.broadcast(tx.toHex())).rejects.toMatchObject({ shortMessage: 'The network refused the transaction: min relay fee not met, 100 < 141' })
    const lying = clientWith((_path, res) => reply(res, 200, 'ab'.repeat(32), { 'content-type': 'text/plain' }))
    await expect(lying.broadcast(tx.toHex())).rejects.toMatchObject({ code: 'RPC_REQUEST_FAILED', details: expect.stringContaining(`not the transaction's txid ${tx.getId()}`) })
  })

  it('takes credentials out of the API URL into an Authorization header', async () => {
    let authorization: string | undefined
    const client = createBitcoinClient({
      apiUrl: apiUrl.replace('http://', 'http://user:secret@'),
      network: 'regtest',
      fetch: (input, init) => {
        authorization = (init.headers as Record<string, string>).authorization
        expect(input).not.toContain('secret')
        return fetch(input, init)
      },
    })
    answer = (_path, res) => reply(res, 200, '{}')
    await client.getFeeRates()
    expect(authorization).toBe(`Basic ${btoa('user:secret')}`)
  })
})
