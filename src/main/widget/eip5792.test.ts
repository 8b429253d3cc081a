import { describe, expect, it } from 'vitest'
import { createWidgetError, fromRpcError } from '../../shared/protocol/errors'
import { ProviderRpcError } from './createEip1193Provider'
import { MAX_CALLS } from '../../shared/protocol/rpcMethods'
import { createEip5792, isMethodUnsupportedError, MAX_BUNDLES, MAX_CALL_DATA_BYTES, type CreateEip5792Parameters } from './eip5792'

const account = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const to = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const hashOf = (n: number) => `0x${n.toString(16).padStart(64, '0')}`
const walletError = (code: number, message: string) => Object.assign(new Error(message), { code })
const methodNotFound = () => walletError(-32601, 'Method not found')

type Receipt = { status: string; transactionHash: string; blockHash: string; blockNumber: string; gasUsed: string; logs: { address: string; data: string; topics: string[]; logIndex: string }[] }
const receiptOf = (hash: string, status = '0x1'): Receipt => ({
  status,
  transactionHash: hash,
  blockHash: `0x${'b'.repeat(64)}`,
  blockNumber: '0x5',
  gasUsed: '0x5208',
  logs: [{ address: to, data: '0x', topics: [`0x${'e'.repeat(64)}`], logIndex: '0x0' }],
})
const callReceiptOf = (hash: string, status = '0x1') => {
  const { logs, blockHash, blockNumber, gasUsed, transactionHash } = receiptOf(hash, status)
  return { logs: logs.map(({ address, data, topics }) => ({ address, data, topics })), status, blockHash, blockNumber, gasUsed, transactionHash }
}

/**
 * A fake wallet and chain: eth_sendTransaction answers a new hash whose receipt the chain then has (mined at once, or
 * as `mine` says); the EIP-5792 methods are 'Method not found' unless `eip5792` answers them.
 */
function setup({ eip5792, mine = () => '0x1', decline = new Set<number>(), ...options }: Partial<CreateEip5792Parameters> & { eip5792?: (method: string, params: unknown) => unknown; mine?: (callIndex: number) => string | null; decline?: Set<number> } = {}) {
  const state = { account: account as string | undefined, chainId: 31337 }
  const asked: { method: string; params: unknown }[] = []
  const receipts = new Map<string, Receipt>()
  const reads: { chainId: number; method: string; params: readonly unknown[] }[] = []
  let sent = 0
  const walletRequest = async (method: string, params?: unknown) => {
    asked.push({ method, params })
    if (method === 'eth_sendTransaction') {
      const index = sent++
      if (decline.has(index)) throw walletError(4001, 'User rejected the request.')
      const hash = hashOf(index + 1)
      const status = mine(index)
      if (status !== null) receipts.set(hash, receiptOf(hash, status))
      return hash
    }
    if (eip5792) return eip5792(method, params)
    throw methodNotFound()
  }
  const read = async (chainId: number, method: string, params: readonly unknown[]) => {
    reads.push({ chainId, method, params })
    return receipts.get(params[0] as string) ?? null
  }
  const provider = createEip5792({
    walletRequest,
    read,
    chainIds: () => [31337, 31338],
    chainId: () => state.chainId,
    account: () => state.account,
    walletId: () => (state.account ? 'dev.tessera.wallet:Tessera Dev Wallet' : undefined),
    receiptPollingIntervalMs: 1,
    ...options,
  })
  const transactionsSent = () => asked.filter((a) => a.method === 'eth_sendTransaction').map((a) => (a.params as unknown[])[0])
  return { provider, state, asked, reads, receipts, transactionsSent }
}

const sendCallsParams = (calls: unknown[], extra: Record<string, unknown> = {}) => [{ version: '2.0.0', chainId: '0x7a69', from: account, atomicRequired: false, calls, ...extra }]
const twoCalls = [{ to, value: '0x1' }, { to, data: '0xa9059cbb' }]

