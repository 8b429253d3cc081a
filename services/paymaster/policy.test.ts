import { encodeFunctionData, hexToNumber, numberToHex, recoverTypedDataAddress, slice, type Address, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { tesseraAccountAbi } from '../../src/frame/smartAccount/toTesseraAccount'
import { createPaymasterApp, type CreatePaymasterAppParameters } from './app'
import { createDailyGasUsage } from './dailyGasUsage'
import { findSponsorshipRefusal, paymasterErrorCodes, sponsorshipError } from '../../src/shared/protocol/paymasterErrors'

// anvil's dev key 9: signatures only, no chain.
const signerKey: Hex = '0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6'
const signer = privateKeyToAccount(signerKey)
const ENTRY_POINT: Address = '0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108'
const PAYMASTER: Address = '0x1111111111111111111111111111111111111111'
const OTHER_PAYMASTER: Address = '0x2222222222222222222222222222222222222222'
const SENDER: Address = '0x3333333333333333333333333333333333333333'
const ALLOWED: Address = '0x4444444444444444444444444444444444444444'
const STRANGER: Address = '0x5555555555555555555555555555555555555555'
const ORIGIN = 'http://site.test'
const NOON = Date.UTC(2026, 0, 15, 12)

const execute = (to: Address) => encodeFunctionData({ abi: tesseraAccountAbi, functionName: 'execute', args: [to, 0n, '0x'] })
const batch = (...targets: Address[]) =>
  encodeFunctionData({ abi: tesseraAccountAbi, functionName: 'executeBatch', args: [targets.map((target) => ({ target, value: 0n, data: '0x' as Hex }))] })

/** A UserOperation as viem's paymaster client sends it: 100,000 + 200,000 + 50,000 gas, plus the paymaster's 60,000. */
const userOperation = (overrides: Record<string, unknown> = {}) => ({
  sender: SENDER,
  nonce: '0x0',
  factory: '0x6666666666666666666666666666666666666666',
  factoryData: '0x1234',
  callData: execute(ALLOWED),
  callGasLimit: numberToHex(100_000),
  verificationGasLimit: numberToHex(200_000),
  preVerificationGas: numberToHex(50_000),
  maxFeePerGas: numberToHex(2_000_000_000),
  maxPriorityFeePerGas: numberToHex(1_000_000_000),
  signature: '0x',
  ...overrides,
})
const OPERATION_GAS = 410_000n

const config = (overrides: Partial<CreatePaymasterAppParameters> = {}): CreatePaymasterAppParameters => ({
  signerKey,
  chains: [
    { chainId: 31337, rpcUrl: 'http://127.0.0.1:1', paymasterAddress: PAYMASTER, entryPointAddress: ENTRY_POINT, maxFeePerGasWei: '100000000000' },
    { chainId: 31338, rpcUrl: 'http://127.0.0.1:1', paymasterAddress: OTHER_PAYMASTER, entryPointAddress: ENTRY_POINT },
  ],
  projects: [
    { id: 'site', sponsorName: 'Site', allowedOrigins: [ORIGIN], chainIds: [31337, 1], dailyGasPerAccount: 1_000_000 },
    { id: 'strict', allowedOrigins: [], chainIds: [31337], dailyGasPerAccount: 10_000_000, allowedContracts: [ALLOWED] },
  ],
  now: () => NOON,
  readDeposit: async () => 10n ** 18n,
  log: () => {},
  ...overrides,
})

type RpcAnswer = { jsonrpc: '2.0'; id: unknown; result?: Record<string, unknown>; error?: { code: number; message: string; data?: unknown } }

/** Calls the app as viem's paymaster client does. */
function client(parameters: CreatePaymasterAppParameters = config()) {
  const app = createPaymasterApp(parameters)
  const call = async (method: string, { op = userOperation(), projectId = 'site', chainId = '0x7a69', entryPoint = ENTRY_POINT as string, origin }: { op?: unknown; projectId?: string; chainId?: string; entryPoint?: string; origin?: string } = {}) => {
    const response = await app.request('/', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(origin ? { origin } : {}) },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params: [op, entryPoint, chainId, { projectId }] }),
    })
    expect(response.status).toBe(200)
    return (await response.json()) as RpcAnswer
  }
  return { stub: (options?: Parameters<typeof call>[1]) => call('pm_getPaymasterStubData', options), data: (options?: Parameters<typeof call>[1]) => call('pm_getPaymasterData', options) }
}

