import { describe, expect, it, vi } from 'vitest'
import type { PsbtReview, TransactionReview, TypedDataReview } from '../../shared/protocol/review'
import { createWidgetError } from '../../shared/protocol/errors'
import { createModal } from '../state/createModal'
import { createRouter } from '../state/createRouter'
import { stringToHex } from 'viem'
import { createRequestReview, MAX_WAITING_REVIEWS, type CreateRequestReviewParameters } from './createRequestReview'
import { MAX_MESSAGE_CHARS, MAX_TYPED_DATA_CHARS } from './readReviewedRequest'

const from = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const token = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const spender = '0x7a250d5630B4cF539739dF2C5dAcb4c659F2488D'
const approveUnlimited = `0x095ea7b3${spender.slice(2).toLowerCase().padStart(64, '0')}${'f'.repeat(64)}`
const transaction = { from, to: token, data: approveUnlimited }

const transactionReview: TransactionReview = {
  kind: 'transaction',
  network: 'eip155:31337',
  from,
  nativeCurrency: { symbol: 'ETH', decimals: 18 },
  balanceChanges: [],
  call: { kind: 'function', to: token, value: 0n, standard: 'erc20', functionName: 'approve', signature: 'approve(address,uint256)', args: [] },
  warnings: [{ kind: 'unlimitedApproval', via: 'erc20', token: { address: token, symbol: 'TUSD', decimals: 6 }, spender, amount: 2n ** 256n - 1n }],
}

function setup(overrides: Partial<CreateRequestReviewParameters> = {}) {
  const router = createRouter()
  const modal = createModal()
  const core = {
    reviewTransaction: vi.fn(async () => transactionReview),
    reviewCalls: vi.fn(),
    reviewTypedData: vi.fn(async (): Promise<TypedDataReview> => ({ kind: 'typedData', primaryType: 'PermitSingle', domain: { name: 'Permit2' }, message: [], warnings: [] })),
  }
  const review = createRequestReview({
    core: core as unknown as CreateRequestReviewParameters['core'],
    router,
    modal,
    account: () => ({ address: from, caipNetworkId: 'eip155:31337' }),
    nativeCurrency: () => ({ symbol: 'ETH', decimals: 18 }),
    ...overrides,
  })
  const ready = () => expect.poll(() => review.store.getState().pending?.status).toBe('ready')
  return { router, modal, core, review, ready }
}

/** What a request that should be refused right away came to: its error, or a word saying it was not refused. */
const refusal = (request: Promise<unknown>) =>
  Promise.race([request.then(() => 'accepted', (error: unknown) => error), new Promise((resolve) => setTimeout(() => resolve('still waiting'), 100))])