describe('EIP-5792 for a wallet without it: the calls one after the other', () => {
  it('sends one eth_sendTransaction per call; wallet_getCallsStatus reports atomic: false, 200, and a receipt per call', async () => {
    const { provider, asked, reads } = setup()
    const { id } = (await provider.request('wallet_sendCalls', sendCallsParams(twoCalls))) as { id: string }
    expect(id).toMatch(/^0x[0-9a-f]{64}$/)
    expect(asked.map((a) => a.method)).toEqual(['wallet_sendCalls', 'eth_sendTransaction', 'eth_sendTransaction'])
    expect(asked.slice(1).map((a) => a.params)).toEqual([[{ from: account, to, chainId: '0x7a69', value: '0x1' }], [{ from: account, to, chainId: '0x7a69', data: '0xa9059cbb' }]])

    expect(await provider.request('wallet_getCallsStatus', [id])).toEqual({ version: '2.0.0', id, chainId: '0x7a69', atomic: false, status: 200, receipts: [callReceiptOf(hashOf(1)), callReceiptOf(hashOf(2))] })
    expect(reads.at(-1)).toEqual({ chainId: 31337, method: 'eth_getTransactionReceipt', params: [hashOf(2)] })
    // The status is read from the chain, never asked of the wallet.
    expect(asked.filter((a) => a.method !== 'wallet_sendCalls' && a.method !== 'eth_sendTransaction')).toEqual([])
  })

  it('sends a call once the one before is included (it may depend on it)', async () => {
    const { provider, asked, receipts } = setup({ mine: () => null })
    const sending = provider.request('wallet_sendCalls', sendCallsParams(twoCalls))
    await expect.poll(() => asked.length).toBe(2)
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(asked.length).toBe(2)
    receipts.set(hashOf(1), receiptOf(hashOf(1)))
    const { id } = (await sending) as { id: string }
    expect(asked.map((a) => a.method)).toEqual(['wallet_sendCalls', 'eth_sendTransaction', 'eth_sendTransaction'])
    expect(await provider.request('wallet_getCallsStatus', [id])).toMatchObject({ status: 100, receipts: [callReceiptOf(hashOf(1))] })
    receipts.set(hashOf(2), receiptOf(hashOf(2)))
    expect(await provider.request('wallet_getCallsStatus', [id])).toMatchObject({ status: 200, receipts: [{ transactionHash: hashOf(1) }, { transactionHash: hashOf(2) }] })
  })

  it('remembers the wallet has no EIP-5792: the next bundle and wallet_getCapabilities do not ask it again', async () => {
    const { provider, asked } = setup()
    await provider.request('wallet_sendCalls', sendCallsParams([{ to }]))
    await provider.request('wallet_sendCalls', sendCallsParams([{ to }]))
    expect(await provider.request('wallet_getCapabilities', [account])).toEqual({ '0x7a69': { atomic: { status: 'unsupported' } }, '0x7a6a': { atomic: { status: 'unsupported' } } })
    expect(await provider.request('wallet_getCapabilities', [account, ['0x7a6a', '0x1']])).toEqual({ '0x7a6a': { atomic: { status: 'unsupported' } } })
    expect(asked.map((a) => a.method)).toEqual(['wallet_sendCalls', 'eth_sendTransaction', 'eth_sendTransaction'])
  })

  it('wallet_getCapabilities asks the wallet first, and answers atomic: unsupported when it has no such method', async () => {
    const { provider, asked } = setup()
    expect(await provider.request('wallet_getCapabilities', [account, ['0x7a69']])).toEqual({ '0x7a69': { atomic: { status: 'unsupported' } } })
    expect(asked).toEqual([{ method: 'wallet_getCapabilities', params: [account, ['0x7a69']] }])
  })

  it('atomicRequired: true is refused with 5760, and nothing is sent', async () => {
    const { provider, transactionsSent } = setup()
    await expect(provider.request('wallet_sendCalls', sendCallsParams(twoCalls, { atomicRequired: true }))).rejects.toMatchObject({
      code: 5760,
      message: 'wallet_sendCalls: this wallet cannot run calls atomically (atomicRequired: true); with atomicRequired: false the calls are sent one after the other.',
    })
    expect(transactionsSent()).toEqual([])
  })

  it('a capability not marked optional is refused with 5700; an optional one is let go', async () => {
    const { provider, transactionsSent } = setup()
    await expect(provider.request('wallet_sendCalls', sendCallsParams([{ to }], { capabilities: { paymasterService: { url: 'https://pm.example' } } }))).rejects.toMatchObject({
      code: 5700,
      message: 'wallet_sendCalls: this wallet does not support the capability "paymasterService"; mark it optional to send the calls without it.',
    })
    await expect(provider.request('wallet_sendCalls', sendCallsParams([{ to, capabilities: { auxiliaryFunds: {} } }]))).rejects.toMatchObject({ code: 5700 })
    expect(transactionsSent()).toEqual([])
    await expect(provider.request('wallet_sendCalls', sendCallsParams([{ to }], { capabilities: { dataSuffix: { value: '0xdd', optional: true } } }))).resolves.toMatchObject({ id: expect.any(String) })
  })

  it("declining the first call fails the request (4001) and keeps no bundle; declining a later one keeps those sent (600)", async () => {
    const first = setup({ decline: new Set([0]) })
    await expect(first.provider.request('wallet_sendCalls', sendCallsParams(twoCalls))).rejects.toMatchObject({ code: 4001 })
    expect(first.transactionsSent()).toHaveLength(1)

    const later = setup({ decline: new Set([1]) })
    const { id } = (await later.provider.request('wallet_sendCalls', sendCallsParams([...twoCalls, { to }]))) as { id: string }
    expect(later.transactionsSent()).toHaveLength(2)
    expect(await later.provider.request('wallet_getCallsStatus', [id])).toMatchObject({ atomic: false, status: 600, receipts: [{ transactionHash: hashOf(1), status: '0x1' }] })
  })

  it('a reverted call stops the bundle: 500 when nothing succeeded, 600 when some did', async () => {
    const firstReverts = setup({ mine: (index) => (index === 0 ? '0x0' : '0x1') })
    const { id } = (await firstReverts.provider.request('wallet_sendCalls', sendCallsParams(twoCalls))) as { id: string }
    expect(firstReverts.transactionsSent()).toHaveLength(1)
    expect(await firstReverts.provider.request('wallet_getCallsStatus', [id])).toMatchObject({ status: 500, receipts: [{ status: '0x0' }] })

    const secondReverts = setup({ mine: (index) => (index === 1 ? '0x0' : '0x1') })
    const second = (await secondReverts.provider.request('wallet_sendCalls', sendCallsParams([...twoCalls, { to }]))) as { id: string }
    expect(secondReverts.transactionsSent()).toHaveLength(2)
    expect(await secondReverts.provider.request('wallet_getCallsStatus', [second.id])).toMatchObject({ status: 600, receipts: [{ status: '0x1' }, { status: '0x0' }] })
  })

  it('stops when the wallet changes chain between calls, or the previous receipt does not come in time', async () => {
    const switched = setup({ mine: () => null })
    const sending = switched.provider.request('wallet_sendCalls', sendCallsParams(twoCalls))
    await expect.poll(() => switched.transactionsSent().length).toBe(1)
    switched.state.chainId = 31338
    switched.receipts.set(hashOf(1), receiptOf(hashOf(1)))
    const { id } = (await sending) as { id: string }
    expect(switched.transactionsSent()).toHaveLength(1)
    expect(await switched.provider.request('wallet_getCallsStatus', [id])).toMatchObject({ chainId: '0x7a69', status: 600 })

    const slow = setup({ mine: () => null, receiptTimeoutMs: 30 })
    const late = (await slow.provider.request('wallet_sendCalls', sendCallsParams(twoCalls))) as { id: string }
    expect(slow.transactionsSent()).toHaveLength(1)
    expect(await slow.provider.request('wallet_getCallsStatus', [late.id])).toMatchObject({ status: 100, receipts: [] })
  })

  it('stop() ends the wait of a bundle being sent (the provider is destroyed): its other calls are not sent', async () => {
    const { provider, transactionsSent } = setup({ mine: () => null })
    const sending = provider.request('wallet_sendCalls', sendCallsParams(twoCalls, { id: 'order-7' }))
    await expect.poll(() => transactionsSent().length).toBe(1)
    await expect(provider.request('wallet_sendCalls', sendCallsParams([{ to }], { id: 'order-7' }))).rejects.toMatchObject({ code: 5720 })
    provider.stop()
    expect(await sending).toEqual({ id: 'order-7' })
    expect(transactionsSent()).toHaveLength(1)
    expect(await provider.request('wallet_getCallsStatus', ['order-7'])).toMatchObject({ status: 100, receipts: [] })
  })

  it("uses the app's id when it gives one; the same id again is 5720", async () => {
    const { provider } = setup()
    expect(await provider.request('wallet_sendCalls', sendCallsParams([{ to }], { id: 'order-42' }))).toEqual({ id: 'order-42' })
    expect(await provider.request('wallet_getCallsStatus', ['order-42'])).toMatchObject({ id: 'order-42', status: 200 })
    await expect(provider.request('wallet_sendCalls', sendCallsParams([{ to }], { id: 'order-42' }))).rejects.toMatchObject({ code: 5720, message: 'wallet_sendCalls: a bundle with the id order-42 was sent already.' })
  })

  it('an unknown id is 5730 (after asking the wallet, which has no such method)', async () => {
    const { provider, asked } = setup()
    const unknown = provider.request('wallet_getCallsStatus', [hashOf(99)])
    await expect(unknown).rejects.toBeInstanceOf(ProviderRpcError)
    await expect(unknown).rejects.toMatchObject({ code: 5730, message: `wallet_getCallsStatus: the bundle id ${hashOf(99)} is unknown: no bundle was sent with it, or it is older than the last ${MAX_BUNDLES}.` })
    expect(asked).toEqual([{ method: 'wallet_getCallsStatus', params: [hashOf(99)] }])
  })

  it(`remembers the last ${MAX_BUNDLES} bundles: the oldest goes (5730)`, async () => {
    const { provider } = setup()
    const ids: string[] = []
    for (let i = 0; i <= MAX_BUNDLES; i++) ids.push(((await provider.request('wallet_sendCalls', sendCallsParams([{ to }]))) as { id: string }).id)
    expect(new Set(ids).size).toBe(MAX_BUNDLES + 1)
    await expect(provider.request('wallet_getCallsStatus', [ids[0]])).rejects.toMatchObject({ code: 5730 })
    expect(await provider.request('wallet_getCallsStatus', [ids[1]])).toMatchObject({ status: 200 })
    expect(await provider.request('wallet_getCallsStatus', [ids.at(-1)])).toMatchObject({ status: 200 })
  })
})

