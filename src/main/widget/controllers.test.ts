import { describe, expect, it, vi } from 'vitest'
import { toHex } from 'viem'
import { createWidgetError } from '../../shared/protocol/errors'
import type { Transaction } from '../../shared/protocol/schemas/entities'
import type { Core } from '../core/createCore'
import { createNotifications } from '../state/createNotifications'
import { createRouter } from '../state/createRouter'
import type { Analytics } from './createAnalytics'
import { createHistoryController } from './createHistoryController'
import { createNamesController } from './createNamesController'

const tx = (id: string, chain: string): Transaction => ({
  id,
  metadata: { operationType: 'send', hash: `0x${id}`, minedAt: '2026-11-01T00:00:00Z', sentFrom: '0xa', sentTo: '0xb', status: 'confirmed', chain },
  transfers: [{ fungible_info: { symbol: 'TSR' }, quantity: { numeric: '1.5' } }],
})

const coreWith = (dataService: Record<string, unknown>) => ({ dataService } as unknown as Core)

describe('history controller', () => {
  it('pages with the cursor, keeping only the connected chain', async () => {
    const getTransactionHistory = vi
      .fn()
      .mockResolvedValueOnce({ data: [tx('1', 'eip155:1'), tx('2', 'eip155:10')], next: 'c1' })
      .mockResolvedValueOnce({ data: [tx('3', 'eip155:1')], next: null })
    const history = createHistoryController({ core: coreWith({ getTransactionHistory }), notifications: createNotifications(), analytics: { track: vi.fn() } as unknown as Analytics, projectId: 'p' })
    await history.fetch({ accountAddress: '0xa', caipNetworkId: 'eip155:1' })
    await history.fetch({ accountAddress: '0xa', caipNetworkId: 'eip155:1', more: true })
    expect(getTransactionHistory.mock.calls.map((c) => c[0].cursor)).toEqual([undefined, 'c1'])
    expect(history.store.getState()).toMatchObject({ next: undefined, empty: false, loading: false })
    expect(history.store.getState().transactions.map((t) => t.id)).toEqual(['1', '3'])
    expect(Object.keys(history.store.getState().transactionsByYear[2026]!)).toEqual(['11'])
  })

  it("shows 'Failed to fetch transactions', tracks the error and marks the list empty", async () => {
    const notifications = createNotifications()
    const show = vi.spyOn(notifications, 'show')
    const track = vi.fn()
    const history = createHistoryController({ core: coreWith({ getTransactionHistory: vi.fn().mockRejectedValue(new Error('down')) }), notifications, analytics: { track } as unknown as Analytics, projectId: 'p' })
    await history.fetch({ accountAddress: '0xa', caipNetworkId: 'eip155:1' })
    expect(history.store.getState()).toMatchObject({ empty: true, next: undefined, loading: false })
    expect(show).toHaveBeenCalledTimes(1)
    expect(notifications.store.getState()).toMatchObject({ open: true, variant: 'error', code: 'FETCH_TRANSACTIONS_FAILED', message: 'Failed to fetch transactions' })
    expect(track).toHaveBeenCalledWith('ERROR_FETCH_TRANSACTIONS', { address: '0xa', projectId: 'p', cursor: undefined, isSmartAccount: false })
  })

  it('needs an account address', async () => {
    const history = createHistoryController({ core: coreWith({}), notifications: createNotifications(), analytics: { track: vi.fn() } as unknown as Analytics, projectId: 'p' })
    await expect(history.fetch({ accountAddress: undefined, caipNetworkId: 'eip155:1' })).rejects.toThrow("Transactions can't be fetched without an accountAddress")
  })
})

describe('names controller', () => {
  it('signs {name, attributes: {}, timestamp in seconds, coinType} and registers it with the same coin type', async () => {
    const registerName = vi.fn().mockResolvedValue({ success: true })
    const walletRequest = vi.fn().mockResolvedValue('0xsig')
    const router = createRouter('RegisterAccountName')
    const names = createNamesController({ core: coreWith({ registerName }), router, getAddress: () => '0x00000000000000000000000000000000000000aa', walletRequest, now: () => 1_700_000_000_999 })
    expect(await names.register('alice')).toBe(true)
    const message = JSON.stringify({ name: 'alice', attributes: {}, timestamp: 1_700_000_000, coinType: 60 })
    expect(registerName).toHaveBeenCalledWith({ name: 'alice', coinType: 60, address: '0x00000000000000000000000000000000000000aa', message, signature: '0xsig' })
    expect(walletRequest.mock.calls[0]![0]).toEqual({ method: 'personal_sign', params: [toHex(message), '0x00000000000000000000000000000000000000aa'] })
    expect(router.store.getState()).toMatchObject({ view: 'RegisterAccountNameSuccess', data: { name: 'alice' } })
  })

  it("signs the account's chain into the message, where the data service checks a smart account's signature", async () => {
    const registerName = vi.fn().mockResolvedValue({ success: true })
    const walletRequest = vi.fn().mockResolvedValue('0xsig')
    const names = createNamesController({ core: coreWith({ registerName }), router: createRouter('RegisterAccountName'), getAddress: () => '0x00000000000000000000000000000000000000aa', getChainId: () => 31337, walletRequest, now: () => 1_700_000_000_999 })
    expect(await names.register('alice')).toBe(true)
    expect(registerName.mock.calls[0]![0].message).toBe(JSON.stringify({ name: 'alice', attributes: {}, timestamp: 1_700_000_000, coinType: 60, chainId: 31337 }))
  })

  it('returns to the register view with the server’s first reason', async () => {
    const registerName = vi.fn().mockRejectedValue(createWidgetError('NAME_REGISTER_FAILED', { params: { name: 'alice' }, details: 'registerName: alice.tessera.id is already registered' }))
    const router = createRouter('RegisterAccountName')
    const names = createNamesController({ core: coreWith({ registerName }), router, getAddress: () => '0x00000000000000000000000000000000000000aa', walletRequest: vi.fn().mockResolvedValue('0x') })
    expect(await names.register('alice')).toBe(false)
    expect(names.store.getState().error).toEqual({
      reason: 'failed',
      error: { code: 'NAME_REGISTER_FAILED', params: { name: 'alice' }, message: 'Error registering name alice' },
      details: 'alice.tessera.id is already registered',
    })
    expect(router.store.getState().view).toBe('RegisterAccountName')
  })
})
