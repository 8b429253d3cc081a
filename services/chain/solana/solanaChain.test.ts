import {
  address,
  airdropFactory,
  appendTransactionMessageInstructions,
  assertIsTransactionWithBlockhashLifetime,
  compileTransaction,
  createKeyPairSignerFromBytes,
  createSolanaRpc,
  createSolanaRpcSubscriptions,
  createTransactionMessage,
  devnet,
  generateKeyPairSigner,
  getBase58Decoder,
  getBase64EncodedWireTransaction,
  getCompiledTransactionMessageEncoder,
  compileTransactionMessage,
  getTransactionEncoder,
  lamports,
  pipe,
  sendAndConfirmTransactionFactory,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Address,
  type Instruction,
  type KeyPairSigner,
} from '@solana/kit'
import { getTransferSolInstruction } from '@solana-program/system'
import {
  fetchMint,
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getTokenDecoder,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { freePorts } from '../../stack/ports'
import { createLiteSvmChain } from './createLiteSvmChain'
import { deriveSolanaDevKey } from './devKeys'
import { seedSolana, solanaDemoToken, type SeededSolana } from './seedSolana'
import { startSolanaChain, type SolanaChain } from './startSolanaChain'

const COMPUTE_BUDGET_PROGRAM = address('ComputeBudget111111111111111111111111111111')

/** ComputeBudget SetComputeUnitPrice, built by hand (no compute-budget client needed for one instruction). */
function setComputeUnitPrice(microLamports: bigint): Instruction {
  const data = new Uint8Array(9)
  data[0] = 3
  new DataView(data.buffer).setBigUint64(1, microLamports, true)
  return { programAddress: COMPUTE_BUDGET_PROGRAM, data }
}

describe('a local Solana chain over LiteSVM', () => {
  let solana: SolanaChain
  let seeded: SeededSolana
  let rpc: ReturnType<typeof createSolanaRpc<ReturnType<typeof devnet>>>
  let rpcSubscriptions: ReturnType<typeof createSolanaRpcSubscriptions<ReturnType<typeof devnet>>>
  let sendAndConfirm: ReturnType<typeof sendAndConfirmTransactionFactory>
  let dev: KeyPairSigner[]

  /** Signs instructions into a transaction with a fresh blockhash. */
  async function sign(payer: KeyPairSigner, instructions: Instruction[]) {
    const { value: latestBlockhash } = await rpc.getLatestBlockhash().send()
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (draft) => setTransactionMessageFeePayerSigner(payer, draft),
      (draft) => setTransactionMessageLifetimeUsingBlockhash(latestBlockhash, draft),
      (draft) => appendTransactionMessageInstructions(instructions, draft),
    )
    const transaction = await signTransactionMessageWithSigners(message)
    assertIsTransactionWithBlockhashLifetime(transaction)
    const messageBase64 = Buffer.from(getCompiledTransactionMessageEncoder().encode(compileTransactionMessage(message))).toString('base64')
    const { value: fee } = await rpc.getFeeForMessage(messageBase64 as Parameters<typeof rpc.getFeeForMessage>[0]).send()
    return { transaction, fee: fee ?? -1n, message }
  }

  async function rawCall(body: string | object, url = solana.rpcUrl) {
    const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) })
    return { status: response.status, body: (await response.json()) as { id?: unknown; result?: unknown; error?: { code: number; message: string; data?: { err?: unknown } } } }
  }

  const balanceOf = async (owner: Address) => (await rpc.getBalance(owner).send()).value

  async function tokenBalanceOf(owner: Address): Promise<bigint> {
    const { value } = await rpc.getTokenAccountsByOwner(owner, { mint: address(seeded.mint) }, { encoding: 'jsonParsed' }).send()
    return value.reduce((total, { account }) => total + BigInt(account.data.parsed.info.tokenAmount.amount), 0n)
  }

  beforeAll(async () => {
    const [port, wsPort] = Object.values(await freePorts())
    solana = await startSolanaChain({ port: port as number, wsPort })
    seeded = await seedSolana({ rpcUrl: solana.rpcUrl })
    rpc = createSolanaRpc(devnet(solana.rpcUrl))
    rpcSubscriptions = createSolanaRpcSubscriptions(devnet(solana.wsUrl))
    sendAndConfirm = sendAndConfirmTransactionFactory({ rpc, rpcSubscriptions })
    dev = await Promise.all(seeded.devSecretKeys.map((secretKey) => createKeyPairSignerFromBytes(secretKey)))
  })
  afterAll(() => solana?.stop())

  it('derives the same dev keys on every run', () => {
    expect(seeded.devAccounts).toHaveLength(10)
    expect(seeded.devAccounts[0]).toBe(deriveSolanaDevKey('tessera-dev-solana-0').address)
    expect(dev.map((signer) => signer.address)).toEqual(seeded.devAccounts)
  })

  it('answers the cluster methods with a clock that starts near slot 447,552,000', async () => {
    const [health, version, genesisHash, slot, blockHeight, epochInfo, { value: latest }, rent] = await Promise.all([
      rpc.getHealth().send(),
      rpc.getVersion().send(),
      rpc.getGenesisHash().send(),
      rpc.getSlot().send(),
      rpc.getBlockHeight().send(),
      rpc.getEpochInfo().send(),
      rpc.getLatestBlockhash().send(),
      rpc.getMinimumBalanceForRentExemption(165n).send(),
    ])
    expect(health).toBe('ok')
    expect(version['solana-core']).toMatch(/^\d+\.\d+\.\d+$/)
    expect(genesisHash).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/)
    expect(slot).toBeGreaterThan(447_552_000n)
    expect(epochInfo).toMatchObject({ absoluteSlot: slot, blockHeight })
    expect(latest.lastValidBlockHeight).toBe(blockHeight + 150n)
    expect((await rpc.isBlockhashValid(latest.blockhash).send()).value).toBe(true)
    expect((await rpc.isBlockhashValid(genesisHash as string as typeof latest.blockhash).send()).value).toBe(false)
    expect(rent).toBe(2_039_280n)
  })

  it('airdrops SOL and confirms it over the WebSocket', async () => {
    const recipient = await generateKeyPairSigner()
    await airdropFactory({ rpc, rpcSubscriptions })({ recipientAddress: recipient.address, lamports: lamports(2_000_000_000n), commitment: 'confirmed' })
    expect(await balanceOf(recipient.address)).toBe(2_000_000_000n)
  })

  it('transfers SOL between two dev keys: balances move by exactly the amount and the quoted fee', async () => {
    const [from, to] = [dev[1] as KeyPairSigner, dev[2] as KeyPairSigner]
    const [fromBefore, toBefore] = [await balanceOf(from.address), await balanceOf(to.address)]
    const amount = 123_456_789n
    const { transaction, fee } = await sign(from, [getTransferSolInstruction({ source: from, destination: to.address, amount })])
    await sendAndConfirm(transaction, { commitment: 'confirmed' })

    expect(fee).toBe(5_000n)
    expect(await balanceOf(from.address)).toBe(fromBefore - amount - fee)
    expect(await balanceOf(to.address)).toBe(toBefore + amount)
    const [latest] = await rpc.getSignaturesForAddress(to.address, { limit: 1 }).send()
    const landed = await rpc.getTransaction(latest!.signature, { maxSupportedTransactionVersion: 0, encoding: 'json' }).send()
    expect(landed?.meta).toMatchObject({ err: null, fee: 5_000n, preBalances: [fromBefore, toBefore, 1n], postBalances: [fromBefore - amount - fee, toBefore + amount, 1n] })
  })

  it('lands two identical transfers sent one after the other', async () => {
    const [from, to] = [dev[3] as KeyPairSigner, dev[4] as KeyPairSigner]
    const toBefore = await balanceOf(to.address)
    const transfer = () => sign(from, [getTransferSolInstruction({ source: from, destination: to.address, amount: 1_000_000n })])
    const first = await transfer()
    await sendAndConfirm(first.transaction, { commitment: 'confirmed' })
    const second = await transfer()
    await sendAndConfirm(second.transaction, { commitment: 'confirmed' })

    expect(second.message.lifetimeConstraint.blockhash).not.toBe(first.message.lifetimeConstraint.blockhash)
    expect(await balanceOf(to.address)).toBe(toBefore + 2_000_000n)
  })

  it('charges the priority fee getFeeForMessage quotes', async () => {
    const [from, to] = [dev[5] as KeyPairSigner, dev[6] as KeyPairSigner]
    const fromBefore = await balanceOf(from.address)
    const { transaction, fee } = await sign(from, [setComputeUnitPrice(1_000_000n), getTransferSolInstruction({ source: from, destination: to.address, amount: 1n })])
    await sendAndConfirm(transaction, { commitment: 'confirmed' })

    expect(fee).toBe(5_000n + 6_000n) // two builtin instructions at 3,000 units each, 1 lamport per unit
    expect(await balanceOf(from.address)).toBe(fromBefore - 1n - fee)
  })

  it('accepts base58- and base64-encoded transactions, and refuses one it has seen', async () => {
    const [from, to] = [dev[7] as KeyPairSigner, dev[8] as KeyPairSigner]
    const signedBase58 = await sign(from, [getTransferSolInstruction({ source: from, destination: to.address, amount: 7n })])
    const wire = getTransactionEncoder().encode(signedBase58.transaction)
    const viaBase58 = await rawCall({ jsonrpc: '2.0', id: 1, method: 'sendTransaction', params: [getBase58Decoder().decode(wire)] })
    expect(viaBase58.body.result).toMatch(/^[1-9A-HJ-NP-Za-km-z]{64,88}$/)
    const { value: statuses } = await rpc.getSignatureStatuses([viaBase58.body.result as Parameters<typeof rpc.getTransaction>[0]]).send()
    expect(statuses[0]).toMatchObject({ err: null, confirmationStatus: 'finalized' })

    const again = await rawCall({ jsonrpc: '2.0', id: 2, method: 'sendTransaction', params: [getBase64EncodedWireTransaction(signedBase58.transaction), { encoding: 'base64' }] })
    expect(again.body.error).toMatchObject({ code: -32002, data: { err: 'AlreadyProcessed' } })
  })

  it('refuses a transfer that would fail, with the simulation error, and charges nothing', async () => {
    const [from, to] = [dev[9] as KeyPairSigner, dev[0] as KeyPairSigner]
    const before = await balanceOf(from.address)
    const { transaction } = await sign(from, [getTransferSolInstruction({ source: from, destination: to.address, amount: before * 2n })])
    const refused = await rawCall({ jsonrpc: '2.0', id: 1, method: 'sendTransaction', params: [getBase64EncodedWireTransaction(transaction), { encoding: 'base64' }] })

    expect(refused.body.error).toMatchObject({ code: -32002, data: { err: { InstructionError: [0, { Custom: 1 }] } } })
    expect(refused.body.error?.message).toBe('Transaction simulation failed: Error processing Instruction 0: custom program error: 0x1')
    expect(await balanceOf(from.address)).toBe(before)
  })

  it('simulates an unsigned transaction with a replaced blockhash', async () => {
    const [from, to] = [dev[1] as KeyPairSigner, dev[2] as KeyPairSigner]
    const { message } = await sign(from, [getTransferSolInstruction({ source: from, destination: to.address, amount: 1n })])
    const unsigned = getBase64EncodedWireTransaction(compileTransaction(message))
    const { value } = await rpc.simulateTransaction(unsigned, { encoding: 'base64', replaceRecentBlockhash: true, sigVerify: false }).send()
    expect(value).toMatchObject({ err: null, logs: ['Program 11111111111111111111111111111111 invoke [1]', 'Program 11111111111111111111111111111111 success'] })
    expect(value.replacementBlockhash?.blockhash).toMatch(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/)
  })

  it('has the seeded 6-decimal mint, and each dev key holds its tokens (by mint and by program id)', async () => {
    const mint = await fetchMint(rpc, address(seeded.mint))
    expect(mint.data).toMatchObject({ decimals: 6, supply: solanaDemoToken.amountEach * 10n, isInitialized: true })
    expect(mint.data.mintAuthority).toMatchObject({ __option: 'Some', value: dev[0]?.address })

    const owner = dev[5]!.address
    const byMint = await rpc.getTokenAccountsByOwner(owner, { mint: address(seeded.mint) }, { encoding: 'jsonParsed' }).send()
    expect(byMint.value).toHaveLength(1)
    expect(byMint.value[0]!.account.data.parsed.info).toMatchObject({
      mint: seeded.mint,
      owner,
      state: 'initialized',
      tokenAmount: { amount: '1000000000000', decimals: 6, uiAmountString: '1000000' },
    })
    const byProgram = await rpc.getTokenAccountsByOwner(owner, { programId: TOKEN_PROGRAM_ADDRESS }, { encoding: 'base64' }).send()
    const token = getTokenDecoder().decode(Buffer.from(byProgram.value[0]!.account.data[0], 'base64'))
    expect(token).toMatchObject({ mint: seeded.mint, owner, amount: solanaDemoToken.amountEach })
    const { value: balance } = await rpc.getTokenAccountBalance(byMint.value[0]!.pubkey).send()
    expect(balance).toMatchObject({ amount: '1000000000000', decimals: 6, uiAmountString: '1000000' })
  })

  it('lands an SPL transfer to a key without a token account, creating it in the same transaction', async () => {
    const sender = dev[1] as KeyPairSigner
    const recipient = await generateKeyPairSigner()
    const mint = address(seeded.mint)
    const [source] = await findAssociatedTokenPda({ owner: sender.address, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS })
    const [destination] = await findAssociatedTokenPda({ owner: recipient.address, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS })
    const senderBefore = await tokenBalanceOf(sender.address)
    expect(await tokenBalanceOf(recipient.address)).toBe(0n)

    const { transaction } = await sign(sender, [
      getCreateAssociatedTokenIdempotentInstruction({ payer: sender, ata: destination, owner: recipient.address, mint }),
      getTransferCheckedInstruction({ source, mint, destination, authority: sender, amount: 2_500_000n, decimals: 6 }),
    ])
    await sendAndConfirm(transaction, { commitment: 'confirmed' })

    expect(await tokenBalanceOf(recipient.address)).toBe(2_500_000n)
    expect(await tokenBalanceOf(sender.address)).toBe(senderBefore - 2_500_000n)
    const [latest] = await rpc.getSignaturesForAddress(recipient.address).send()
    const landed = await rpc.getTransaction(latest!.signature, { maxSupportedTransactionVersion: 0, encoding: 'json' }).send()
    expect(landed?.meta?.postTokenBalances).toContainEqual(
      expect.objectContaining({ owner: recipient.address, uiTokenAmount: expect.objectContaining({ amount: '2500000', uiAmountString: '2.5' }) }),
    )
  })

  it('notifies an accountSubscribe when the balance changes', async () => {
    const [from, to] = [dev[2] as KeyPairSigner, dev[3] as KeyPairSigner]
    const abort = new AbortController()
    const notifications = await rpcSubscriptions.accountNotifications(to.address, { encoding: 'base64' }).subscribe({ abortSignal: abort.signal })
    // kit drops notifications that arrive before iteration starts, so ask for the first one now.
    const first = notifications[Symbol.asyncIterator]().next()
    const before = await balanceOf(to.address)
    const { transaction } = await sign(from, [getTransferSolInstruction({ source: from, destination: to.address, amount: 42n })])
    await sendAndConfirm(transaction, { commitment: 'confirmed' })
    const notification = await first
    abort.abort()
    expect(notification.done).toBe(false)
    expect(notification.value?.value.lamports).toBe(before + 42n)
  })

  it.each([
    { name: 'malformed JSON', body: '{"jsonrpc":"2.0",', code: -32700, message: /Parse error/ },
    { name: 'an unknown method', body: { jsonrpc: '2.0', id: 1, method: 'getEverything', params: [] }, code: -32601, message: /Method not found/ },
    { name: 'a request without a method', body: { jsonrpc: '2.0', id: 1 }, code: -32600, message: /Invalid request/ },
    { name: 'an empty batch', body: [], code: -32600, message: /batch is empty/ },
    { name: 'params that are not an array', body: { jsonrpc: '2.0', id: 1, method: 'getBalance', params: { address: 'x' } }, code: -32602, message: /params must be an array/ },
    { name: 'a bad address', body: { jsonrpc: '2.0', id: 1, method: 'getBalance', params: ['not-an-address'] }, code: -32602, message: /params\[0\] \(address\)/ },
    { name: 'a bad airdrop amount', body: { jsonrpc: '2.0', id: 1, method: 'requestAirdrop', params: ['11111111111111111111111111111111', -5] }, code: -32602, message: /params\[1\] \(lamports\)/ },
    { name: 'an undecodable transaction', body: { jsonrpc: '2.0', id: 1, method: 'sendTransaction', params: ['AAAA', { encoding: 'base64' }] }, code: -32602, message: /params\[0\] \(transaction\)/ },
    { name: 'an unknown encoding', body: { jsonrpc: '2.0', id: 1, method: 'getAccountInfo', params: ['11111111111111111111111111111111', { encoding: 'base64+zstd' }] }, code: -32602, message: /config\.encoding/ },
  ])('answers $name with JSON-RPC error $code', async ({ body, code, message }) => {
    const { status, body: answer } = await rawCall(body as string | object)
    expect(status).toBe(200)
    expect(answer.error?.code).toBe(code)
    expect(answer.error?.message).toMatch(message)
  })

  it('answers a batch in order, one error not spoiling the rest', async () => {
    const { body } = await rawCall([
      { jsonrpc: '2.0', id: 'a', method: 'getHealth' },
      { jsonrpc: '2.0', id: 'b', method: 'nope' },
      { jsonrpc: '2.0', id: 'c', method: 'getBalance', params: [seeded.devAccounts[0]] },
    ])
    expect(body).toMatchObject([
      { id: 'a', result: 'ok' },
      { id: 'b', error: { code: -32601 } },
      { id: 'c', result: { value: expect.any(Number) } },
    ])
  })

  it('refuses a body over 1 MiB with 413', async () => {
    const { status, body } = await rawCall({ jsonrpc: '2.0', id: 1, method: 'getHealth', params: ['x'.repeat(1024 * 1024)] })
    expect(status).toBe(413)
    expect(body.error?.code).toBe(-32600)
  })

  it('answers malformed and unknown PubSub messages with JSON-RPC errors', async () => {
    const socket = new WebSocket(solana.wsUrl)
    const answers: { id?: unknown; error?: { code: number } }[] = []
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject))
    const received = new Promise<void>((resolve) =>
      socket.on('message', (data) => {
        answers.push(JSON.parse(String(data)))
        if (answers.length === 3) resolve()
      }),
    )
    socket.send('{oops')
    socket.send(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'programSubscribe', params: [] }))
    socket.send(JSON.stringify({ jsonrpc: '2.0', id: 8, method: 'signatureSubscribe', params: ['short'] }))
    await received
    socket.close()
    expect(answers).toEqual([
      expect.objectContaining({ id: null, error: expect.objectContaining({ code: -32700 }) }),
      expect.objectContaining({ id: 7, error: expect.objectContaining({ code: -32601 }) }),
      expect.objectContaining({ id: 8, error: expect.objectContaining({ code: -32602 }) }),
    ])
  })
})