describe('EIP-5792 for a wallet that has it, and the embedded wallet', () => {
  it('a wallet with EIP-5792 gets the three requests unchanged, and answers them', async () => {
    const answers: Record<string, unknown> = {
      wallet_sendCalls: { id: '0xwallet' },
      wallet_getCallsStatus: { version: '2.0.0', id: '0xwallet', chainId: '0x7a69', atomic: true, status: 200, receipts: [] },
      wallet_getCapabilities: { '0x7a69': { atomic: { status: 'supported' } } },
    }
    const { provider, asked } = setup({ eip5792: (method) => answers[method] })
    const params = sendCallsParams(twoCalls, { atomicRequired: true, capabilities: { paymasterService: { url: 'https://pm.example' } } })
    expect(await provider.request('wallet_sendCalls', params)).toBe(answers.wallet_sendCalls)
    expect(await provider.request('wallet_getCallsStatus', ['0xwallet'])).toBe(answers.wallet_getCallsStatus)
    expect(await provider.request('wallet_getCapabilities', [account])).toBe(answers.wallet_getCapabilities)
    expect(asked).toEqual([
      { method: 'wallet_sendCalls', params },
      { method: 'wallet_getCallsStatus', params: ['0xwallet'] },
      { method: 'wallet_getCapabilities', params: [account] },
    ])
    expect(asked[0]!.params).toBe(params)
  })

  it("a wallet's other errors stay its own (a refusal is not a missing method)", async () => {
    const { provider, transactionsSent } = setup({
      eip5792: () => {
        throw walletError(4001, 'User rejected the request: method not supported by this dapp')
      },
    })
    await expect(provider.request('wallet_sendCalls', sendCallsParams(twoCalls))).rejects.toMatchObject({ code: 4001 })
    expect(transactionsSent()).toEqual([])
  })

  it('the embedded wallet gets the requests as they are, whatever it answers', async () => {
    const { provider, asked, transactionsSent } = setup({ isEmbeddedWallet: () => true })
    await expect(provider.request('wallet_sendCalls', sendCallsParams(twoCalls))).rejects.toMatchObject({ code: -32601 })
    await expect(provider.request('wallet_getCapabilities', [account])).rejects.toMatchObject({ code: -32601 })
    expect(transactionsSent()).toEqual([])
    expect(asked.map((a) => a.method)).toEqual(['wallet_sendCalls', 'wallet_getCapabilities'])
  })
})

