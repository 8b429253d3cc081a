import {
  address,
  appendTransactionMessageInstructions,
  compileTransaction,
  compressTransactionMessageUsingAddressLookupTables,
  createKeyPairFromBytes,
  createKeyPairSignerFromBytes,
  createNoopSigner,
  createSolanaRpc,
  createTransactionMessage,
  generateKeyPairSigner,
  getAddressEncoder,
  getBase64Decoder,
  getTransactionDecoder,
  getTransactionEncoder,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransaction,
  type Address,
  type Blockhash,
  type Instruction,
  type KeyPairSigner,
} from '@solana/kit'
import { getCreateAccountInstruction, getTransferSolInstruction, SYSTEM_PROGRAM_ADDRESS } from '@solana-program/system'
import { findAssociatedTokenPda, getApproveCheckedInstruction, getApproveInstruction, getCreateAssociatedTokenIdempotentInstruction, getTransferCheckedInstruction, TOKEN_PROGRAM_ADDRESS } from '@solana-program/token'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { seedSolana, type SeededSolana } from '../../../../services/chain/solana/seedSolana'
import { startSolanaChain, type SolanaChain } from '../../../../services/chain/solana/startSolanaChain'
import { freePorts } from '../../../../services/stack/ports'
import type { CaipNetworkId } from '../../../shared/protocol/caip'
import { WidgetError } from '../../../shared/protocol/errors'
import { startFaultServer, type FaultHandler, type FaultServer, type JsonRpcRequest } from '../../rpc-transport/faultServer'
import { createWorkerApi } from '../../api'
import { reviewSolanaTransaction } from './review'
import { createSolanaClient, type SolanaClient } from './solana'
import { createSolanaWorkerApi } from './solanaWorkerApi'

const SOL = 1_000_000_000n
const U64_MAX = 2n ** 64n - 1n
const COMPUTE_BUDGET = address('ComputeBudget111111111111111111111111111111')
const LOOKUP_TABLE_PROGRAM = 'AddressLookupTab1e1111111111111111111111111'
const INVALID_TRANSACTION = { code: 'INVALID_PARAMS', field: 'transaction', shortMessage: 'Invalid parameters were provided to the RPC method.' }