describe('a local Solana chain, its limits and its lifecycle', () => {
  it('keeps at most maxTransactionRecords transactions, and forgets their history with them', () => {
    const chain = createLiteSvmChain({ maxTransactionRecords: 2 })
    const recipient = deriveSolanaDevKey('tessera-dev-solana-0').address
    const signatures = [1n, 2n, 3n].map((sol) => chain.airdrop(recipient, sol * 1_000_000_000n))
    expect(chain.getTransaction(signatures[0]!)).toBeUndefined()
    expect(chain.getTransaction(signatures[2]!)?.err).toBeNull()
    expect(chain.signaturesForAddress(recipient, { limit: 10 }).map((record) => record.signature)).toEqual([signatures[2], signatures[1]])
    chain.stop()
  })

  it('serves PubSub on the RPC port when no wsPort is given, advances slots on a timer, and stops', async () => {
    const solana = await startSolanaChain({ port: (await freePorts()).anvil, slotIntervalMs: 20 })
    expect(solana.wsUrl).toBe(solana.rpcUrl.replace('http:', 'ws:'))
    const socket = new WebSocket(solana.wsUrl)
    const messages: { method?: string; params?: { result: { slot: number } } }[] = []
    const twoSlots = new Promise<void>((resolve) =>
      socket.on('message', (data) => {
        messages.push(JSON.parse(String(data)))
        if (messages.filter((message) => message.method === 'slotNotification').length === 2) resolve()
      }),
    )
    socket.once('open', () => socket.send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'slotSubscribe' })))
    await twoSlots
    const [first, second] = messages.filter((message) => message.method === 'slotNotification')
    expect(second!.params!.result.slot).toBe(first!.params!.result.slot + 1)

    await solana.stop()
    await expect(fetch(solana.rpcUrl, { method: 'POST', body: '{}' })).rejects.toThrow()
  })
})