describe('wallet_sendCalls params, checked before any wallet is asked (-32602)', () => {
  const tooMuchData = `0x${'00'.repeat(MAX_CALL_DATA_BYTES + 1)}`
  const refused: [string, unknown, string][] = [
    ['no params', undefined, 'wallet_sendCalls takes one object: [{ chainId, calls, from?, version?, atomicRequired?, capabilities? }].'],
    ['two objects', [...sendCallsParams([{ to }]), {}], 'wallet_sendCalls takes one object: [{ chainId, calls, from?, version?, atomicRequired?, capabilities? }].'],
    ['a version that is no string', sendCallsParams([{ to }], { version: 2 }), 'wallet_sendCalls: version must be a string, such as "2.0.0".'],
    ['an empty id', sendCallsParams([{ to }], { id: '' }), 'wallet_sendCalls: id must be a string of 1 to 4096 characters.'],
    ['a from that is no address', sendCallsParams([{ to }], { from: 'alice.eth' }), 'wallet_sendCalls: from must be an address starting 0x (40 hex digits).'],
    ['no chainId', sendCallsParams([{ to }], { chainId: undefined }), 'wallet_sendCalls: chainId must be a hex chain id, such as 0x1.'],
    ['a decimal chainId', sendCallsParams([{ to }], { chainId: '31337' }), 'wallet_sendCalls: chainId must be a hex chain id, such as 0x1.'],
    ['atomicRequired as text', sendCallsParams([{ to }], { atomicRequired: 'yes' }), 'wallet_sendCalls: atomicRequired must be true or false.'],
    ['capabilities as a list', sendCallsParams([{ to }], { capabilities: [] }), 'wallet_sendCalls: capabilities must be an object of capability objects.'],
    ['no calls', sendCallsParams([]), `wallet_sendCalls: calls must be a list of 1 to ${MAX_CALLS} calls.`],
    ['calls as an object', sendCallsParams([], { calls: { to } }), `wallet_sendCalls: calls must be a list of 1 to ${MAX_CALLS} calls.`],
    ['too many calls', sendCallsParams(Array.from({ length: MAX_CALLS + 1 }, () => ({ to }))), `wallet_sendCalls: at most ${MAX_CALLS} calls are accepted; this request has ${MAX_CALLS + 1}.`],
    ['a call that is no object', sendCallsParams([{ to }, 'transfer']), 'wallet_sendCalls: calls[1] must be an object { to, value?, data? }.'],
    ['a call without to', sendCallsParams([{ to }, { value: '0x1' }]), 'wallet_sendCalls: calls[1].to must be an address starting 0x (40 hex digits).'],
    ['a to without 0x', sendCallsParams([{ to: to.slice(2) }]), 'wallet_sendCalls: calls[0].to must be an address starting 0x (40 hex digits).'],
    ['a short to', sendCallsParams([{ to: to.slice(0, 40) }]), 'wallet_sendCalls: calls[0].to must be an address starting 0x (40 hex digits).'],
    ['a decimal value', sendCallsParams([{ to, value: '100' }]), 'wallet_sendCalls: calls[0].value must be a hex quantity starting 0x, such as 0x2386f26fc10000.'],
    ['a number value', sendCallsParams([{ to, value: 100 }]), 'wallet_sendCalls: calls[0].value must be a hex quantity starting 0x, such as 0x2386f26fc10000.'],
    ['an empty value', sendCallsParams([{ to, value: '0x' }]), 'wallet_sendCalls: calls[0].value must be a hex quantity starting 0x, such as 0x2386f26fc10000.'],
    ['data without 0x', sendCallsParams([{ to, data: 'a9059cbb' }]), 'wallet_sendCalls: calls[0].data must be hex bytes starting 0x.'],
    ['data with an odd digit', sendCallsParams([{ to, data: '0xa9059cbb0' }]), 'wallet_sendCalls: calls[0].data must be hex bytes starting 0x.'],
    ['data that is not hex', sendCallsParams([{ to, data: '0xzz' }]), 'wallet_sendCalls: calls[0].data must be hex bytes starting 0x.'],
    ['too much data', sendCallsParams([{ to, data: tooMuchData }]), `wallet_sendCalls: calls[0].data is longer than the ${MAX_CALL_DATA_BYTES} bytes a call may carry.`],
    ["a call's capabilities as text", sendCallsParams([{ to, capabilities: 'paymaster' }]), 'wallet_sendCalls: calls[0].capabilities must be an object of capability objects.'],
    ['another account', sendCallsParams([{ to }], { from: to }), `wallet_sendCalls: from ${to} is not the connected account (${account}).`],
    ['another chain', sendCallsParams([{ to }], { chainId: '0x1' }), 'wallet_sendCalls: chainId 0x1 is not the chain the wallet is on (0x7a69); switch to it first.'],
  ]
  it.each(refused)('%s', async (_, params, message) => {
    const { provider, asked } = setup()
    const refusal = provider.request('wallet_sendCalls', params)
    await expect(refusal).rejects.toBeInstanceOf(ProviderRpcError)
    await expect(refusal).rejects.toMatchObject({ code: -32602, message })
    expect(asked).toEqual([])
  })

  it(`accepts ${MAX_CALLS} calls with value and data as viem sends them (absent fields undefined)`, async () => {
    const { provider, transactionsSent } = setup()
    const calls = Array.from({ length: MAX_CALLS }, (_, i) => ({ to, value: i === 0 ? undefined : `0x${i.toString(16)}`, data: i === 1 ? `0x${'ab'.repeat(MAX_CALL_DATA_BYTES)}` : undefined }))
    await provider.request('wallet_sendCalls', sendCallsParams(calls, { id: undefined, capabilities: undefined, from: account.toLowerCase() }))
    expect(transactionsSent()).toHaveLength(MAX_CALLS)
    expect(transactionsSent()[0]).toEqual({ from: account, to, chainId: '0x7a69' })
  })

  it('without a connected account, a well-formed request is 4100', async () => {
    const { provider, state, asked } = setup()
    state.account = undefined
    await expect(provider.request('wallet_sendCalls', sendCallsParams([{ to }]))).rejects.toMatchObject({ code: 4100 })
    expect(asked).toEqual([])
  })

  it('wallet_getCallsStatus takes [id] and wallet_getCapabilities [address, chainIds?]', async () => {
    const { provider, asked } = setup()
    for (const params of [undefined, [], [42], ['']]) {
      await expect(provider.request('wallet_getCallsStatus', params)).rejects.toMatchObject({ code: -32602, message: 'wallet_getCallsStatus takes [id]: the id wallet_sendCalls answered.' })
    }
    for (const params of [['alice.eth'], [account, '0x7a69'], [account, [31337]]]) {
      await expect(provider.request('wallet_getCapabilities', params)).rejects.toMatchObject({ code: -32602, message: 'wallet_getCapabilities takes [address, chainIds?]: an address starting 0x, then a list of hex chain ids.' })
    }
    expect(asked).toEqual([])
  })
})

