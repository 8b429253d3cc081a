import { describe, expect, it, vi } from 'vitest'
import type { SwapQuote } from '../../shared/protocol/schemas/convert'
import type { TokenBalance } from '../../shared/protocol/schemas/entities'
import type { Core } from '../core/createCore'
import { createNotifications } from '../state/createNotifications'
import { createRouter } from '../state/createRouter'
import { createSwapController, findSwapIssue, minimumReceived } from './createSwapController'

const user = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const router = '0x9401A5c3a8b881D3018ab9e94570b3b217fa348A'
const tusd = 'eip155:31337:0x5FbDB2315678afecb367f032d93F642f64180aa3'
const native = 'eip155:31337:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee'
const ether: TokenBalance = { name: 'Ether', symbol: 'ETH', chainId: 'eip155:31337', value: 3_000, price: 3_000, iconUrl: '', quantity: { decimals: '18', numeric: '1' } }
const dollar: TokenBalance = { name: 'Tessera Dollar', symbol: 'TUSD', chainId: 'eip155:31337', address: tusd, value: 500, price: 1, iconUrl: '', quantity: { decimals: '6', numeric: '500' } }

const quoteOf = (fromAmount: string, toAmount: string, overrides: Partial<SwapQuote> = {}): SwapQuote => ({
  id: null,
  fromAmount,
  fromAccount: native,
  toAmount,
  toAccount: tusd,
  route: [native, tusd],
  priceImpact: 0.1,
  source: { name: 'Uniswap V2', router },
  blockNumber: '10',
  gas: '120000',
  ...overrides,
})

/** A core whose data service answers from `answers` (each a function of its arguments), and a wallet that records requests. */
function setUp(answers: Partial<Record<string, (args: never) => unknown>> = {}) {
  const calls: { method: string; args: unknown }[] = []
  const dataService = new Proxy(
    {},
    {
      get: (_target, method: string) => async (args: never) => {
        calls.push({ method, args })
        const answer = answers[method]
        if (!answer) throw new Error(`unexpected ${method}`)
        return answer(args)
      },
    },
  )
  const core = {
    dataService,
    waitForTransactionReceipt: vi.fn(async () => ({ status: 'success' })),
    invalidateBalances: vi.fn(async () => {}),
  } as unknown as Core
  const walletRequests: unknown[] = []
  const walletRequest = vi.fn(async (args: unknown): Promise<unknown> => {
    walletRequests.push(args)
    return '0xabc'
  })
  const notifications = createNotifications()
  const swap = createSwapController({ core, notifications, router: createRouter('Swap'), getAccount: () => ({ address: user, chainId: 31337 }), walletRequest })
  return { swap, calls, walletRequests, walletRequest, notifications, core }
}

const tokensAnswer = () => ({ tokens: [{ name: 'Ether', symbol: 'ETH', address: native, decimals: 18, logoUri: '' }, { name: 'Tessera Dollar', symbol: 'TUSD', address: tusd, decimals: 6, logoUri: '' }] })
const balanceAnswer = () => ({ balances: [ether, dollar] })
const gasAnswer = () => ({ standard: '1000000000', fast: '1100000000', instant: '1250000000' })
const swapTx = { from: user, to: router, data: '0x7ff36ab5', amount: '100000000000000000', eip155: { gas: '150000', gasPrice: '1000000000' } }

/** A form selling 0.1 ETH for TUSD, quoted at 298.802094 TUSD, and a service that builds it for at least `least`; `answers` change any of it. */
async function quotedEtherSale(answers: Partial<Record<string, (args: never) => unknown>> = {}, least = '295814073') {
  const setup = setUp({
    getSwapTokens: tokensAnswer,
    getBalance: balanceAnswer,
    getGasPrice: gasAnswer,
    getSwapQuote: (args: { amount: string }) => ({ quotes: [quoteOf(args.amount, '298802094')] }),
    buildSwapTransaction: () => ({ tx: swapTx, minimumReceived: least, deadline: 1 }),
    ...answers,
  })
  await setup.swap.load()
  setup.swap.setAmount('0.1')
  await setup.swap.refreshQuote()
  return setup
}