const typedData = (paymaster: Address, paymasterData: Hex, op = userOperation()) => ({
  domain: { name: 'TesseraPaymaster', version: '1', chainId: 31337, verifyingContract: paymaster },
  types: {
    UserOperationRequest: [
      { name: 'sender', type: 'address' },
      { name: 'nonce', type: 'uint256' },
      { name: 'initCode', type: 'bytes' },
      { name: 'callData', type: 'bytes' },
      { name: 'accountGasLimits', type: 'bytes32' },
      { name: 'preVerificationGas', type: 'uint256' },
      { name: 'gasFees', type: 'bytes32' },
      { name: 'paymasterVerificationGasLimit', type: 'uint256' },
      { name: 'paymasterPostOpGasLimit', type: 'uint256' },
      { name: 'validAfter', type: 'uint48' },
      { name: 'validUntil', type: 'uint48' },
    ],
  },
  primaryType: 'UserOperationRequest' as const,
  message: {
    sender: op.sender,
    nonce: 0n,
    initCode: `${op.factory}${op.factoryData.slice(2)}` as Hex,
    callData: op.callData,
    // verificationGasLimit ‖ callGasLimit, maxPriorityFeePerGas ‖ maxFeePerGas, 16 bytes each.
    accountGasLimits: `0x${(200_000).toString(16).padStart(32, '0')}${(100_000).toString(16).padStart(32, '0')}` as Hex,
    preVerificationGas: 50_000n,
    gasFees: `0x${(1_000_000_000).toString(16).padStart(32, '0')}${(2_000_000_000).toString(16).padStart(32, '0')}` as Hex,
    paymasterVerificationGasLimit: 60_000n,
    paymasterPostOpGasLimit: 0n,
    validAfter: hexToNumber(slice(paymasterData, 0, 6)),
    validUntil: hexToNumber(slice(paymasterData, 6, 12)),
  },
})