describe('isMethodUnsupportedError: by the code, by the text only when the code says nothing', () => {
  const cases: [string, unknown, boolean][] = [
    ['4200', walletError(4200, 'Unsupported method'), true],
    ['-32601', methodNotFound(), true],
    ['-32004', walletError(-32004, 'Method is not implemented.'), true],
    ["the widget's error for -32601", fromRpcError({ code: -32601, message: 'Method not found' }), true],
    ["the widget's error for a code it does not know, with the wallet's text", fromRpcError({ code: 5000, message: 'wallet_sendCalls is not supported' }), true],
    ['-32603 saying the method does not exist', walletError(-32603, 'The method "wallet_sendCalls" does not exist / is not available.'), true],
    ["WalletConnect's missing method", Object.assign(new Error('Missing or invalid. request() method: wallet_sendCalls'), { code: 5201 }), true],
    ['4001, whatever its text', walletError(4001, 'method not supported'), false],
    ['5760', walletError(5760, 'Atomicity not supported'), false],
    ['-32602', walletError(-32602, 'Invalid params: unknown method field'), false],
    ['-32603 with another text', walletError(-32603, 'Internal error: chain not supported'), false],
    ['a refusal by the widget', createWidgetError('USER_REJECTED'), false],
    ['no error object', 'Method not found', false],
  ]
  it.each(cases)('%s', (_, error, expected) => expect(isMethodUnsupportedError(error)).toBe(expected))
})