describe('findSwapIssue', () => {
  const state = { from: ether, amount: '0.5', quote: quoteOf('500000000000000000', '1490000000'), gasPrice: 1_000_000_000n, tokens: [ether, dollar] }
  it.each([
    ['nothing when the amount, the fee and the price impact fit', {}, undefined],
    ['more than the balance', { amount: '1.5' }, { reason: 'overBalance', symbol: 'ETH' }],
    ['a native sell that leaves too little for the fee', { amount: '0.99999' }, { reason: 'noRoomForFee', symbol: 'ETH' }],
    ['a token sell whose fee the native balance does not cover', { from: dollar, amount: '1', tokens: [{ ...ether, quantity: { decimals: '18', numeric: '0.0000001' } }, dollar] }, { reason: 'feeNotCovered', symbol: 'ETH' }],
    ['more decimals than the token has', { from: dollar, amount: '1.0000001' }, { reason: 'tooManyDecimals', symbol: 'TUSD', decimals: 6 }],
    ['nothing about the fee for a smart account (its fee may be sponsored)', { from: dollar, amount: '1', isSmartAccount: true, tokens: [{ ...ether, quantity: { decimals: '18', numeric: '0' } }, dollar] }, undefined],
    ['a price impact above the limit', { quote: quoteOf('1', '1', { priceImpact: 15.01 }) }, { reason: 'priceImpact', limit: 15 }],
  ] as const)('%s', (_name, change, expected) => {
    expect(findSwapIssue({ ...state, ...change })).toEqual(expected)
  })
})

describe('minimumReceived', () => {
  it('is the quote less the slippage, rounded down', () => {
    expect(minimumReceived(quoteOf('1', '298802094'), 1)).toBe(295_814_073n)
    expect(minimumReceived(quoteOf('1', '1000'), 0.05)).toBe(999n)
  })
})