describe('reviewSolanaTransaction against a local chain', () => {
  let chain: SolanaChain
  let seeded: SeededSolana
  let rpc: ReturnType<typeof createSolanaRpc>
  let client: SolanaClient
  let dev: KeyPairSigner[]
  let caipNetworkId: CaipNetworkId
  /** A proxy to the chain whose answers a test may replace, method by method. */
  let proxy: FaultServer
  let proxyClient: SolanaClient
  let overrides: Record<string, (request: JsonRpcRequest) => unknown>

  const review = (transaction: Uint8Array | string, parameters: { account?: string; through?: SolanaClient } = {}) =>
    reviewSolanaTransaction({ read: (parameters.through ?? client).read, caipNetworkId, transaction, account: parameters.account })

  /** The unsigned wire bytes of `instructions` paid by `payer` (a recent blockhash unless given). */
  async function wireOf(payer: Address, instructions: Instruction[], { version = 'legacy', blockhash }: { version?: 'legacy' | 0; blockhash?: string } = {}) {
    const latest = blockhash === undefined ? (await rpc.getLatestBlockhash().send()).value : { blockhash: blockhash as Blockhash, lastValidBlockHeight: 0n }
    const message = pipe(
      createTransactionMessage({ version }),
      (draft) => setTransactionMessageFeePayer(payer, draft),
      (draft) => setTransactionMessageLifetimeUsingBlockhash(latest, draft),
      (draft) => appendTransactionMessageInstructions(instructions, draft),
    )
    return new Uint8Array(getTransactionEncoder().encode(compileTransaction(message)))
  }

  /** Signs with the dev keys of `signers` and sends; the local chain lands it before it answers. */
  async function signAndSend(wire: Uint8Array, signers: KeyPairSigner[]) {
    const keys = await Promise.all(signers.map((signer) => createKeyPairFromBytes(seeded.devSecretKeys[seeded.devAccounts.indexOf(signer.address)]!)))
    const signed = await signTransaction(keys, getTransactionDecoder().decode(wire))
    return client.sendTransaction(new Uint8Array(getTransactionEncoder().encode(signed)))
  }

  const lamportsOf = async (owner: Address) => (await rpc.getBalance(owner).send()).value
  const tokensOf = async (tokenAccount: Address) => BigInt((await rpc.getTokenAccountBalance(tokenAccount).send()).value.amount)
  const ataOf = async (owner: Address) => (await findAssociatedTokenPda({ owner, mint: address(seeded.mint), tokenProgram: TOKEN_PROGRAM_ADDRESS }))[0]

  beforeAll(async () => {
    const { anvil: port, anvil2: wsPort } = await freePorts()
    chain = await startSolanaChain({ port, wsPort })
    seeded = await seedSolana({ rpcUrl: chain.rpcUrl })
    rpc = createSolanaRpc(chain.rpcUrl)
    client = createSolanaClient({ rpcUrl: chain.rpcUrl })
    dev = await Promise.all(seeded.devSecretKeys.map((secretKey) => createKeyPairSignerFromBytes(secretKey)))
    caipNetworkId = `solana:${(await rpc.getGenesisHash().send()).slice(0, 32)}`
    overrides = {}
    // Forwards every request to the chain unless a test overrides its method.
    const forward: FaultHandler = async (body, res) => {
      const requests = Array.isArray(body) ? body : [body]
      const replies = await Promise.all(
        requests.map(async (request) => {
          const override = overrides[request.method]
          if (override) return { jsonrpc: '2.0', id: request.id, ...(override(request) as object) }
          const answer = await fetch(chain.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(request) })
          return (await answer.json()) as unknown
        }),
      )
      res.setHeader('content-type', 'application/json')
      res.end(JSON.stringify(Array.isArray(body) ? replies : replies[0]))
    }
    proxy = await startFaultServer(forward)
    proxyClient = createSolanaClient({ rpcUrl: proxy.url, retryCount: 0 })
  })
  afterAll(async () => {
    proxyClient?.close()
    client?.close()
    await proxy?.close()
    await chain?.stop()
  })

  it('a SOL transfer as the widget builds it: fee payer, the System transfer, the fee, and the balance change sending it then makes', async () => {
    const [payer, to] = [dev[1]!, (await generateKeyPairSigner()).address]
    const { transaction } = await client.buildTransfer({ from: payer.address, to, amount: SOL })
    const result = await review(transaction)
    expect(result).toMatchObject({
      kind: 'solanaTransaction',
      network: caipNetworkId,
      version: 'legacy',
      feePayer: payer.address,
      signers: [{ address: payer.address, isSigned: false }],
      usesDurableNonce: false,
      instructions: [
        {
          kind: 'instruction',
          program: 'system',
          programAddress: SYSTEM_PROGRAM_ADDRESS,
          instruction: 'transfer',
          args: [
            { name: 'lamports', value: { kind: 'lamports', amount: SOL } },
            { name: 'source', value: { kind: 'address', address: payer.address } },
            { name: 'destination', value: { kind: 'address', address: to } },
          ],
        },
      ],
      fee: 5_000n,
      warnings: [],
    })
    expect(result.computeUnitsConsumed).toBeGreaterThan(0n)
    const before = await lamportsOf(payer.address)
    expect(result.balanceChanges).toEqual([{ asset: { kind: 'native' }, address: payer.address, before, after: expect.any(BigInt), amount: expect.any(BigInt) }])
    await signAndSend(transaction, [payer])
    // What the simulation said leaves the account is what sending it took, to the lamport: the amount and the fee.
    expect(result.balanceChanges![0]!.amount).toBe(-(SOL + result.fee!))
    expect((await lamportsOf(payer.address)) - before).toBe(result.balanceChanges![0]!.amount)
  })

  it('an SPL transfer with compute budget and approvals: the instructions decoded, the approvals called out, the token change what sending it makes', async () => {
    const [holder, recipient, delegate] = [dev[2]!, (await generateKeyPairSigner()).address, (await generateKeyPairSigner()).address]
    const mint = address(seeded.mint)
    const [source, destination] = [await ataOf(holder.address), await ataOf(recipient)]
    const authority = createNoopSigner(holder.address)
    const wire = await wireOf(
      holder.address,
      [
        { programAddress: COMPUTE_BUDGET, data: new Uint8Array([2, 0x40, 0x0d, 0x03, 0x00]) },
        { programAddress: COMPUTE_BUDGET, data: new Uint8Array([3, 0x10, 0x27, 0, 0, 0, 0, 0, 0]) },
        getCreateAssociatedTokenIdempotentInstruction({ payer: authority, ata: destination, owner: recipient, mint }),
        getTransferCheckedInstruction({ source, mint, destination, authority, amount: 2_500_000n, decimals: 6 }),
        getApproveInstruction({ source, delegate, owner: authority, amount: U64_MAX }),
        getApproveCheckedInstruction({ source, mint, delegate, owner: authority, amount: 1_000_000n, decimals: 6 }),
      ],
      { version: 0 },
    )
    const result = await review(wire)
    expect(result.version).toBe(0)
    expect(result.instructions.map((instruction) => (instruction.kind === 'instruction' ? `${instruction.program}.${instruction.instruction}` : 'unknown'))).toEqual([
      'computeBudget.setComputeUnitLimit',
      'computeBudget.setComputeUnitPrice',
      'associatedToken.createIdempotent',
      'token.transferChecked',
      'token.approve',
      'token.approveChecked',
    ])
    expect(result.warnings).toEqual([
      { kind: 'unlimitedApproval', instructionIndex: 4, source, delegate, amount: U64_MAX },
      { kind: 'approval', instructionIndex: 5, source, delegate, amount: 1_000_000n, mint, decimals: 6 },
    ])
    // 5,000 per signature and the priority fee: 10,000 micro-lamports × 200,000 units = 2,000 lamports.
    expect(result.fee).toBe(7_000n)
    const tokenBefore = await tokensOf(source)
    expect(result.balanceChanges).toContainEqual({
      asset: { kind: 'token', mint, decimals: 6, tokenProgram: TOKEN_PROGRAM_ADDRESS },
      address: holder.address,
      tokenAccount: source,
      before: tokenBefore,
      after: tokenBefore - 2_500_000n,
      amount: -2_500_000n,
    })
    // The recipient's new token account is paid by the holder: its SOL goes down by the rent, at least.
    const solChange = result.balanceChanges!.find((change) => change.asset.kind === 'native')!
    expect(solChange.amount).toBeLessThan(-2_000_000n)
    await signAndSend(wire, [holder])
    expect(await tokensOf(source)).toBe(tokenBefore - 2_500_000n)
    expect(await tokensOf(destination)).toBe(2_500_000n)
  })

  it('createAccount with the new account as second signer: both signers listed, the payer’s SOL and the new account’s rent', async () => {
    const [payer, newAccount] = [dev[3]!, (await generateKeyPairSigner()).address]
    const wire = await wireOf(payer.address, [getCreateAccountInstruction({ payer: createNoopSigner(payer.address), newAccount: createNoopSigner(newAccount), lamports: 1_000_000n, space: 0n, programAddress: SYSTEM_PROGRAM_ADDRESS })])
    const result = await review(wire)
    expect(result.signers).toEqual([{ address: payer.address, isSigned: false }, { address: newAccount, isSigned: false }])
    expect(result.instructions[0]).toMatchObject({ instruction: 'createAccount', args: expect.arrayContaining([{ name: 'newAccount', value: { kind: 'address', address: newAccount } }]) })
    expect(result.fee).toBe(10_000n)
    expect(result.balanceChanges).toContainEqual({ asset: { kind: 'native' }, address: newAccount, before: 0n, after: 1_000_000n, amount: 1_000_000n })
  })

  it('sees a signature the wallet already put in its slot', async () => {
    const payer = dev[4]!
    const wire = await wireOf(payer.address, [getTransferSolInstruction({ source: createNoopSigner(payer.address), destination: dev[5]!.address, amount: 1n })])
    const signed = await signTransaction([await createKeyPairFromBytes(seeded.devSecretKeys[4]!)], getTransactionDecoder().decode(wire))
    expect((await review(new Uint8Array(getTransactionEncoder().encode(signed)))).signers).toEqual([{ address: payer.address, isSigned: true }])
  })

  it('shows the reviewed account’s change when it only receives', async () => {
    const [payer, receiver] = [dev[4]!, dev[6]!]
    const wire = await wireOf(payer.address, [getTransferSolInstruction({ source: createNoopSigner(payer.address), destination: receiver.address, amount: 123n })])
    const before = await lamportsOf(receiver.address)
    expect((await review(wire, { account: receiver.address })).balanceChanges).toContainEqual({ asset: { kind: 'native' }, address: receiver.address, before, after: before + 123n, amount: 123n })
  })

  it('a transfer of more SOL than the account holds would fail: wouldFail names the instruction and the node’s error, no balance changes', async () => {
    const payer = dev[7]!
    const wire = await wireOf(payer.address, [
      { programAddress: COMPUTE_BUDGET, data: new Uint8Array([2, 0x40, 0x0d, 0x03, 0x00]) },
      getTransferSolInstruction({ source: createNoopSigner(payer.address), destination: dev[8]!.address, amount: 10n ** 18n }),
    ])
    const result = await review(wire)
    expect(result.balanceChanges).toBeUndefined()
    expect(result.warnings).toEqual([{ kind: 'wouldFail', instructionIndex: 1, error: expect.stringContaining('InstructionError') }])
  })

  it('a program the review does not know: unknown with its accounts and data length (and the chain has no such program: it would fail)', async () => {
    const payer = dev[7]!
    const program = (await generateKeyPairSigner()).address
    const wire = await wireOf(payer.address, [{ programAddress: program, accounts: [{ address: payer.address, role: 3 }], data: new Uint8Array([1, 2, 3, 4]) }])
    const result = await review(wire)
    expect(result.instructions).toEqual([{ kind: 'unknown', programAddress: program, dataBytes: 4, accounts: [{ address: payer.address, isSigner: true, isWritable: true }] }])
    expect(result.warnings).toEqual([{ kind: 'wouldFail', error: expect.any(String) }])
  })

  it('a blockhash the node does not know: feeUnknown (it cannot land as it is), still simulated on a fresh blockhash', async () => {
    const payer = dev[8]!
    const wire = await wireOf(payer.address, [getTransferSolInstruction({ source: createNoopSigner(payer.address), destination: dev[9]!.address, amount: 5n })], { blockhash: '11111111111111111111111111111111' })
    const result = await review(wire)
    expect(result.fee).toBeUndefined()
    expect(result.warnings).toEqual([{ kind: 'feeUnknown', why: 'blockhashNotFound' }])
    expect(result.balanceChanges?.[0]).toMatchObject({ address: payer.address })
  })

  it('a node without simulateTransaction: notSimulated (unsupported, METHOD_NOT_FOUND), everything else as before', async () => {
    overrides = { simulateTransaction: () => ({ error: { code: -32601, message: 'Method not found' } }) }
    try {
      const { transaction } = await client.buildTransfer({ from: dev[9]!.address, to: dev[1]!.address, amount: 1n })
      const result = await review(transaction, { through: proxyClient })
      expect(result).toMatchObject({ fee: 5_000n, instructions: [{ instruction: 'transfer' }], warnings: [{ kind: 'notSimulated', why: 'unsupported', errorCode: 'METHOD_NOT_FOUND' }] })
      expect(result.balanceChanges).toBeUndefined()
      expect(result.computeUnitsConsumed).toBeUndefined()
    } finally {
      overrides = {}
    }
  })

  it('a failing node: notSimulated (failed) and feeUnknown (failed), with the codes; the decoding stands', async () => {
    overrides = {
      simulateTransaction: () => ({ error: { code: -32602, message: 'invalid params' } }),
      getFeeForMessage: () => ({ result: 'not a fee' }),
    }
    try {
      const { transaction } = await client.buildTransfer({ from: dev[9]!.address, to: dev[1]!.address, amount: 1n })
      const result = await review(transaction, { through: proxyClient })
      expect(result.warnings).toEqual([
        { kind: 'feeUnknown', why: 'failed', errorCode: 'RPC_REQUEST_FAILED' },
        { kind: 'notSimulated', why: 'failed', errorCode: 'INVALID_PARAMS' },
      ])
      expect(result.instructions[0]).toMatchObject({ instruction: 'transfer' })
    } finally {
      overrides = {}
    }
  })

  describe('v0 with an address lookup table', () => {
    /** A v0 transfer whose destination comes from `table` (the payer stays a static key: it signs). */
    async function withTable(payer: Address, table: Address, destination: Address) {
      const { value: latest } = await rpc.getLatestBlockhash().send()
      const message = pipe(
        createTransactionMessage({ version: 0 }),
        (draft) => setTransactionMessageFeePayer(payer, draft),
        (draft) => setTransactionMessageLifetimeUsingBlockhash(latest, draft),
        (draft) => appendTransactionMessageInstructions([getTransferSolInstruction({ source: createNoopSigner(payer), destination, amount: 9n })], draft),
        (draft) => compressTransactionMessageUsingAddressLookupTables(draft, { [table]: [destination] }),
      )
      return new Uint8Array(getTransactionEncoder().encode(compileTransaction(message)))
    }

    it('reads the table and decodes the instruction with the address it gives', async () => {
      const [table, destination] = [(await generateKeyPairSigner()).address, (await generateKeyPairSigner()).address]
      // The table as a node would give it: the 56-byte header (its type, 1, first), then its addresses.
      const tableData = new Uint8Array([1, ...new Uint8Array(55), ...getAddressEncoder().encode(destination)])
      overrides = {
        getMultipleAccounts: (request) => {
          const [addresses] = request.params as [string[]]
          if (addresses.length !== 1 || addresses[0] !== table) return { error: { code: -32000, message: 'unexpected' } }
          return { result: { context: { slot: 1 }, value: [{ lamports: 1, owner: LOOKUP_TABLE_PROGRAM, executable: false, rentEpoch: 0, space: tableData.length, data: [getBase64Decoder().decode(tableData), 'base64'] }] } }
        },
      }
      try {
        const result = await review(await withTable(dev[5]!.address, table, destination), { through: proxyClient })
        expect(result.instructions).toEqual([
          expect.objectContaining({ instruction: 'transfer', args: expect.arrayContaining([{ name: 'destination', value: { kind: 'address', address: destination } }]) }),
        ])
        expect(result.warnings).not.toContainEqual(expect.objectContaining({ kind: 'unresolvedLookupTables' }))
      } finally {
        overrides = {}
      }
    })

    it('a table that does not exist: unresolvedLookupTables, the instruction unknown with the table named', async () => {
      const [table, destination] = [(await generateKeyPairSigner()).address, (await generateKeyPairSigner()).address]
      const result = await review(await withTable(dev[5]!.address, table, destination))
      expect(result.instructions).toEqual([
        {
          kind: 'unknown',
          programAddress: SYSTEM_PROGRAM_ADDRESS,
          program: 'system',
          dataBytes: 12,
          accounts: [
            { address: dev[5]!.address, isSigner: true, isWritable: true },
            { isSigner: false, isWritable: true, lookupTable: table },
          ],
        },
      ])
      expect(result.warnings).toContainEqual({ kind: 'unresolvedLookupTables', tables: [table] })
    })
  })

  describe('hostile input: INVALID_PARAMS (field transaction), never a library’s error', () => {
    let valid: Uint8Array
    beforeAll(async () => {
      valid = (await client.buildTransfer({ from: dev[1]!.address, to: dev[2]!.address, amount: 1n })).transaction
    })
    const expectInvalid = async (transaction: unknown) => {
      const error = await review(transaction as Uint8Array).catch((caught: unknown) => caught)
      expect(error).toBeInstanceOf(WidgetError)
      expect(error).toMatchObject(INVALID_TRANSACTION)
    }

    it.each([
      ['no bytes', new Uint8Array()],
      ['one zero byte', new Uint8Array([0])],
      ['a signature count and nothing after', new Uint8Array([1])],
      ['an empty string', ''],
      ['text that is not base64', 'not base64!'],
      ['base64 of garbage', 'AAECAwQFBgcICQ=='],
      ['a number', 42],
      ['null', null],
      ['an array of numbers', [1, 2, 3]],
      ['more than 4,096 bytes', new Uint8Array(5_000).fill(1)],
    ])('%s', async (_, transaction) => expectInvalid(transaction))

    it('every truncation of a valid transaction, and one byte too many', async () => {
      for (let length = 0; length < valid.length; length += 1) await expectInvalid(valid.slice(0, length))
      await expectInvalid(new Uint8Array([...valid, 0]))
    })

    it('two signature slots for one required signer', async () => {
      const wrong = new Uint8Array([2, ...new Uint8Array(64), ...valid.slice(1)])
      await expectInvalid(wrong)
    })

    it('an instruction naming an account the message does not have', async () => {
      const wire = await wireOf(dev[1]!.address, [getTransferSolInstruction({ source: createNoopSigner(dev[1]!.address), destination: dev[2]!.address, amount: 1n })])
      // The instruction's last account index is the byte before its data's length (12) and the data itself.
      const tampered = wire.slice()
      tampered[wire.length - 14] = 200
      await expectInvalid(tampered)
    })

    it('500 random byte strings (a fixed seed), each a WidgetError', async () => {
      let seed = 36
      const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31)
      for (let index = 0; index < 500; index += 1) {
        const bytes = Uint8Array.from({ length: 1 + Math.floor(random() * 300) }, () => Math.floor(random() * 256))
        if (index % 2 === 0) bytes[0] = 1 // one signature slot, so the decoder gets further
        const error = await review(bytes).then(
          () => undefined,
          (caught: unknown) => caught,
        )
        if (error !== undefined) expect(error).toMatchObject({ code: expect.stringMatching(/^(INVALID_PARAMS)$/) })
      }
    })

    it('an account that is not a Solana address: INVALID_ADDRESS', async () => {
      await expect(review(valid, { account: '0xabc' })).rejects.toMatchObject({ code: 'INVALID_ADDRESS', field: 'account' })
    })
  })

  it('through the worker’s Solana API by CAIP-2 id and through core.solana’s call list: base64 in, a structured-cloneable review out', async () => {
    const { transaction } = await client.buildTransfer({ from: dev[1]!.address, to: dev[3]!.address, amount: 2n })
    const solana = createSolanaWorkerApi({ chains: [{ caipNetworkId, rpcUrl: chain.rpcUrl }] })
    try {
      const result = await solana.reviewTransaction({ caipNetworkId, transaction: getBase64Decoder().decode(transaction) })
      expect(structuredClone(result)).toEqual(result)
      expect(result).toMatchObject({ feePayer: dev[1]!.address, instructions: [{ instruction: 'transfer' }] })
      await expect(solana.reviewTransaction({ caipNetworkId: 'solana:unknown', transaction })).rejects.toMatchObject({ code: 'NETWORK_NOT_FOUND' })
    } finally {
      solana.destroy()
    }
    const api = createWorkerApi()
    api.configure({ chains: [], familyModules: { solana: new URL('./solanaFamily.ts', import.meta.url).href }, familyChains: { solana: [{ caipNetworkId, rpcUrls: [chain.rpcUrl] }] } })
    const viaCore = await api.familyCall({ namespace: 'solana', method: 'reviewTransaction', args: { caipNetworkId, transaction } })
    expect(viaCore).toMatchObject({ kind: 'solanaTransaction', feePayer: dev[1]!.address })
  })
})