describe('paymaster policy (ERC-7677 through createPaymasterApp)', () => {
  it('answers a stub for estimation (a 77-byte paymasterData, nothing reserved) and signs the real request over the fields TesseraPaymaster hashes', async () => {
    const usage = createDailyGasUsage({ maxAccounts: 10, now: () => NOON })
    const { stub, data } = client(config({ usage }))

    const { result: stubResult } = await stub()
    expect(stubResult).toEqual({
      paymaster: PAYMASTER,
      paymasterData: expect.stringMatching(/^0x[0-9a-f]{154}$/),
      paymasterVerificationGasLimit: '0xea60',
      paymasterPostOpGasLimit: '0x0',
      isFinal: false,
      sponsor: { name: 'Site' },
    })
    expect(usage.stats().trackedAccounts).toBe(0)

    const { result } = await data()
    expect(Object.keys(result!).sort()).toEqual(['paymaster', 'paymasterData', 'paymasterPostOpGasLimit', 'paymasterVerificationGasLimit'])
    const paymasterData = result!.paymasterData as Hex
    expect(hexToNumber(slice(paymasterData, 0, 6))).toBe(0)
    expect(hexToNumber(slice(paymasterData, 6, 12))).toBe(NOON / 1_000 + 600)
    expect(await recoverTypedDataAddress({ ...typedData(PAYMASTER, paymasterData), signature: slice(paymasterData, 12) })).toBe(signer.address)
    // Another field, another hash: the signature does not carry over.
    const changed = typedData(PAYMASTER, paymasterData)
    expect(await recoverTypedDataAddress({ ...changed, message: { ...changed.message, preVerificationGas: 50_001n }, signature: slice(paymasterData, 12) })).not.toBe(signer.address)
    expect(usage.stats().trackedAccounts).toBe(1)
  })

  it('refuses an unknown project, a page the project does not list, a chain outside the project or without a paymaster, and another EntryPoint', async () => {
    const { stub, data } = client()
    const codeOf = async (answer: Promise<RpcAnswer>) => {
      const { error } = await answer
      return [error?.code, error?.message]
    }
    expect(await codeOf(stub({ projectId: 'nobody' }))).toEqual([paymasterErrorCodes.unknownProject, 'Gas is not sponsored for this app.'])
    expect(await codeOf(data({ origin: 'http://evil.test' }))).toEqual([paymasterErrorCodes.originNotAllowed, 'Gas is not sponsored for this app on this site.'])
    expect((await data({ origin: ORIGIN })).result).toBeDefined()
    // 31338 has a paymaster but is not the project's; 1 is the project's but has no paymaster here.
    expect(await codeOf(stub({ chainId: '0x7a6a' }))).toEqual([paymasterErrorCodes.chainNotSponsored, 'Gas is not sponsored on this network for this app.'])
    expect(await codeOf(data({ chainId: '0x1' }))).toEqual([paymasterErrorCodes.chainNotSponsored, 'Gas is not sponsored on this network for this app.'])
    expect(await codeOf(stub({ entryPoint: '0x0000000071727De22E5E9d8BAf0edAc6f37da032' }))).toEqual([
      paymasterErrorCodes.entryPointNotSupported,
      'Gas is not sponsored for this kind of account on this network.',
    ])
  })

  it('with allowedContracts, sponsors calls to them only, reads execute and executeBatch, and refuses calldata it cannot read', async () => {
    const { stub, data } = client()
    const strict = { projectId: 'strict' }
    expect((await data({ ...strict, op: userOperation({ callData: execute(ALLOWED) }) })).result).toBeDefined()
    expect((await data({ ...strict, op: userOperation({ callData: batch(ALLOWED, ALLOWED.toLowerCase() as Address) }) })).result).toBeDefined()
    expect((await data({ ...strict, op: userOperation({ callData: '0x' }) })).result).toBeDefined()

    const outside = await stub({ ...strict, op: userOperation({ callData: batch(ALLOWED, STRANGER) }) })
    expect(outside.error).toEqual({ code: paymasterErrorCodes.contractNotSponsored, message: `Gas is not sponsored for calls to ${STRANGER}.`, data: { reason: 'contractNotSponsored', contract: STRANGER } })
    for (const callData of ['0xdeadbeef', slice(execute(ALLOWED), 0, 40), encodeFunctionData({ abi: tesseraAccountAbi, functionName: 'isValidSignature', args: [`0x${'00'.repeat(32)}`, '0x'] })]) {
      expect((await data({ ...strict, op: userOperation({ callData }) })).error?.code).toBe(paymasterErrorCodes.callsNotReadable)
    }
    // Without an allowlist, any calldata is sponsored.
    expect((await data({ op: userOperation({ callData: '0xdeadbeef' }) })).result).toBeDefined()
  })

  it("counts each account's gas limits per UTC day when it signs, refuses past dailyGasPerAccount with the sentence, and starts again the next day", async () => {
    let now = NOON
    const usage = createDailyGasUsage({ maxAccounts: 10, now: () => now })
    const { stub, data } = client(config({ usage, now: () => now }))

    // 410,000 twice fits 1,000,000; a third would make 1,230,000.
    expect((await data()).result).toBeDefined()
    expect((await data()).result).toBeDefined()
    const refused = await data()
    expect(refused.error).toEqual({
      code: paymasterErrorCodes.dailyGasExhausted,
      message: 'Gas is not sponsored: this account has used its sponsored gas for today (1,230,000 of 1,000,000 gas). It can pay the fee itself.',
      data: { reason: 'dailyGasExhausted', usedGas: '1230000', dailyGas: '1000000' },
    })
    // A smaller one still fits (180,000 left), and then the stub itself says none is left.
    expect((await data({ op: userOperation({ callGasLimit: '0x0', verificationGasLimit: '0x0', preVerificationGas: numberToHex(120_000) }) })).result).toBeDefined()
    expect((await stub()).error?.message).toBe('Gas is not sponsored: this account has used its sponsored gas for today (1,000,000 of 1,000,000 gas). It can pay the fee itself.')
    // Another account has its own allowance.
    expect((await data({ op: userOperation({ sender: STRANGER }) })).result).toBeDefined()

    now = Date.UTC(2026, 0, 16, 0, 0, 1)
    expect((await stub()).result).toBeDefined()
    expect((await data()).result).toBeDefined()
    expect(usage.stats()).toEqual({ day: '2026-01-16', trackedAccounts: 1, maxAccounts: 10, isFull: false })
  })

  it('refuses an operation over the allowance on its own, and concurrent requests never both take the last of it', async () => {
    const { data } = client()
    expect((await data({ op: userOperation({ callGasLimit: numberToHex(2_000_000) }) })).error?.message).toBe(
      'Gas is not sponsored: this account has used its sponsored gas for today (2,310,000 of 1,000,000 gas). It can pay the fee itself.',
    )
    const answers = await Promise.all(Array.from({ length: 5 }, () => data()))
    expect(answers.filter((answer) => answer.result).length).toBe(2)
    expect(answers.filter((answer) => answer.error?.code === paymasterErrorCodes.dailyGasExhausted).length).toBe(3)
  })

  it('past limits.trackedAccounts refuses new accounts (never forgets one) and logs it once', async () => {
    const lines: string[] = []
    const { data } = client(config({ limits: { trackedAccounts: 2 }, log: (line) => lines.push(line) }))
    const sender = (n: number) => `0x${n.toString(16).padStart(40, '0')}`
    expect((await data({ op: userOperation({ sender: sender(1) }) })).result).toBeDefined()
    expect((await data({ op: userOperation({ sender: sender(2) }) })).result).toBeDefined()
    for (const n of [3, 4]) {
      expect((await data({ op: userOperation({ sender: sender(n) }) })).error).toEqual({
        code: paymasterErrorCodes.sponsorAtCapacity,
        message: 'Gas is not sponsored right now: the sponsor is serving as many accounts today as it can.',
        data: { reason: 'sponsorAtCapacity' },
      })
    }
    expect((await data({ op: userOperation({ sender: sender(1) }) })).result).toBeDefined()
    expect(lines).toEqual(['paymaster: 2 accounts are counted for 2026-01-15, the limit (limits.trackedAccounts): new accounts are refused until 00:00 UTC'])
  })

  it("refuses a fee over the chain's cap and an operation its deposit cannot pay; a deposit it cannot read fails open, logged without the RPC URL", async () => {
    const lines: string[] = []
    let deposit: bigint | Error = 10n ** 18n
    let reads = 0
    const { stub, data } = client(
      config({
        log: (line) => lines.push(line),
        limits: { depositCacheMs: 0 },
        readDeposit: async () => {
          reads++
          if (deposit instanceof Error) throw deposit
          return deposit
        },
      }),
    )
    expect((await stub({ op: userOperation({ maxFeePerGas: numberToHex(100_000_000_001n) }) })).error).toEqual({
      code: paymasterErrorCodes.feeTooHigh,
      message: 'Gas is not sponsored at this fee: this app pays up to 100 gwei per gas on this network.',
      data: { reason: 'feeTooHigh', maxFeePerGasWei: '100000000000' },
    })
    // 410,000 gas at 2 gwei: 820,000 gwei.
    deposit = OPERATION_GAS * 2_000_000_000n - 1n
    expect((await data()).error?.code).toBe(paymasterErrorCodes.depositTooLow)
    deposit = OPERATION_GAS * 2_000_000_000n
    expect((await data()).result).toBeDefined()
    deposit = Object.assign(new Error('HTTP request failed. URL: http://key-123@127.0.0.1:1'), { shortMessage: 'HTTP request failed.' })
    expect((await data({ op: userOperation({ sender: STRANGER }) })).result).toBeDefined()
    expect(lines).toEqual(['paymaster: reading the deposit on chain 31337 failed: HTTP request failed.'])
    expect(reads).toBe(3)
    // The stub reads no deposit.
    await stub()
    expect(reads).toBe(3)
  })

  it('needs the fees in pm_getPaymasterData (they are signed) but not in a stub', async () => {
    const { stub, data } = client()
    const { maxFeePerGas: _fee, maxPriorityFeePerGas: _priority, ...feeless } = userOperation()
    expect((await stub({ op: feeless })).result).toBeDefined()
    expect((await data({ op: feeless })).error).toEqual({ code: -32602, message: 'params[0].maxFeePerGas is required by pm_getPaymasterData (the signature covers the fees).' })
  })
})