describe('createSwapController', () => {
  it('loads the provider’s tokens with the account’s balances, the native currency paying and the first token received', async () => {
    const { swap } = setUp({ getSwapTokens: tokensAnswer, getBalance: balanceAnswer })
    await swap.load()
    expect(swap.store.getState()).toMatchObject({ hasLoadedTokens: true, from: ether, to: dollar, tokens: [ether, dollar] })
  })

  it('says the network has no swaps when the service says so', async () => {
    const unsupported = Object.assign(new Error('no'), { code: 'SWAP_NETWORK_UNSUPPORTED' })
    const { swap } = setUp({
      getSwapTokens: () => {
        throw unsupported
      },
      getBalance: balanceAnswer,
    })
    await swap.load()
    expect(swap.store.getState()).toMatchObject({ hasLoadedTokens: true, isUnsupported: true })
  })

  it('quotes the amount in base units and drops an answer for an amount typed since', async () => {
    let release: () => void = () => {}
    const { swap, calls } = setUp({
      getSwapTokens: tokensAnswer,
      getBalance: balanceAnswer,
      getGasPrice: gasAnswer,
      getSwapQuote: (args: { amount: string }) =>
        args.amount === '100000000000000000' ? new Promise((resolve) => (release = () => resolve({ quotes: [quoteOf(args.amount, '298802094')] }))) : { quotes: [quoteOf(args.amount, '597000000')] },
    })
    await swap.load()
    swap.setAmount('0.1')
    const first = swap.refreshQuote()
    swap.setAmount('0.2')
    await swap.refreshQuote()
    release()
    await first
    expect(calls.filter((c) => c.method === 'getSwapQuote').map((c) => c.args)).toEqual([
      expect.objectContaining({ amount: '100000000000000000', from: native, to: tusd, userAddress: user, gasPrice: '1000000000' }),
      expect.objectContaining({ amount: '200000000000000000' }),
    ])
    expect(swap.store.getState().quote?.toAmount).toBe('597000000')
    expect(swap.store.getState().gasPrice).toBe(1_000_000_000n)
  })

  it('shows a lower price found when Swap is pressed instead of sending it', async () => {
    let toAmount = '298802094'
    const { swap, walletRequest } = await quotedEtherSale({ getSwapQuote: (args: { amount: string }) => ({ quotes: [quoteOf(args.amount, toAmount)] }) })
    toAmount = '250000000'
    expect(await swap.swap()).toBeUndefined()
    expect(swap.store.getState()).toMatchObject({ hasPriceMoved: true, quote: { toAmount: '250000000' }, step: 'form' })
    expect(walletRequest).not.toHaveBeenCalled()
  })

  it('builds the swap at the slippage and asks the wallet, then says it started and goes to Account', async () => {
    const { swap, walletRequests, notifications, calls } = await quotedEtherSale()
    expect(await swap.swap()).toBe('0xabc')
    expect(calls.find((c) => c.method === 'buildSwapTransaction')?.args).toEqual({ chainId: 'eip155:31337', amount: '100000000000000000', from: native, to: tusd, userAddress: user, slippage: 1 })
    expect(walletRequests).toEqual([{ method: 'eth_sendTransaction', params: [{ from: user, to: router, data: '0x7ff36ab5', value: '0x16345785d8a0000', gas: '0x249f0' }] }])
    expect(notifications.store.getState()).toMatchObject({ code: 'TRANSACTION_STARTED', open: true })
  })

  it('refuses a built swap that insists on less than the slippage allows of the figure shown', async () => {
    const { swap, walletRequest } = await quotedEtherSale({}, '1')
    expect(await swap.swap()).toBeUndefined()
    expect(walletRequest).not.toHaveBeenCalled()
    expect(swap.store.getState().error?.code).toBe('SWAP_QUOTE_UNAVAILABLE')
  })

  it('asks for the approval of exactly the amount when the allowance is short, then reads it again', async () => {
    let allowance = '0'
    const approveTx = { from: user, to: tusd.slice(-42), data: '0x095ea7b3', value: '0', eip155: { gas: '50000', gasPrice: '1' } }
    const { swap, walletRequests, calls } = setUp({
      getSwapTokens: tokensAnswer,
      getBalance: balanceAnswer,
      getGasPrice: gasAnswer,
      getAllowance: () => ({ allowance }),
      getSwapQuote: (args: { amount: string }) => ({ quotes: [quoteOf(args.amount, '33000000000000000')] }),
      buildApproveTransaction: () => {
        allowance = '100000000'
        return { tx: approveTx }
      },
    })
    await swap.load()
    swap.choose('from', dollar)
    swap.setAmount('100')
    await swap.refreshQuote()
    expect(swap.needsApproval()).toBe(true)
    await swap.approve()
    expect(calls.find((c) => c.method === 'buildApproveTransaction')?.args).toMatchObject({ amount: '100000000', from: tusd })
    // The wallet was asked whether it batches (this one answers no capabilities), then for the approval alone.
    expect(walletRequests).toEqual([
      { method: 'wallet_getCapabilities', params: [user, ['0x7a69']] },
      { method: 'eth_sendTransaction', params: [{ from: user, to: approveTx.to, data: '0x095ea7b3', value: '0x0', gas: '0xc350' }] },
    ])
    expect(swap.store.getState()).toMatchObject({ allowance: 100_000_000n, step: 'form', canBatch: false })
    expect(swap.needsApproval()).toBe(false)
  })

  it('sends the approval and the swap as one atomic batch when the wallet can, and follows it to its receipt', async () => {
    const approveTx = { from: user, to: tusd.slice(-42), data: '0x095ea7b3', value: '0', eip155: { gas: '50000', gasPrice: '1' } }
    const tokenSale = { ...swapTx, data: '0x18cbafe5', amount: '0' }
    const { swap, walletRequests, walletRequest, calls, notifications } = setUp({
      getSwapTokens: tokensAnswer,
      getBalance: balanceAnswer,
      getGasPrice: gasAnswer,
      getAllowance: () => ({ allowance: '0' }),
      getSwapQuote: (args: { amount: string }) => ({ quotes: [quoteOf(args.amount, '33000000000000000')] }),
      buildApproveTransaction: () => ({ tx: approveTx }),
      buildSwapTransaction: () => ({ tx: tokenSale, minimumReceived: '32670000000000000', deadline: 1 }),
    })
    let status = { status: 100 } as { status: number; receipts?: { transactionHash: string }[] }
    walletRequest.mockImplementation(async (args: unknown) => {
      walletRequests.push(args)
      const { method } = args as { method: string }
      if (method === 'wallet_getCapabilities') return { '0x7a69': { atomic: { status: 'supported' }, paymasterService: { supported: true } } }
      if (method === 'wallet_sendCalls') return { id: '0xb47c4' }
      if (method === 'wallet_getCallsStatus') return status
      throw new Error(`unexpected ${method}`)
    })
    vi.useFakeTimers()
    try {
      await swap.load()
      swap.choose('from', dollar)
      swap.setAmount('100')
      await swap.refreshQuote()
      expect([swap.needsApproval(), swap.isApprovalBatched()]).toEqual([true, true])
      const swapping = swap.swap()
      await vi.advanceTimersByTimeAsync(0)
      expect(await swapping).toBeUndefined()
      expect(calls.find((c) => c.method === 'buildApproveTransaction')?.args).toEqual({ chainId: 'eip155:31337', amount: '100000000', from: tusd, to: native, userAddress: user })
      expect(walletRequests.filter((r) => (r as { method: string }).method === 'wallet_sendCalls')).toEqual([
        {
          method: 'wallet_sendCalls',
          params: [{ version: '2.0.0', chainId: '0x7a69', from: user, atomicRequired: true, calls: [{ to: approveTx.to, data: '0x095ea7b3', value: '0x0' }, { to: router, data: '0x18cbafe5', value: '0x0' }] }],
        },
      ])
      expect(notifications.store.getState()).toMatchObject({ code: 'TRANSACTION_STARTED' })
      status = { status: 200, receipts: [{ transactionHash: '0xfeed' }] }
      await vi.advanceTimersByTimeAsync(10_000)
      expect(notifications.store.getState()).toMatchObject({ code: 'TRANSACTION_CONFIRMED', variant: 'success' })
      expect(walletRequests).toContainEqual({ method: 'wallet_getCallsStatus', params: ['0xb47c4'] })
    } finally {
      vi.useRealTimers()
    }
  })

  it('asks for the approval on its own when the wallet answers no atomic batching, or nothing in time', async () => {
    for (const capabilities of [{ '0x7a69': { atomic: { status: 'unsupported' } } }, new Promise(() => {})]) {
      const { swap, walletRequest } = setUp({
        getSwapTokens: tokensAnswer,
        getBalance: balanceAnswer,
        getGasPrice: gasAnswer,
        getAllowance: () => ({ allowance: '0' }),
        getSwapQuote: (args: { amount: string }) => ({ quotes: [quoteOf(args.amount, '33000000000000000')] }),
      })
      walletRequest.mockImplementation(async () => await capabilities)
      vi.useFakeTimers()
      try {
        await swap.load()
        swap.choose('from', dollar)
        swap.setAmount('100')
        const quoting = swap.refreshQuote()
        await vi.advanceTimersByTimeAsync(2_000)
        await quoting
        expect([swap.needsApproval(), swap.isApprovalBatched(), swap.store.getState().canBatch]).toEqual([true, false, false])
      } finally {
        vi.useRealTimers()
      }
    }
  })

  it('says a declined request in its own words, and a revert as the price moving past the slippage', async () => {
    const { swap, walletRequest } = await quotedEtherSale()
    walletRequest.mockRejectedValueOnce(Object.assign(new Error('no'), { code: 'USER_REJECTED' }))
    await swap.swap()
    expect(swap.store.getState().error?.code).toBe('USER_REJECTED')
    walletRequest.mockRejectedValueOnce(Object.assign(new Error('execution reverted: UniswapV2Router: INSUFFICIENT_OUTPUT_AMOUNT'), { code: 'EXECUTION_REVERTED' }))
    await swap.swap()
    expect(swap.store.getState().error).toMatchObject({ code: 'SWAP_PRICE_MOVED', message: 'The price moved past your slippage tolerance before the swap went through: nothing was swapped' })
  })

  it('says a swap the chain reverted as the price moving, once the started toast has had its time', async () => {
    vi.useFakeTimers()
    try {
      const { swap, notifications, core } = await quotedEtherSale()
      vi.mocked(core.waitForTransactionReceipt).mockResolvedValueOnce({ status: 'reverted' } as never)
      await swap.swap()
      await vi.advanceTimersByTimeAsync(10_000)
      expect(notifications.store.getState()).toMatchObject({ code: 'SWAP_PRICE_MOVED', variant: 'error' })
    } finally {
      vi.useRealTimers()
    }
  })
})
