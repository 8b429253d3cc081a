import {
  address,
  appendTransactionMessageInstructions,
  createKeyPairFromBytes,
  compileTransaction,
  createKeyPairSignerFromBytes,
  createNoopSigner,
  createSolanaRpc,
  createTransactionMessage,
  decompileTransactionMessage,
  generateKeyPairSigner,
  getBase64EncodedWireTransaction,
  getCompiledTransactionMessageDecoder,
  getSignatureFromTransaction,
  getTransactionDecoder,
  getTransactionEncoder,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransaction,
  signTransactionMessageWithSigners,
  type Address,
  type Instruction,
  type KeyPairSigner,
} from '@solana/kit'
import { getCreateAccountInstruction, getTransferSolInstruction } from '@solana-program/system'
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getInitializeMint2Instruction,
  getMintSize,
  getMintToInstruction,
  getTransferCheckedInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SOLANA_DEV_LAMPORTS_EACH, seedSolana, solanaDemoToken, type SeededSolana } from '../../../../services/chain/solana/seedSolana'
import { startSolanaChain, type SolanaChain } from '../../../../services/chain/solana/startSolanaChain'
import { freePorts } from '../../../../services/stack/ports'
import { parseSolanaAmount } from '../../../shared/families/solana/amount'
import { answer, garbage, hang, httpStatus, startFaultServer, wrongIds, type FaultHandler, type FaultServer } from '../../rpc-transport/faultServer'
import { balanceKey } from '../../../shared/protocol/core/coreState'
import { createWorkerApi } from '../../api'
import { createSolanaClient, type SolanaClient } from './solana'
import { createSolanaWorkerApi } from './solanaWorkerApi'

const TOKEN_2022_PROGRAM = address('TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb')
const SEND_INVALID = { code: 'SOLANA_SEND_INVALID', shortMessage: 'Please enter a valid amount and receiver address' }
const SEND_FAILED = { code: 'SOLANA_SEND_FAILED', shortMessage: 'Failed to send transaction. Please try again.' }

