import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createWidgetError } from '../../shared/protocol/errors'
import type { TokenBalance } from '../../shared/protocol/schemas/entities'
import { createNotifications } from '../state/createNotifications'
import { checkAmount, createSendForm, maxSendable, parseAmountInput, toAmountInput, toSendErrorNotice, type ReceiverCheck } from './sendForm'

const balance = (symbol: string, decimals: number, numeric: string, address?: string): TokenBalance => ({
  name: symbol,
  symbol,
  chainId: 'eip155:1',
  ...(address ? { address } : {}),
  value: 0,
  price: 0,
  iconUrl: '',
  quantity: { decimals: String(decimals), numeric },
})
const eth = balance('ETH', 18, '5')
const usdc = balance('USDC', 6, '100.5', 'eip155:1:0x00000000000000000000000000000000000000cc')

describe('a typed amount, read as the visitor’s locale writes numbers', () => {
  it.each([
    // English: a point for decimals; commas group thousands where they are well placed.
    ['en', '1.5', '1.5'],
    ['en', ' 1.5 ', '1.5'],
    ['en', '.5', '0.5'],
    ['en', '5.', '5'],
    ['en', '007.50', '7.5'],
    ['en', '1,500', '1500'],
    ['en', '1,000,000.25', '1000000.25'],
    ['en', '1 000.5', '1000.5'],
    ['en', '0', '0'],
    // French: a comma for decimals, and a point read as one too (French does not group with points); spaces group.
    ['fr', '1,5', '1.5'],
    ['fr', '1.5', '1.5'],
    ['fr', '1,500', '1.5'],
    ['fr', '1 500,25', '1500.25'],
    ['fr', '1\u202f500,25', '1500.25'],
    ['fr', '1\u00a0500', '1500'],
    ['en', '1'.repeat(90), '1'.repeat(90)],
  ])('%s: %j is %j', (locale, text, amount) => {
    expect(parseAmountInput(text, locale)).toEqual({ amount })
  })

  it.each([
    ['en', '1,5', 'decimalSeparator'],
    ['en', '12,75', 'decimalSeparator'],
    ['en', '0,500', 'decimalSeparator'],
    ['en', 'abc', 'notANumber'],
    ['en', '1e3', 'notANumber'],
    ['en', '1E3', 'notANumber'],
    ['en', '0x10', 'notANumber'],
    ['en', '1.2.3', 'notANumber'],
    ['en', '1,5.2', 'notANumber'],
    ['en', '1,50,000', 'notANumber'],
    ['en', '+1', 'notANumber'],
    ['en', '.', 'notANumber'],
    ['en', 'Infinity', 'notANumber'],
    ['en', 'NaN', 'notANumber'],
    ['en', '1 50', 'notANumber'],
    ['en', "1'000", 'notANumber'],
    ['en', '-1', 'negative'],
    ['en', '−1.5', 'negative'],
    ['en', '- 2', 'negative'],
    ['fr', '-1,5', 'negative'],
    ['fr', '1,5,2', 'notANumber'],
    ['fr', '1.000.000', 'notANumber'],
    ['fr', '1,5.2', 'notANumber'],
    ['fr', '1e3', 'notANumber'],
    ['fr', 'un', 'notANumber'],
  ])('%s: %j is refused as %s', (locale, text, reason) => {
    expect(parseAmountInput(text, locale)).toEqual({ issue: { reason } })
  })

  it('is nothing for an empty field', () => {
    expect(parseAmountInput('', 'en')).toBeUndefined()
    expect(parseAmountInput('   ', 'fr')).toBeUndefined()
  })

  it('writes an amount back in the locale’s decimal mark', () => {
    expect(toAmountInput('1234.5', 'fr')).toBe('1234,5')
    expect(toAmountInput('1234.5', 'en')).toBe('1234.5')
    expect(parseAmountInput(toAmountInput('0.000001', 'fr'), 'fr')).toEqual({ amount: '0.000001' })
  })
})