describe('the review before the wallet asks (issue #36)', () => {
  it('opens the modal on the review, works it out in the core, asks the wallet only once the visitor confirms, and closes once it answered', async () => {
    const { router, modal, core, review, ready } = setup()
    const send = vi.fn(async () => '0xhash')
    const answer = review.confirm({ method: 'eth_sendTransaction', params: [transaction] }, send)
    await ready()
    expect(modal.store.getState().open).toBe(true)
    expect(router.store.getState().view).toBe('ReviewRequest')
    expect(core.reviewTransaction).toHaveBeenCalledWith({ caipNetworkId: 'eip155:31337', nativeCurrency: { symbol: 'ETH', decimals: 18 }, request: { from, to: token, data: approveUnlimited } })
    expect(review.store.getState().pending).toMatchObject({ method: 'eth_sendTransaction', caipNetworkId: 'eip155:31337', review: transactionReview })
    expect(send).not.toHaveBeenCalled()

    review.decide(true)
    await expect.poll(() => review.store.getState().pending?.status).toBe('inWallet')
    expect(router.store.getState().view).toBe('ReviewRequest')
    expect(await answer).toBe('0xhash')
    expect(send).toHaveBeenCalledOnce()
    expect(review.store.getState().pending).toBeUndefined()
    expect(modal.store.getState().open).toBe(false)
  })

  it('opened over another view, goes back to it once confirmed (that view follows the wallet); the modal stays open', async () => {
    const { router, modal, review, ready } = setup()
    void modal.open()
    router.reset('Swap')
    let answerWallet!: (hash: string) => void
    const answer = review.confirm({ method: 'eth_sendTransaction', params: [transaction] }, () => new Promise<string>((resolve) => (answerWallet = resolve)))
    await ready()
    review.decide(true)
    await expect.poll(() => review.store.getState().pending?.status).toBe('inWallet')
    expect(router.store.getState().view).toBe('Swap')
    answerWallet('0xhash')
    await answer
    expect(router.store.getState().view).toBe('Swap')
    expect(modal.store.getState().open).toBe(true)
    expect(review.store.getState().pending).toBeUndefined()
  })

  it('declining, closing the modal or leaving the view is 4001 to the site, and the wallet is never asked', async () => {
    for (const leave of ['decline', 'close', 'navigate'] as const) {
      const { router, modal, review, ready } = setup()
      const send = vi.fn()
      const answer = review.confirm({ method: 'eth_sendTransaction', params: [transaction] }, send)
      await ready()
      if (leave === 'decline') review.decide(false)
      if (leave === 'close') modal.close()
      if (leave === 'navigate') router.push('Account')
      await expect(answer).rejects.toMatchObject({ code: 4001, message: 'User rejected the request.' })
      expect(send).not.toHaveBeenCalled()
      expect(review.store.getState().pending).toBeUndefined()
    }
  })

  it('a confirm before the review is ready is ignored; declining while it is worked out is allowed', async () => {
    const { review, core } = setup()
    core.reviewTransaction.mockImplementation(() => new Promise(() => {}))
    const send = vi.fn()
    const answer = review.confirm({ method: 'eth_sendTransaction', params: [transaction] }, send)
    await expect.poll(() => review.store.getState().pending?.status).toBe('checking')
    review.decide(true)
    expect(review.store.getState().pending?.status).toBe('checking')
    review.decide(false)
    await expect(answer).rejects.toMatchObject({ code: 4001 })
    expect(send).not.toHaveBeenCalled()
  })

  it('a review that could not be made says why and lets the visitor decide (no worker, or the worker failed)', async () => {
    const failing = setup()
    failing.core.reviewTransaction.mockRejectedValue(createWidgetError('CORE_TIMEOUT'))
    void failing.review.confirm({ method: 'eth_sendTransaction', params: [transaction] }, async () => '0x1')
    await failing.ready()
    expect(failing.review.store.getState().pending?.failure).toBe('CORE_TIMEOUT')
    expect(failing.review.store.getState().pending?.review).toBeUndefined()

    const withoutCore = setup({ core: undefined })
    const answer = withoutCore.review.confirm({ method: 'eth_sendTransaction', params: [transaction] }, async () => '0x2')
    await withoutCore.ready()
    expect(withoutCore.review.store.getState().pending?.failure).toBe('unavailable')
    withoutCore.review.decide(true)
    expect(await answer).toBe('0x2')
  })

  it('a malformed request fails before anything is shown, naming its field (-32602)', async () => {
    const { modal, review } = setup()
    const send = vi.fn()
    await expect(review.confirm({ method: 'eth_sendTransaction', params: [{ from, to: '0x12' }] }, send)).rejects.toMatchObject({ code: -32602, message: 'eth_sendTransaction: "to" must be a 20-byte hex address.' })
    await expect(review.confirm({ method: 'eth_sendTransaction', params: [{ from, to: token, value: 12 }] }, send)).rejects.toMatchObject({ message: 'eth_sendTransaction: "value" must be a hex quantity such as 0x1.' })
    await expect(review.confirm({ method: 'wallet_sendCalls', params: [{ calls: [] }] }, send)).rejects.toMatchObject({ message: 'wallet_sendCalls: "chainId" is missing; it must be a hex chain id.' })
    await expect(review.confirm({ method: 'eth_signTypedData_v4', params: [from, '{not json'] }, send)).rejects.toMatchObject({ message: 'eth_signTypedData_v4: the typed data is not valid JSON.' })
    expect(send).not.toHaveBeenCalled()
    expect(modal.store.getState().open).toBe(false)
  })

  it('without a connected account it is 4100', async () => {
    const { review } = setup({ account: () => undefined })
    await expect(review.confirm({ method: 'eth_sendTransaction', params: [transaction] }, vi.fn())).rejects.toMatchObject({ code: 4100 })
  })

  it('reviews a batch on its own chain with its calls, and typed data with the chain the wallet is on', async () => {
    const { core, review, ready } = setup({ descriptors: [{ context: {} }] })
    void review.confirm({ method: 'wallet_sendCalls', params: [{ chainId: '0x7a6a', calls: [{ to: token, data: approveUnlimited }, { to: spender, value: '0x10' }] }] }, async () => ({ id: '1' }))
    await expect.poll(() => core.reviewCalls.mock.calls.length).toBe(1)
    expect(core.reviewCalls).toHaveBeenCalledWith({ caipNetworkId: 'eip155:31338', descriptors: [{ context: {} }], nativeCurrency: { symbol: 'ETH', decimals: 18 }, from, calls: [{ to: token, data: approveUnlimited }, { to: spender, value: 16n }] })
    review.decide(false)

    const typedData = { types: { EIP712Domain: [] }, primaryType: 'EIP712Domain', domain: {}, message: {} }
    void review.confirm({ method: 'eth_signTypedData_v4', params: [from, JSON.stringify(typedData)] }, async () => '0xsig')
    await ready()
    expect(core.reviewTypedData).toHaveBeenCalledWith({ typedData, caipNetworkId: 'eip155:31337' })
  })

  it('requests wait their turn: the second review shows once the wallet answered the first', async () => {
    const { review, ready } = setup()
    let answerFirst!: (hash: string) => void
    const first = review.confirm({ method: 'eth_sendTransaction', params: [transaction] }, () => new Promise<string>((resolve) => (answerFirst = resolve)))
    const second = review.confirm({ method: 'eth_sendTransaction', params: [{ ...transaction, value: '0x1' }] }, async () => '0xsecond')
    await ready()
    const firstId = review.store.getState().pending!.id
    review.decide(true)
    await expect.poll(() => review.store.getState().pending?.status).toBe('inWallet')
    expect(review.store.getState().pending?.id).toBe(firstId)
    answerFirst('0xfirst')
    expect(await first).toBe('0xfirst')
    await ready()
    expect(review.store.getState().pending?.id).not.toBe(firstId)
    review.decide(true)
    expect(await second).toBe('0xsecond')
  })

  it('reviews a Solana transaction or a Bitcoin PSBT through the family’s own review, then signs; without a core it says it could not check', async () => {
    const { review, ready } = setup()
    const psbtReview: PsbtReview = { kind: 'psbt', network: 'bip122:000000000933ea01ad0ee984209779ba', inputs: [], outputs: [], locktime: 0, isReplaceable: false, warnings: [] }
    const makeReview = vi.fn(async () => psbtReview)
    const sign = vi.fn(async () => 'c2lnbmVk')
    const signing = review.confirmFamily({ method: 'bip122_signPsbt', caipNetworkId: psbtReview.network, review: makeReview }, sign)
    await ready()
    expect(review.store.getState().pending).toMatchObject({ method: 'bip122_signPsbt', caipNetworkId: psbtReview.network, review: psbtReview })
    expect(sign).not.toHaveBeenCalled()
    review.decide(true)
    expect(await signing).toBe('c2lnbmVk')

    const withoutCore = setup({ core: undefined })
    const declined = withoutCore.review.confirmFamily({ method: 'solana_signTransaction', caipNetworkId: 'solana:local', review: makeReview }, sign)
    await withoutCore.ready()
    expect(withoutCore.review.store.getState().pending?.failure).toBe('unavailable')
    withoutCore.review.decide(false)
    await expect(declined).rejects.toMatchObject({ code: 4001 })
    expect(sign).toHaveBeenCalledOnce()
  })

  it(`at most ${MAX_WAITING_REVIEWS} requests wait behind the one on screen; past them a request is refused at once (-32002), and the line shortens as reviews settle`, async () => {
    expect(MAX_WAITING_REVIEWS).toBe(4)
    const { router, modal, core, review, ready } = setup()
    const tooMany = { code: -32002, message: 'Too many requests are already waiting for your review: answer them in the wallet window first.' }
    const sends = Array.from({ length: 8 }, (_, index) => vi.fn(async () => `0x${index}`))
    // On screen: a review the visitor has not answered yet.
    const shown = review.confirm({ method: 'eth_sendTransaction', params: [transaction] }, sends[0]!)
    // Waiting: one the wallet will fail, one malformed (it fails at its turn), two the visitor will decline.
    sends[1]!.mockRejectedValue(new Error('the wallet failed'))
    const failing = review.confirm({ method: 'eth_sendTransaction', params: [{ ...transaction, value: '0x1' }] }, sends[1]!)
    const malformed = review.confirm({ method: 'eth_sendTransaction', params: [{ from, to: '0x12' }] }, sends[2]!)
    const declined = [3, 4].map((index) => review.confirm({ method: 'eth_sendTransaction', params: [{ ...transaction, value: `0x${index}` }] }, sends[index]!))
    await ready()
    const shownId = review.store.getState().pending!.id

    // Full: the next request, EVM or another family, is refused at once; nothing new shows, the line is untouched.
    const makeReview = vi.fn(async () => ({ kind: 'psbt', network: 'bip122:000000000933ea01ad0ee984209779ba', inputs: [], outputs: [], locktime: 0, isReplaceable: false, warnings: [] }) as PsbtReview)
    expect(await refusal(review.confirm({ method: 'eth_sendTransaction', params: [transaction] }, sends[5]!))).toMatchObject(tooMany)
    expect(await refusal(review.confirm({ method: 'eth_signTypedData_v4', params: [from, '{}'] }, sends[5]!))).toMatchObject(tooMany)
    expect(await refusal(review.confirmFamily({ method: 'bip122_signPsbt', caipNetworkId: 'bip122:000000000933ea01ad0ee984209779ba', review: makeReview }, sends[5]!))).toMatchObject(tooMany)
    expect(review.store.getState().pending).toMatchObject({ id: shownId, status: 'ready' })
    expect(core.reviewTransaction).toHaveBeenCalledOnce()
    expect(core.reviewTypedData).not.toHaveBeenCalled()
    expect(makeReview).not.toHaveBeenCalled()
    expect(sends[5]).not.toHaveBeenCalled()
    expect(modal.store.getState().open).toBe(true)
    expect(router.store.getState().view).toBe('ReviewRequest')

    // The one on screen answered (declined): there is room for one more, which takes its turn after the others.
    review.decide(false)
    await expect(shown).rejects.toMatchObject({ code: 4001 })
    const accepted = review.confirm({ method: 'eth_sendTransaction', params: [{ ...transaction, value: '0x6' }] }, sends[6]!)
    expect(await refusal(review.confirm({ method: 'eth_sendTransaction', params: [transaction] }, sends[7]!))).toMatchObject(tooMany)

    // The waiting ones go on as before: the wallet fails one, one is malformed, two are declined, then the accepted one.
    await ready()
    review.decide(true)
    await expect(failing).rejects.toThrow('the wallet failed')
    await expect(malformed).rejects.toMatchObject({ code: -32602 })
    for (const waiting of declined) {
      await ready()
      review.decide(false)
      await expect(waiting).rejects.toMatchObject({ code: 4001 })
    }
    await ready()
    review.decide(true)
    expect(await accepted).toBe('0x6')
    expect(sends.map((send) => send.mock.calls.length)).toEqual([0, 1, 0, 0, 0, 0, 1, 0])

    // Every review settled (answered, declined, failed): the line is empty again, and full again at the same count.
    const again = Array.from({ length: MAX_WAITING_REVIEWS + 1 }, () => review.confirm({ method: 'eth_sendTransaction', params: [transaction] }, async () => '0x'))
    expect(await refusal(review.confirm({ method: 'eth_sendTransaction', params: [transaction] }, sends[7]!))).toMatchObject(tooMany)
    for (const waiting of again) {
      await ready()
      review.decide(false)
      await expect(waiting).rejects.toMatchObject({ code: 4001 })
    }
    expect(sends[7]).not.toHaveBeenCalled()
  })

  it('reviews a personal_sign message on the page, with the page’s host, and refuses a message past the bound or not a string (-32602)', async () => {
    const { modal, core, review, ready } = setup({ pageHost: 'app.example' })
    const send = vi.fn(async () => '0xsig')
    const signing = review.confirm({ method: 'personal_sign', params: [stringToHex('Hello'), from] }, send)
    await ready()
    expect(review.store.getState().pending).toMatchObject({ method: 'personal_sign', caipNetworkId: 'eip155:31337', review: { kind: 'message', text: 'Hello' } })
    expect(modal.store.getState().open).toBe(true)
    expect(send).not.toHaveBeenCalled()
    review.decide(true)
    expect(await signing).toBe('0xsig')
    expect(core.reviewTransaction).not.toHaveBeenCalled()

    expect(MAX_MESSAGE_CHARS).toBe(100_000)
    expect(await refusal(review.confirm({ method: 'personal_sign', params: ['x'.repeat(100_001), from] }, send))).toMatchObject({
      code: -32602,
      message: 'personal_sign: the message is 100,001 characters; at most 100,000 are reviewed.',
    })
    expect(await refusal(review.confirm({ method: 'personal_sign', params: [{ text: 'hi' }, from] }, send))).toMatchObject({
      code: -32602,
      message: 'personal_sign takes [message, address]: the message must be hex bytes or text.',
    })
    expect(send).toHaveBeenCalledOnce()
  })

  it('reviews eth_sign’s data as a blind signature on the page, and refuses data that is not hex bytes, too long, or without an address (-32602)', async () => {
    const { modal, core, review, ready } = setup({ pageHost: 'app.example' })
    const send = vi.fn(async () => '0xsig')
    const hash = `0x${'ab'.repeat(32)}`
    const signing = review.confirm({ method: 'eth_sign', params: [from, hash] }, send)
    await ready()
    expect(review.store.getState().pending).toMatchObject({ method: 'eth_sign', caipNetworkId: 'eip155:31337', review: { kind: 'message', bytes: hash, isBlind: true } })
    expect(modal.store.getState().open).toBe(true)
    expect(send).not.toHaveBeenCalled()
    review.decide(true)
    expect(await signing).toBe('0xsig')
    expect(core.reviewTransaction).not.toHaveBeenCalled()

    for (const [params, message] of [
      [[from, 'hello'], 'eth_sign takes [address, data]: the data must be hex bytes.'],
      [[hash, from], 'eth_sign: "address" must be a 20-byte hex address.'],
      [[undefined, hash], 'eth_sign: "address" is missing; it must be a 20-byte hex address.'],
      [{ address: from, data: hash }, 'eth_sign takes [address, data]: the data must be hex bytes.'],
      [[from, `0x${'00'.repeat(50_000)}`], 'eth_sign: the data is 100,002 characters; at most 100,000 are reviewed.'],
    ] as const) {
      expect(await refusal(review.confirm({ method: 'eth_sign', params }, send))).toMatchObject({ code: -32602, message })
    }
    expect(send).toHaveBeenCalledOnce()
  })

  it('reviews eth_signTransaction as the transaction it signs, and names the method when it is malformed (-32602)', async () => {
    const { core, review, ready } = setup()
    const send = vi.fn(async () => '0x02f8')
    const signing = review.confirm({ method: 'eth_signTransaction', params: [{ ...transaction, chainId: '0x7a6a' }] }, send)
    await ready()
    expect(core.reviewTransaction).toHaveBeenCalledWith({ caipNetworkId: 'eip155:31338', nativeCurrency: { symbol: 'ETH', decimals: 18 }, request: { from, to: token, data: approveUnlimited } })
    expect(review.store.getState().pending).toMatchObject({ method: 'eth_signTransaction', review: transactionReview })
    review.decide(true)
    expect(await signing).toBe('0x02f8')
    expect(await refusal(review.confirm({ method: 'eth_signTransaction', params: [{ from, to: '0x12' }] }, send))).toMatchObject({ code: -32602, message: 'eth_signTransaction: "to" must be a 20-byte hex address.' })
  })

  it('reviews legacy typed data (eth_signTypedData_v1, and eth_signTypedData in its shape) field by field on the page; EIP-712 sent as eth_signTypedData goes to the core like v4', async () => {
    const { core, review, ready } = setup()
    const send = vi.fn(async () => '0xsig')
    const fields = [
      { type: 'string', name: 'Message', value: 'Hi, Alice!' },
      { type: 'uint32', name: 'A number', value: '1337' },
      { type: 'int', name: 'Offset', value: -5 },
      { type: 'address', name: 'Recipient', value: spender },
      { type: 'bool', name: 'Final', value: true },
      { type: 'bytes32', name: 'Order', value: `0x${'ab'.repeat(32)}` },
      { type: 'uint8[]', name: 'Levels', value: [1, 2] },
    ]
    const rows = [
      { path: '[0]', label: 'Message', value: { kind: 'text', value: 'Hi, Alice!' } },
      { path: '[1]', label: 'A number', value: { kind: 'number', value: 1337n } },
      { path: '[2]', label: 'Offset', value: { kind: 'number', value: -5n } },
      { path: '[3]', label: 'Recipient', value: { kind: 'address', address: spender } },
      { path: '[4]', label: 'Final', value: { kind: 'bool', value: true } },
      { path: '[5]', label: 'Order', value: { kind: 'bytes', value: `0x${'ab'.repeat(32)}` } },
      { path: '[6]', label: 'Levels', value: { kind: 'text', value: '[1,2]' } },
    ]
    for (const method of ['eth_signTypedData_v1', 'eth_signTypedData'] as const) {
      const signing = review.confirm({ method, params: [fields, from] }, send)
      await ready()
      expect(review.store.getState().pending).toMatchObject({ method, caipNetworkId: 'eip155:31337', review: { kind: 'legacyTypedData', fields: rows } })
      review.decide(true)
      expect(await signing).toBe('0xsig')
    }
    expect(core.reviewTypedData).not.toHaveBeenCalled()

    const typedData = { types: { EIP712Domain: [] }, primaryType: 'EIP712Domain', domain: {}, message: {} }
    const signing = review.confirm({ method: 'eth_signTypedData', params: [from, typedData] }, send)
    await ready()
    expect(core.reviewTypedData).toHaveBeenCalledWith({ typedData, caipNetworkId: 'eip155:31337' })
    review.decide(true)
    expect(await signing).toBe('0xsig')
    expect(send).toHaveBeenCalledTimes(3)
  })

  it('reviews an ERC-7715 permission request on the page, on its chain, and refuses a malformed one before anything shows', async () => {
    const { modal, core, review, ready } = setup()
    const send = vi.fn(async () => [{ context: '0x01' }])
    const request = { chainId: '0x7a6a', expiry: 1_900_000_000, signer: { type: 'account', data: { address: spender } }, permission: { type: 'native-token-transfer', data: { allowance: '0x1' } } }
    const granting = review.confirm({ method: 'wallet_grantPermissions', params: [request] }, send)
    await ready()
    expect(review.store.getState().pending).toMatchObject({
      method: 'wallet_grantPermissions',
      caipNetworkId: 'eip155:31338',
      review: { kind: 'permissions', grants: [{ caipNetworkId: 'eip155:31338', expiry: 1_900_000_000n, permissions: [{ type: 'native-token-transfer' }] }] },
    })
    expect(send).not.toHaveBeenCalled()
    review.decide(true)
    expect(await granting).toEqual([{ context: '0x01' }])
    expect(core.reviewTransaction).not.toHaveBeenCalled()

    expect(await refusal(review.confirm({ method: 'wallet_requestExecutionPermissions', params: [{ ...request, chainId: 'x' }] }, send))).toMatchObject({
      code: -32602,
      message: 'wallet_requestExecutionPermissions: requests[0].chainId must be a chain id (a hex quantity such as 0x1, or a number).',
    })
    expect(modal.store.getState().open).toBe(false)
    expect(send).toHaveBeenCalledOnce()
  })

  it('refuses malformed legacy typed data before anything shows, naming the field (-32602)', async () => {
    const { modal, review } = setup()
    const send = vi.fn(async () => '0xsig')
    const method = 'eth_signTypedData_v1'
    for (const [params, message] of [
      [[[], from], 'eth_signTypedData_v1 takes [typedData, address]: typedData must be a list of { type, name, value }.'],
      [[from, [{ type: 'string', name: 'a', value: 'b' }]], 'eth_signTypedData_v1 takes [typedData, address]: typedData must be a list of { type, name, value }.'],
      [[[{ type: 'string', name: 'a', value: 'b' }], '0x12'], 'eth_signTypedData_v1: "address" must be a 20-byte hex address.'],
      [[[{ type: 'string', value: 'b' }], from], 'eth_signTypedData_v1: typedData[0] must be { type, name, value } with type and name as text.'],
      [[[null], from], 'eth_signTypedData_v1: typedData[0] must be { type, name, value } with type and name as text.'],
      [[[{ type: 'string', name: 'a', value: 'b' }, { type: 'address', name: 'to', value: '0x12' }], from], 'eth_signTypedData_v1: typedData[1].value must be a 20-byte hex address for its type address.'],
      [[[{ type: 'uint256', name: 'n', value: '1.5' }], from], 'eth_signTypedData_v1: typedData[0].value must be an integer (a number, or its digits or hex in a string) for its type uint256.'],
      [[[{ type: 'uint256', name: 'n', value: 2 ** 60 }], from], 'eth_signTypedData_v1: typedData[0].value must be an integer (a number, or its digits or hex in a string) for its type uint256.'],
      [[[{ type: 'bool', name: 'b', value: 'yes' }], from], 'eth_signTypedData_v1: typedData[0].value must be true or false for its type bool.'],
      [[[{ type: 'bytes', name: 'b', value: 'ab' }], from], 'eth_signTypedData_v1: typedData[0].value must be hex bytes starting with 0x for its type bytes.'],
      [[[{ type: 'string', name: 's', value: 5 }], from], 'eth_signTypedData_v1: typedData[0].value must be text for its type string.'],
      [[Array.from({ length: 101 }, (_, i) => ({ type: 'uint8', name: `f${i}`, value: i })), from], 'eth_signTypedData_v1: the typed data has 101 fields; at most 100 are reviewed.'],
      [[[{ type: 'string', name: 's', value: 'x'.repeat(MAX_TYPED_DATA_CHARS) }], from], 'eth_signTypedData_v1: the typed data is 100,041 characters; at most 100,000 are reviewed.'],
    ] as const) {
      expect(await refusal(review.confirm({ method, params }, send))).toMatchObject({ code: -32602, message })
    }
    expect(modal.store.getState().open).toBe(false)
    expect(send).not.toHaveBeenCalled()
  })

  describe(`typed data is reviewed up to ${MAX_TYPED_DATA_CHARS} characters of JSON`, () => {
    /** Typed data whose JSON is exactly `length` characters long. */
    const typedDataOf = (length: number) => {
      const base = { types: { EIP712Domain: [] }, primaryType: 'EIP712Domain', domain: {}, message: { note: '' } }
      const typedData = { ...base, message: { note: 'x'.repeat(length - JSON.stringify(base).length) } }
      expect(JSON.stringify(typedData)).toHaveLength(length)
      return typedData
    }

    it('a string payload past the bound is refused (-32602) before it is parsed; one at the bound is reviewed', async () => {
      expect(MAX_TYPED_DATA_CHARS).toBe(100_000)
      const { modal, core, review, ready } = setup()
      const send = vi.fn(async () => '0xsig')
      const parse = vi.spyOn(JSON, 'parse')
      try {
        const over = JSON.stringify(typedDataOf(100_001))
        expect(await refusal(review.confirm({ method: 'eth_signTypedData_v4', params: [from, over] }, send))).toMatchObject({
          code: -32602,
          message: 'eth_signTypedData_v4: the typed data is 100,001 characters; at most 100,000 are reviewed.',
        })
        const huge = `{"note":"${'x'.repeat(250_000 - 11)}"}`
        expect(await refusal(review.confirm({ method: 'eth_signTypedData_v3', params: [from, huge] }, send))).toMatchObject({
          code: -32602,
          message: 'eth_signTypedData_v3: the typed data is 250,000 characters; at most 100,000 are reviewed.',
        })
        expect(parse.mock.calls.some(([text]) => text === over || text === huge)).toBe(false)
      } finally {
        parse.mockRestore()
      }
      expect(core.reviewTypedData).not.toHaveBeenCalled()
      expect(modal.store.getState().open).toBe(false)

      const atBound = typedDataOf(100_000)
      const signing = review.confirm({ method: 'eth_signTypedData_v4', params: [from, JSON.stringify(atBound)] }, send)
      await ready()
      expect(core.reviewTypedData).toHaveBeenCalledWith({ typedData: atBound, caipNetworkId: 'eip155:31337' })
      review.decide(true)
      expect(await signing).toBe('0xsig')
    })

    it('an object payload is bounded by its JSON length the same way', async () => {
      const { modal, core, review, ready } = setup()
      const send = vi.fn(async () => '0xsig')
      expect(await refusal(review.confirm({ method: 'eth_signTypedData_v4', params: [from, typedDataOf(100_001)] }, send))).toMatchObject({
        code: -32602,
        message: 'eth_signTypedData_v4: the typed data is 100,001 characters; at most 100,000 are reviewed.',
      })
      expect(core.reviewTypedData).not.toHaveBeenCalled()
      expect(modal.store.getState().open).toBe(false)

      const atBound = typedDataOf(100_000)
      const signing = review.confirm({ method: 'eth_signTypedData_v4', params: [from, atBound] }, send)
      await ready()
      expect(core.reviewTypedData).toHaveBeenCalledWith({ typedData: atBound, caipNetworkId: 'eip155:31337' })
      review.decide(true)
      expect(await signing).toBe('0xsig')
      expect(send).toHaveBeenCalledOnce()
    })
  })
})