describe('the worker Solana client against a local chain', () => {
  let solana: SolanaChain
  let seeded: SeededSolana
  let rpc: ReturnType<typeof createSolanaRpc>
  let client: SolanaClient
  let dev: KeyPairSigner[]
  let caipNetworkId: string
  let faults: FaultServer

  /** Signs the unsigned wire bytes with a dev secret key, as a wallet's solana:signTransaction does. */
  async function signAsWallet(transaction: Uint8Array, secretKey: Uint8Array): Promise<Uint8Array> {
    const signed = await signTransaction([await createKeyPairFromBytes(secretKey)], getTransactionDecoder().decode(transaction))
    return new Uint8Array(getTransactionEncoder().encode(signed))
  }

  const secretKeyOf = (signer: KeyPairSigner) => seeded.devSecretKeys[seeded.devAccounts.indexOf(signer.address)]!
  const lamportsOf = async (owner: Address) => (await rpc.getBalance(owner).send()).value
  const tokenAmountOf = async (owner: Address, mint: Address) => {
    const { value } = await rpc.getTokenAccountsByOwner(owner, { mint }, { encoding: 'jsonParsed' }).send()
    return value.reduce((total, { account }) => total + BigInt(account.data.parsed.info.tokenAmount.amount), 0n)
  }

  async function sendWithKit(payer: KeyPairSigner, instructions: Instruction[]) {
    const { value: latest } = await rpc.getLatestBlockhash().send()
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (draft) => setTransactionMessageFeePayerSigner(payer, draft),
      (draft) => setTransactionMessageLifetimeUsingBlockhash(latest, draft),
      (draft) => appendTransactionMessageInstructions(instructions, draft),
    )
    const signed = await signTransactionMessageWithSigners(message)
    await rpc.sendTransaction(getBase64EncodedWireTransaction(signed), { encoding: 'base64' }).send()
  }

  /** A new mint of `tokenProgram` with `decimals`, `amount` of it minted to `holder`'s associated account. */
  async function createMint({ decimals, tokenProgram, holder, amount }: { decimals: number; tokenProgram: Address; holder: Address; amount: bigint }) {
    const authority = dev[0]!
    const mint = await generateKeyPairSigner()
    const space = BigInt(getMintSize())
    const rent = await rpc.getMinimumBalanceForRentExemption(space).send()
    const config = { programAddress: tokenProgram as typeof TOKEN_PROGRAM_ADDRESS }
    const [ata] = await findAssociatedTokenPda({ owner: holder, mint: mint.address, tokenProgram })
    await sendWithKit(authority, [
      getCreateAccountInstruction({ payer: authority, newAccount: mint, lamports: rent, space, programAddress: tokenProgram }),
      getInitializeMint2Instruction({ mint: mint.address, decimals, mintAuthority: authority.address, freezeAuthority: null }, config),
      getCreateAssociatedTokenIdempotentInstruction({ payer: authority, ata, owner: holder, mint: mint.address, tokenProgram }),
      getMintToInstruction({ mint: mint.address, token: ata, mintAuthority: authority, amount }, config),
    ])
    return mint.address
  }

  beforeAll(async () => {
    const { anvil: port, anvil2: wsPort } = await freePorts()
    solana = await startSolanaChain({ port, wsPort })
    seeded = await seedSolana({ rpcUrl: solana.rpcUrl })
    rpc = createSolanaRpc(solana.rpcUrl)
    client = createSolanaClient({ rpcUrl: solana.rpcUrl })
    dev = await Promise.all(seeded.devSecretKeys.map((secretKey) => createKeyPairSignerFromBytes(secretKey)))
    caipNetworkId = `solana:${(await rpc.getGenesisHash().send()).slice(0, 32)}`
    faults = await startFaultServer(answer(() => null))
  })
  afterAll(async () => {
    await faults?.close()
    await solana?.stop()
  })

  it('reads the seeded SOL balance in lamports', async () => {
    expect(await client.getBalance(seeded.devAccounts[9]!)).toBe(SOLANA_DEV_LAMPORTS_EACH)
    expect(await client.getBalance((await generateKeyPairSigner()).address)).toBe(0n)
  })

  it('lists SPL Token and Token-2022 balances, dropping tokens with 0 decimals (SPEC §5)', async () => {
    const holder = dev[8]!.address
    const token2022 = await createMint({ decimals: 2, tokenProgram: TOKEN_2022_PROGRAM, holder, amount: 12_345n })
    const nft = await createMint({ decimals: 0, tokenProgram: TOKEN_PROGRAM_ADDRESS, holder, amount: 1n })

    const balances = await client.getTokenBalances(holder)
    const [seededAta] = await findAssociatedTokenPda({ owner: holder, mint: address(seeded.mint), tokenProgram: TOKEN_PROGRAM_ADDRESS })
    expect(balances).toHaveLength(2)
    expect(balances).toContainEqual({ mint: seeded.mint, tokenAccount: seededAta, amount: solanaDemoToken.amountEach, decimals: 6, tokenProgram: TOKEN_PROGRAM_ADDRESS })
    expect(balances).toContainEqual(expect.objectContaining({ mint: token2022, amount: 12_345n, decimals: 2, tokenProgram: TOKEN_2022_PROGRAM }))
    expect(balances.map((b) => b.mint)).not.toContain(nft)
    expect(await client.getTokenBalances((await generateKeyPairSigner()).address)).toEqual([])
  })

  it('sends SOL: build, wallet signs, send, confirmed; the receiver gains exactly the amount and the sender pays the quoted fee', async () => {
    const [from, to] = [dev[1]!, (await generateKeyPairSigner()).address]
    const fromBefore = await lamportsOf(from.address)
    const amount = parseSolanaAmount('1.234567891', 9)

    const { transaction, lastValidBlockHeight } = await client.buildTransfer({ from: from.address, to, amount, decimals: 9 })
    const fee = await client.estimateFee(transaction)
    const signature = await client.sendTransaction(await signAsWallet(transaction, secretKeyOf(from)))
    const confirmation = await client.waitForConfirmation({ signature, lastValidBlockHeight, pollIntervalMs: 20 })

    expect(amount).toBe(1_234_567_891n)
    expect(fee).toBe(5_000n)
    expect(confirmation).toMatchObject({ signature, confirmationStatus: expect.stringMatching(/^(confirmed|finalized)$/) })
    expect(await client.getBalance(to)).toBe(amount)
    expect(await lamportsOf(from.address)).toBe(fromBefore - amount - fee)
  })

  it('sends SPL to a fresh key without a token account, creating it in the same transaction (transferChecked)', async () => {
    const [from, to] = [dev[2]!, (await generateKeyPairSigner()).address]
    const mint = address(seeded.mint)
    const senderBefore = await tokenAmountOf(from.address, mint)
    const amount = parseSolanaAmount('2.5', 6)

    const { transaction, lastValidBlockHeight } = await client.buildTransfer({ from: from.address, to, amount, mint, decimals: 6 })
    const signature = await client.sendTransaction(await signAsWallet(transaction, secretKeyOf(from)))
    await client.waitForConfirmation({ signature, lastValidBlockHeight, pollIntervalMs: 20 })

    const [receiverAta] = await findAssociatedTokenPda({ owner: to, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS })
    expect(await client.getTokenBalances(to)).toEqual([{ mint, tokenAccount: receiverAta, amount: 2_500_000n, decimals: 6, tokenProgram: TOKEN_PROGRAM_ADDRESS }])
    expect(await tokenAmountOf(from.address, mint)).toBe(senderBefore - amount)

    // The receiver has its account now: the next transfer is transferChecked alone, and adds up.
    const again = await client.buildTransfer({ from: from.address, to, amount: 1n, mint })
    const message = decompileTransactionMessage(getCompiledTransactionMessageDecoder().decode(getTransactionDecoder().decode(again.transaction).messageBytes))
    expect((message.instructions as readonly Instruction[]).map((instruction) => instruction.data?.[0])).toEqual([12])
    await client.waitForConfirmation({ signature: await client.sendTransaction(await signAsWallet(again.transaction, secretKeyOf(from))), lastValidBlockHeight: again.lastValidBlockHeight, pollIntervalMs: 20 })
    expect(await tokenAmountOf(to, mint)).toBe(2_500_001n)
  })

  it('sends a Token-2022 token with the mint’s own program', async () => {
    const from = dev[3]!
    const to = (await generateKeyPairSigner()).address
    const mint = await createMint({ decimals: 4, tokenProgram: TOKEN_2022_PROGRAM, holder: from.address, amount: 50_000n })

    const { transaction, lastValidBlockHeight } = await client.buildTransfer({ from: from.address, to, amount: 7_500n, mint })
    await client.waitForConfirmation({ signature: await client.sendTransaction(await signAsWallet(transaction, secretKeyOf(from))), lastValidBlockHeight, pollIntervalMs: 20 })

    expect(await client.getTokenBalances(to)).toEqual([expect.objectContaining({ mint, amount: 7_500n, decimals: 4, tokenProgram: TOKEN_2022_PROGRAM })])
  })

  it('builds an unsigned legacy (or v0) transaction, fee payer `from`, byte for byte what @solana-program/system and token build', async () => {
    const [from, to] = [dev[4]!.address, (await generateKeyPairSigner()).address]
    const mint = address(seeded.mint)
    const signer = createNoopSigner(from)
    /** The same transaction compiled by kit from the reference instruction builders. */
    const reference = (built: Uint8Array, instructions: Instruction[], version: 'legacy' | 0 = 'legacy') => {
      const { lifetimeConstraint } = decompileTransactionMessage(getCompiledTransactionMessageDecoder().decode(getTransactionDecoder().decode(built).messageBytes))
      const message = pipe(
        createTransactionMessage({ version }),
        (draft) => setTransactionMessageFeePayerSigner(signer, draft),
        (draft) => setTransactionMessageLifetimeUsingBlockhash(lifetimeConstraint as Parameters<typeof setTransactionMessageLifetimeUsingBlockhash>[0], draft),
        (draft) => appendTransactionMessageInstructions(instructions, draft),
      )
      return new Uint8Array(getTransactionEncoder().encode(compileTransaction(message)))
    }

    const sol = (await client.buildTransfer({ from, to, amount: 42n })).transaction
    expect(getTransactionDecoder().decode(sol).signatures).toEqual({ [from]: null })
    expect(sol).toEqual(reference(sol, [getTransferSolInstruction({ source: signer, destination: to, amount: 42n })]))
    const v0 = (await client.buildTransfer({ from, to, amount: 42n, version: 0 })).transaction
    expect(v0).toEqual(reference(v0, [getTransferSolInstruction({ source: signer, destination: to, amount: 42n })], 0))
    expect(v0).not.toEqual(sol)

    const spl = (await client.buildTransfer({ from, to, amount: 42n, mint })).transaction
    const [source] = await findAssociatedTokenPda({ owner: from, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS })
    const [destination] = await findAssociatedTokenPda({ owner: to, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS })
    expect(spl).toEqual(
      reference(spl, [
        getCreateAssociatedTokenIdempotentInstruction({ payer: signer, ata: destination, owner: to, mint }),
        getTransferCheckedInstruction({ source, mint, destination, authority: signer, amount: 42n, decimals: 6 }),
      ]),
    )
  })

  it("fails a transfer of more than the balance with the spec's send-failure sentence, the node's reason in details", async () => {
    const from = dev[5]!
    const before = await lamportsOf(from.address)
    const { transaction } = await client.buildTransfer({ from: from.address, to: dev[6]!.address, amount: before * 2n })
    const signed = await signAsWallet(transaction, secretKeyOf(from))

    const error = await client.sendTransaction(signed).catch((e: unknown) => e)
    expect(error).toMatchObject({ ...SEND_FAILED, details: expect.stringContaining('custom program error: 0x1') })
    expect((error as { details: string }).details).toContain('"InstructionError":[0,{"Custom":1}]')
    expect((error as Error).message).toMatch(/^Failed to send transaction\. Please try again\.\n\nDetails: /)
    expect(await lamportsOf(from.address)).toBe(before)

    await expect(client.sendTransaction(transaction)).rejects.toMatchObject({ ...SEND_FAILED, details: expect.stringContaining(`not signed by ${from.address}`) })
    await expect(client.sendTransaction(new Uint8Array([1, 2, 3]))).rejects.toMatchObject({ ...SEND_FAILED, details: expect.stringContaining('Not a signed Solana transaction') })
  })

  it("refuses a bad address, a zero, negative or too large amount, and decimals that are not the token's, with the spec's sentence", async () => {
    const from = dev[6]!.address
    const to = dev[7]!.address
    const mint = seeded.mint
    const cases: [string, Parameters<SolanaClient['buildTransfer']>[0], string][] = [
      ['a receiver that is not base58', { from, to: '0x52908400098527886E0F7030069857D2E4169EE7', amount: 1n }, 'to'],
      ['a receiver of 31 bytes', { from, to: '1111111111111111111111111111111', amount: 1n }, 'to'],
      ['an empty receiver', { from, to: '', amount: 1n }, 'to'],
      ['a sender that is not an address', { from: 'alice', to, amount: 1n }, 'from'],
      ['a zero amount', { from, to, amount: 0n }, 'amount'],
      ['a negative amount', { from, to, amount: -5n }, 'amount'],
      ['more than a u64', { from, to, amount: 2n ** 64n }, 'amount'],
      ['SOL with 10 decimals', { from, to, amount: 1n, decimals: 10 }, 'decimals'],
      ['a token amount with more decimals than the mint', { from, to, amount: 1n, mint, decimals: 7 }, 'decimals'],
      ['a mint that is not a mint', { from, to, amount: 1n, mint: to }, 'mint'],
      ['a sender without the token', { from: (await generateKeyPairSigner()).address, to, amount: 1n, mint }, 'from'],
    ]
    for (const [name, transfer, field] of cases) {
      await expect(client.buildTransfer(transfer), name).rejects.toMatchObject({ ...SEND_INVALID, field })
    }
    await expect(client.getBalance('not-an-address')).rejects.toMatchObject({ code: 'INVALID_ADDRESS', field: 'address' })
    await expect(client.getTokenBalances('0xabc')).rejects.toMatchObject({ code: 'INVALID_ADDRESS', field: 'owner' })
    await expect(client.estimateFee(new Uint8Array([0]))).rejects.toMatchObject({ code: 'INVALID_PARAMS', field: 'transaction' })
    await expect(client.waitForConfirmation({ signature: 'O0l', lastValidBlockHeight: 1n })).rejects.toMatchObject({ code: 'INVALID_PARAMS', field: 'signature' })
  })

  it('parses typed amounts to base units, refusing what a transfer cannot carry', () => {
    const accepted: [string, number, bigint][] = [
      ['1.5', 6, 1_500_000n],
      ['0.000001', 6, 1n],
      [' 2 ', 6, 2_000_000n],
      ['1', 0, 1n],
      ['0.000000001', 9, 1n],
      ['18446744073709551615', 0, 2n ** 64n - 1n],
    ]
    for (const [text, decimals, expected] of accepted) expect(parseSolanaAmount(text, decimals), text).toBe(expected)
    const rejected: [string, number, string][] = [
      ['', 6, 'amount'],
      ['abc', 6, 'amount'],
      ['-1', 6, 'amount'],
      ['1e3', 6, 'amount'],
      ['.5', 6, 'amount'],
      ['1,5', 6, 'amount'],
      ['0', 6, 'amount'],
      ['0.000', 6, 'amount'],
      ['1.0000001', 6, 'amount'],
      ['0.5', 0, 'amount'],
      ['18446744073709551616', 0, 'amount'],
      ['1', -1, 'decimals'],
      ['1', 1.5, 'decimals'],
    ]
    for (const [text, decimals, field] of rejected) expect(() => parseSolanaAmount(text, decimals), `${text} / ${decimals}`).toThrow(expect.objectContaining({ ...SEND_INVALID, field }))
    expect(() => parseSolanaAmount('1.0000001', 6)).toThrow(expect.objectContaining({ details: '"1.0000001" has 7 decimals; this token has 6' }))
  })

  it("reports a transaction that landed and failed with the transaction's error", async () => {
    const from = dev[7]!
    const { transaction, lastValidBlockHeight } = await client.buildTransfer({ from: from.address, to: dev[8]!.address, amount: (await lamportsOf(from.address)) * 2n })
    const signed = await signAsWallet(transaction, secretKeyOf(from))
    // Only a send without preflight lands a failing transaction; wallets may send that way.
    const signature = await rpc.sendTransaction(Buffer.from(signed).toString('base64') as Parameters<typeof rpc.sendTransaction>[0], { encoding: 'base64', skipPreflight: true }).send()

    await expect(client.waitForConfirmation({ signature, lastValidBlockHeight, pollIntervalMs: 20 })).rejects.toMatchObject({
      ...SEND_FAILED,
      details: 'The transaction failed on chain: {"InstructionError":[0,{"Custom":1}]}',
    })
  })

  it('reports a transaction whose blockhash expired before it was seen', async () => {
    const from = dev[7]!
    const { transaction } = await client.buildTransfer({ from: from.address, to: dev[8]!.address, amount: 1n })
    const neverSent = await signAsWallet(transaction, secretKeyOf(from))
    const signature = getSignatureFromTransaction(getTransactionDecoder().decode(neverSent))
    const blockHeight = await rpc.getBlockHeight().send()

    await expect(client.waitForConfirmation({ signature, lastValidBlockHeight: blockHeight - 1n, pollIntervalMs: 20 })).rejects.toMatchObject({
      ...SEND_FAILED,
      details: expect.stringMatching(/^The transaction expired: block height \d+ passed its last valid block height \d+/),
    })
  })

  it('stops waiting after maxWaitMs when the transaction is neither seen nor expired', async () => {
    let clock = 0
    const sleeps: number[] = []
    const stalled = createSolanaClient({ rpcUrl: solana.rpcUrl, now: () => clock, sleep: async (ms) => void sleeps.push((clock += ms)) })
    const { transaction } = await client.buildTransfer({ from: dev[7]!.address, to: dev[8]!.address, amount: 1n })
    const signature = getSignatureFromTransaction(getTransactionDecoder().decode(await signAsWallet(transaction, secretKeyOf(dev[7]!))))

    await expect(stalled.waitForConfirmation({ signature, lastValidBlockHeight: 2n ** 62n, pollIntervalMs: 500, maxWaitMs: 2_000 })).rejects.toMatchObject({
      code: 'RPC_TIMEOUT',
      details: `${signature} was not confirmed within 2000 ms; its outcome is unknown`,
    })
    expect(sleeps).toEqual([500, 1_000, 1_500, 2_000])
  })

  it('answers the core’s one balance call by CAIP-2 id with the lamports the store mirrors', async () => {
    const api = createWorkerApi()
    // The page gives the URL of the Solana module (src/main/core/familyModules.ts); here, its source.
    api.configure({ chains: [], familyModules: { solana: new URL('./solanaFamily.ts', import.meta.url).href }, familyChains: { solana: [{ caipNetworkId, rpcUrls: [solana.rpcUrl] }] } })
    const owner = dev[3]!.address
    expect(await api.getNativeBalance({ caipNetworkId, address: owner })).toBe(await lamportsOf(owner))
    expect(api.getState().balances[balanceKey(caipNetworkId, owner)]).toMatchObject({ value: await lamportsOf(owner) })
  })

  it('serves each configured cluster by CAIP-2 id, with structured-cloneable values, and NETWORK_NOT_FOUND for others', async () => {
    const api = createSolanaWorkerApi({ chains: [{ caipNetworkId, rpcUrl: solana.rpcUrl }] })
    // Every value crosses postMessage in the worker: structuredClone is what it does to them.
    const cross = <T>(value: T): T => structuredClone(value)
    const [from, to] = [dev[9]!, (await generateKeyPairSigner()).address]

    const built = cross(await api.buildTransfer(cross({ caipNetworkId, from: from.address, to, amount: 1_000n, mint: seeded.mint, decimals: 6 })))
    expect(cross(await api.estimateFee({ caipNetworkId, transaction: built.transaction }))).toBe(5_000n)
    const signature = cross(await api.sendTransaction(cross({ caipNetworkId, transaction: await signAsWallet(built.transaction, secretKeyOf(from)) })))
    const confirmation = cross(await api.waitForConfirmation(cross({ caipNetworkId, signature, lastValidBlockHeight: built.lastValidBlockHeight, pollIntervalMs: 20 })))
    expect(confirmation.signature).toBe(signature)
    expect(cross(await api.getTokenBalances({ caipNetworkId, owner: to }))).toEqual([expect.objectContaining({ mint: seeded.mint, amount: 1_000n, decimals: 6 })])
    expect(cross(await api.getBalance({ caipNetworkId, address: from.address }))).toBeLessThan(SOLANA_DEV_LAMPORTS_EACH)

    for (const unknown of ['solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z', 'eip155:1', 'solana', 'not a network']) {
      await expect(api.getBalance({ caipNetworkId: unknown, address: from.address }), unknown).rejects.toMatchObject({ code: 'NETWORK_NOT_FOUND', shortMessage: 'Network not found' })
    }
    expect(() => createSolanaWorkerApi({ chains: [{ caipNetworkId: 'eip155:1', rpcUrl: solana.rpcUrl }] })).toThrow(expect.objectContaining({ code: 'INVALID_CONFIG', field: 'chains.0.caipNetworkId' }))
  })

  describe('against a node that misbehaves', () => {
    let sleeps: number[] = []
    const clientOf = (...handlers: FaultHandler[]) => {
      faults.setHandlers(...handlers)
      sleeps = []
      return createSolanaClient({ rpcUrl: faults.url, timeoutMs: 300, sleep: async (ms) => void sleeps.push(ms) })
    }
    const balance = (lamports: number) => answer(() => ({ context: { slot: 1 }, value: lamports }))
    const someone = () => dev[1]!.address

    it('answers garbage, a wrong shape, an HTTP error, silence or nothing: each a WidgetError that says so', async () => {
      await expect(clientOf(garbage()).getBalance(someone())).rejects.toMatchObject({
        code: 'HTTP_REQUEST_FAILED',
        details: expect.stringMatching(/^getBalance to 127\.0\.0\.1:\d+ answered with something that is not a JSON-RPC response: <html>502 Bad Gateway<\/html>$/),
      })
      await expect(clientOf(answer(() => ({ context: { slot: 1 }, value: 'lots' }))).getBalance(someone())).rejects.toMatchObject({
        code: 'RPC_REQUEST_FAILED',
        details: 'The node answered getBalance with "lots", not a non-negative integer',
      })
      await expect(clientOf(answer(() => ({ context: { slot: 1 }, value: [{ pubkey: 'x' }] }))).getTokenBalances(someone())).rejects.toMatchObject({
        code: 'RPC_REQUEST_FAILED',
        details: expect.stringContaining('not a jsonParsed token account'),
      })
      await expect(clientOf(httpStatus(503)).getBalance(someone())).rejects.toMatchObject({ code: 'HTTP_REQUEST_FAILED', status: 503 })
      await expect(clientOf(hang()).getBalance(someone())).rejects.toMatchObject({ code: 'RPC_TIMEOUT', details: expect.stringContaining('getBalance to 127.0.0.1') })
      await expect(createSolanaClient({ rpcUrl: 'http://127.0.0.1:1', sleep: async () => {} }).getBalance(someone())).rejects.toMatchObject({ code: 'HTTP_REQUEST_FAILED' })
      await expect(clientOf(garbage()).buildTransfer({ from: someone(), to: dev[2]!.address, amount: 1n })).rejects.toMatchObject({ code: 'HTTP_REQUEST_FAILED' })
    })

    it("maps the node's JSON-RPC errors, and fails a send through a broken node with the spec's sentence", async () => {
      const rpcError = (code: number, message: string): FaultHandler => (body, res) => {
        res.setHeader('content-type', 'application/json')
        res.end(JSON.stringify({ jsonrpc: '2.0', id: (body as { id: number }).id, error: { code, message } }))
      }
      await expect(clientOf(rpcError(-32602, 'Invalid param: WrongSize')).getBalance(someone())).rejects.toMatchObject({ code: 'INVALID_PARAMS', details: 'Invalid param: WrongSize' })
      await expect(clientOf(rpcError(-32005, 'Node is behind by 42 slots')).getBalance(someone())).rejects.toMatchObject({ code: 'RPC_REQUEST_FAILED', details: 'Node is behind by 42 slots' })
      // A node's answer is what is reported, not a later endpoint's reset connection.
      const dead = await startFaultServer((_body, res) => void res.socket?.destroy())
      try {
        faults.setHandlers(rpcError(-32005, 'Node is behind by 42 slots'))
        const twoNodes = createSolanaClient({ rpcUrls: [faults.url, dead.url], timeoutMs: 300, sleep: async () => {} })
        await expect(twoNodes.getBalance(someone())).rejects.toMatchObject({ code: 'RPC_REQUEST_FAILED', details: 'Node is behind by 42 slots' })
      } finally {
        await dead.close()
      }

      const { transaction } = await client.buildTransfer({ from: dev[1]!.address, to: dev[2]!.address, amount: 1n })
      const signed = await signAsWallet(transaction, secretKeyOf(dev[1]!))
      await expect(clientOf(garbage()).sendTransaction(signed)).rejects.toMatchObject({ ...SEND_FAILED, details: expect.stringContaining('not a JSON-RPC response'), cause: { code: 'HTTP_REQUEST_FAILED' } })
      await expect(clientOf(answer(() => 'not-the-signature')).sendTransaction(signed)).rejects.toMatchObject({ ...SEND_FAILED, details: expect.stringContaining('not the transaction\'s signature') })
    })

    it('retries a failed read by the rules of SPEC §8, and never a send', async () => {
      expect(await clientOf(httpStatus(503), balance(7)).getBalance(someone())).toBe(7n)
      expect(sleeps).toEqual([150])
      expect(await clientOf(httpStatus(429, { 'retry-after': '2' }), balance(8)).getBalance(someone())).toBe(8n)
      // What is left of the 2 s the node asked for, counted from its answer.
      expect(sleeps).toEqual([expect.closeTo(2_000, -2)])
      await expect(clientOf(httpStatus(502)).getBalance(someone())).rejects.toMatchObject({ code: 'HTTP_REQUEST_FAILED', status: 502 })
      expect([faults.calls().length, sleeps]).toEqual([4, [150, 300, 600]])
      await expect(clientOf(httpStatus(400)).getBalance(someone())).rejects.toMatchObject({ code: 'HTTP_REQUEST_FAILED', status: 400 })
      expect(faults.calls()).toHaveLength(1)

      const { transaction } = await client.buildTransfer({ from: dev[1]!.address, to: dev[2]!.address, amount: 1n })
      await expect(clientOf(httpStatus(503)).sendTransaction(await signAsWallet(transaction, secretKeyOf(dev[1]!)))).rejects.toMatchObject({ ...SEND_FAILED, cause: { status: 503 } })
      expect(faults.calls()).toHaveLength(1)
    })

    it('gives up waiting for a confirmation when the node keeps failing, with its error', async () => {
      const { transaction, lastValidBlockHeight } = await client.buildTransfer({ from: dev[1]!.address, to: dev[2]!.address, amount: 1n })
      const signature = getSignatureFromTransaction(getTransactionDecoder().decode(await signAsWallet(transaction, secretKeyOf(dev[1]!))))
      await expect(clientOf(garbage()).waitForConfirmation({ signature, lastValidBlockHeight, pollIntervalMs: 500 })).rejects.toMatchObject({
        code: 'HTTP_REQUEST_FAILED',
        details: expect.stringContaining('getSignatureStatuses'),
      })
      expect([faults.calls().length, sleeps]).toEqual([4, [500, 500, 500]])
    })

    it('checks that each answer carries the id of its request, as the EVM transport does, and retries one that does not', async () => {
      const value = { context: { slot: 1 }, value: 7 }
      const ids = /^getBalance to 127\.0\.0\.1:\d+: The node answered 1 response\(s\) to 1 request\(s\) with ids that are not the ids sent; /
      await expect(clientOf(wrongIds((sent) => sent.map((id) => id + 1_000), value)).getBalance(someone())).rejects.toMatchObject({
        code: 'HTTP_REQUEST_FAILED',
        details: expect.stringMatching(new RegExp(`${ids.source}missing 4; unexpected 1004$`)),
      })
      expect([faults.calls().length, sleeps]).toEqual([4, [150, 300, 600]])
      const withoutId: FaultHandler = (_body, res) => void res.end(JSON.stringify({ jsonrpc: '2.0', result: value }))
      await expect(clientOf(withoutId).getBalance(someone())).rejects.toMatchObject({ details: expect.stringMatching(new RegExp(`${ids.source}missing 4; unexpected none$`)) })
      // A whole-request error has no id to match (JSON-RPC 2.0 §5): it is the node's error.
      const parseError: FaultHandler = (_body, res) => void res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }))
      await expect(clientOf(parseError).getBalance(someone())).rejects.toMatchObject({ code: 'PARSE_ERROR', details: 'Parse error' })
    })

    it('reads integers past 2^53 exactly', async () => {
      const huge: FaultHandler = (body, res) => {
        res.setHeader('content-type', 'application/json')
        res.end(`{"jsonrpc":"2.0","id":${(body as { id: number }).id},"result":{"context":{"slot":1,"apiVersion":"2.0"},"value":18446744073709551615}}`)
      }
      expect(await clientOf(huge).getBalance(someone())).toBe(18_446_744_073_709_551_615n)
    })
  })
})