describe('refusal sentences', () => {
  it('builds each from its data, and finds a refusal inside the errors a client wraps it in', () => {
    expect(sponsorshipError({ reason: 'dailyGasExhausted', usedGas: '1200000', dailyGas: '1000000' }).message).toBe(
      'Gas is not sponsored: this account has used its sponsored gas for today (1,200,000 of 1,000,000 gas). It can pay the fee itself.',
    )
    expect(sponsorshipError({ reason: 'feeTooHigh', maxFeePerGasWei: '1500000000' }).message).toBe('Gas is not sponsored at this fee: this app pays up to 1.5 gwei per gas on this network.')
    expect(sponsorshipError({ reason: 'feeTooHigh', maxFeePerGasWei: '7' }).message).toBe('Gas is not sponsored at this fee: this app pays up to 0.000000007 gwei per gas on this network.')
    const codes = Object.values(paymasterErrorCodes)
    expect(new Set(codes).size).toBe(codes.length)

    const raw = sponsorshipError({ reason: 'chainNotSponsored' })
    // As viem throws it: UserOperationExecutionError → RpcRequestError (details: the message) → the JSON-RPC error.
    const wrapped = { name: 'UserOperationExecutionError', cause: { name: 'RpcRequestError', code: raw.code, details: raw.message, message: 'RPC Request failed.', cause: raw } }
    expect(findSponsorshipRefusal(wrapped)).toEqual({ code: paymasterErrorCodes.chainNotSponsored, message: 'Gas is not sponsored on this network for this app.' })
    expect(findSponsorshipRefusal(new Error('other'))).toBeUndefined()
    const cycle: { cause?: unknown } = {}
    cycle.cause = cycle
    expect(findSponsorshipRefusal(cycle)).toBeUndefined()
  })
})