describe('what is wrong with an amount, found without any request', () => {
  it.each([
    ['0', eth, undefined, { reason: 'zero' }],
    ['0.000', eth, undefined, { reason: 'zero' }],
    ['1,5', eth, undefined, { reason: 'notANumber' }],
    ['0.0000001', usdc, undefined, { reason: 'tooManyDecimals', symbol: 'USDC', decimals: 6 }],
    ['100.500001', usdc, undefined, { reason: 'overBalance', symbol: 'USDC' }],
    ['100.5000001', usdc, undefined, { reason: 'tooManyDecimals', symbol: 'USDC', decimals: 6 }],
    ['100.51', usdc, undefined, { reason: 'overBalance', symbol: 'USDC' }],
    ['5.000000000000000001', eth, undefined, { reason: 'overBalance', symbol: 'ETH' }],
    ['9'.repeat(90), eth, undefined, { reason: 'overBalance', symbol: 'ETH' }],
    // The native token pays its own fee: an amount that leaves less than the reserve is refused, a token's is not.
    ['4.99', eth, '0.02', { reason: 'noRoomForFee', symbol: 'ETH' }],
    ['5', eth, '0.000042', { reason: 'noRoomForFee', symbol: 'ETH' }],
    ['100.5', usdc, '0.02', undefined],
    ['4.98', eth, '0.02', undefined],
    ['100.5', usdc, undefined, undefined],
    // Trailing zeros are not decimals the token lacks.
    ['100.5000000', usdc, undefined, undefined],
    ['5', eth, undefined, undefined],
    ['1', undefined, undefined, undefined],
    [undefined, eth, undefined, undefined],
    ['', eth, undefined, undefined],
  ])('%j of %o (reserve %s) → %o', (amount, token, feeReserve, issue) => {
    expect(checkAmount(amount, { token, feeReserve })).toEqual(issue)
  })
})

describe('the most the form can send', () => {
  it('is a token’s whole balance, and the native balance less its fee reserve', () => {
    expect(maxSendable({ token: usdc, feeReserve: '0.1' })).toBe('100.5')
    expect(maxSendable({ token: eth, feeReserve: '0.000042' })).toBe('4.999958')
    expect(checkAmount(maxSendable({ token: eth, feeReserve: '0.000042' }), { token: eth, feeReserve: '0.000042' })).toBeUndefined()
  })

  it('waits for the native reserve, and is the balance when the reserve is more (the form then says so)', () => {
    expect(maxSendable({ token: eth, feeReserve: undefined })).toBeUndefined()
    const dust = balance('ETH', 18, '0.00001')
    expect(maxSendable({ token: dust, feeReserve: '0.0001' })).toBe('0.00001')
    expect(checkAmount('0.00001', { token: dust, feeReserve: '0.0001' })).toEqual({ reason: 'noRoomForFee', symbol: 'ETH' })
    expect(maxSendable({ token: undefined, feeReserve: '0' })).toBeUndefined()
  })
})

describe('a failed estimate or send, in our words', () => {
  it.each([
    [createWidgetError('INSUFFICIENT_FUNDS'), 'SEND_FEE_NOT_COVERED'],
    [createWidgetError('EXECUTION_REVERTED'), 'SEND_WOULD_FAIL'],
    [createWidgetError('CONTRACT_FUNCTION_REVERTED'), 'SEND_WOULD_FAIL'],
    [createWidgetError('RPC_TIMEOUT'), 'SEND_FEE_UNAVAILABLE'],
    [createWidgetError('INTERNAL_ERROR'), 'SEND_FEE_UNAVAILABLE'],
    [createWidgetError('USER_REJECTED'), 'USER_REJECTED'],
    [new Error('execution reverted: ERC20: transfer amount exceeds balance'), 'SEND_FEE_UNAVAILABLE'],
  ])('%s → %s', (error, code) => {
    const notice = toSendErrorNotice(error)
    expect(notice.code).toBe(code)
    expect(notice.message).not.toMatch(/ERC20|revert/i)
  })

  it('says a transport failure of a send as the spec’s “Something went wrong”', () => {
    expect(toSendErrorNotice(createWidgetError('RPC_TIMEOUT'), { unreachable: 'SOMETHING_WENT_WRONG' })).toMatchObject({ code: 'SOMETHING_WENT_WRONG', message: 'Something went wrong' })
  })
})

describe('the receiver field', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  const check = (value: string): ReceiverCheck => (value.includes('.') ? 'name' : value.startsWith('0x') ? undefined : { reason: 'badAddress' })
  const setup = (lookupName = vi.fn(async (name: string): Promise<string | undefined> => (name === 'alice.tessera.id' ? '0x00000000000000000000000000000000000000aa' : undefined))) => {
    const form = createSendForm({ notifications: createNotifications(), now: () => 0, checkReceiver: check, lookupName })
    return { form, lookupName, state: () => form.store.getState() }
  }

  it('says at once what the family’s check finds', () => {
    const { form, state, lookupName } = setup()
    form.setReceiver('nope')
    expect(state()).toMatchObject({ receiverIssue: { reason: 'badAddress' }, receiverName: undefined })
    form.setReceiver('0xabc')
    expect(state()).toMatchObject({ receiverIssue: undefined, receiverName: undefined })
    expect(lookupName).not.toHaveBeenCalled()
  })

  it('looks a name up once the field has rested, once, and says when it is unknown', async () => {
    const { form, state, lookupName } = setup()
    for (const prefix of ['b', 'bo', 'bob', 'bob.', 'bob.t']) form.setReceiver(prefix)
    form.setReceiver('bob.tessera.id')
    expect(state().receiverName).toEqual({ name: 'bob.tessera.id', status: 'resolving' })
    await vi.advanceTimersByTimeAsync(399)
    expect(lookupName).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(1)
    expect(lookupName).toHaveBeenCalledTimes(1)
    expect(lookupName).toHaveBeenCalledWith('bob.tessera.id')
    expect(state()).toMatchObject({ receiverName: { name: 'bob.tessera.id', status: 'unknown' }, receiverIssue: { reason: 'unknownName', name: 'bob.tessera.id' } })
  })

  it('keeps a resolved name’s address and profile name; an answer for a name no longer typed is dropped', async () => {
    let answer: (address: string | undefined) => void = () => {}
    const lookupName = vi.fn((name: string) => (name === 'slow.tessera.id' ? new Promise<string | undefined>((resolve) => (answer = resolve)) : Promise.resolve('0x00000000000000000000000000000000000000aa')))
    const { form, state } = setup(lookupName)
    form.setReceiver('slow.tessera.id')
    await vi.advanceTimersByTimeAsync(400)
    form.setReceiver('alice.tessera.id')
    answer(undefined)
    await vi.advanceTimersByTimeAsync(400)
    expect(state()).toMatchObject({
      receiverName: { name: 'alice.tessera.id', status: 'resolved', address: '0x00000000000000000000000000000000000000aa' },
      receiverIssue: undefined,
      receiverProfileName: 'alice.tessera.id',
    })
    await expect(form.resolveReceiver()).resolves.toBe('0x00000000000000000000000000000000000000aa')
  })

  it('says when the name service cannot be asked', async () => {
    const { form, state } = setup(vi.fn().mockRejectedValue(createWidgetError('SERVICE_UNREACHABLE')))
    form.setReceiver('alice.tessera.id')
    await vi.advanceTimersByTimeAsync(400)
    expect(state().receiverIssue).toEqual({ reason: 'nameLookupFailed', name: 'alice.tessera.id' })
    await expect(form.resolveReceiver()).rejects.toMatchObject({ code: 'NAME_RESOLVE_FAILED', field: 'receiverAddress' })
  })

  it('resolves a name at once when sending before the field has rested', async () => {
    const { form, lookupName } = setup()
    form.setReceiver('alice.tessera.id')
    await expect(form.resolveReceiver()).resolves.toBe('0x00000000000000000000000000000000000000aa')
    await vi.advanceTimersByTimeAsync(1_000)
    expect(lookupName).toHaveBeenCalledTimes(1)
  })

  it('stops a pending lookup on reset', async () => {
    const { form, state, lookupName } = setup()
    form.setReceiver('alice.tessera.id')
    form.reset()
    await vi.advanceTimersByTimeAsync(1_000)
    expect(lookupName).not.toHaveBeenCalled()
    expect(state()).toMatchObject({ receiverAddress: undefined, receiverName: undefined })
  })

  it('takes a name as a bad address where the family has no name service', () => {
    const form = createSendForm({ notifications: createNotifications(), now: () => 0, checkReceiver: check })
    form.setReceiver('alice.tessera.id')
    expect(form.store.getState()).toMatchObject({ receiverIssue: { reason: 'badAddress' }, receiverName: undefined })
  })
})

describe('token balances', () => {
  it('moves the chosen token to its new balance when balances are read again', async () => {
    const form = createSendForm({ notifications: createNotifications(), now: () => 0 })
    await form.loadBalances(async () => [eth, usdc])
    form.setToken(form.store.getState().tokenBalances[1])
    const richer = { ...usdc, quantity: { decimals: '6', numeric: '200' } }
    await form.loadBalances(async () => [eth, richer], { force: true })
    expect(form.store.getState()).toMatchObject({ token: richer, hasLoadedBalances: true })
  })

  it('has loaded (with nothing) after a failed read, so the picker stops waiting', async () => {
    const form = createSendForm({ notifications: createNotifications(), now: () => 0 })
    expect(form.store.getState().hasLoadedBalances).toBe(false)
    await form.loadBalances(() => Promise.reject(createWidgetError('TOKEN_BALANCE_UNAVAILABLE')))
    expect(form.store.getState()).toMatchObject({ hasLoadedBalances: true, tokenBalances: [] })
  })
})
