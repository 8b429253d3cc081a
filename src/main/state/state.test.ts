import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createModal, preloadImages } from './createModal'
import { createNotifications } from './createNotifications'
import { createRouter } from './createRouter'
import { embeddedCloseView, resolveOpenView, shouldShowUnsupportedChain } from './views'

describe('resolveOpenView (SPEC §2)', () => {
  it.each([
    [{ isConnected: true, isMobile: false, hasAdapters: true }, 'Account'],
    [{ isConnected: false, isMobile: false, hasAdapters: true }, 'Connect'],
    [{ isConnected: false, isMobile: true, hasAdapters: false }, 'AllWallets'],
    [{ isConnected: false, isMobile: false, hasAdapters: false }, 'ConnectingWalletConnectBasic'],
    [{ isConnected: true, isMobile: false, hasAdapters: true, requestedView: 'Networks' as const }, 'Networks'],
  ])('%o → %s', (parameters, view) => {
    expect(resolveOpenView(parameters)).toBe(view)
  })

  it('closes to Account when connected, Connect otherwise, in embedded mode', () => {
    expect(embeddedCloseView(true)).toBe('Account')
    expect(embeddedCloseView(false)).toBe('Connect')
  })
})

describe('shouldShowUnsupportedChain (SPEC §2)', () => {
  const base = {
    activeCaipNetworkId: 'eip155:5',
    requestedCaipNetworkIds: ['eip155:1'],
    enableNetworkSwitch: true,
    allowUnsupportedChain: false,
    isBasicWalletConnect: false,
  }
  it('opens when all four conditions hold', () => expect(shouldShowUnsupportedChain(base)).toBe(true))
  it.each([
    ['the network is requested', { activeCaipNetworkId: 'eip155:1' }],
    ['switching is disabled', { enableNetworkSwitch: false }],
    ['unsupported chains are allowed', { allowUnsupportedChain: true }],
    ['a basic wallet connection is active', { isBasicWalletConnect: true }],
    ['there is no active network', { activeCaipNetworkId: undefined }],
  ])('does not open when %s', (_name, change) => expect(shouldShowUnsupportedChain({ ...base, ...change })).toBe(false))
})

describe('router', () => {
  it('pushes, replaces, goes back and resets', () => {
    const router = createRouter()
    router.push('ConnectingExternal', { connectorId: 'dev' })
    expect(router.store.getState()).toMatchObject({ view: 'ConnectingExternal', data: { connectorId: 'dev' } })
    router.replace('Account')
    expect(router.store.getState().history.map((r) => r.view)).toEqual(['Connect', 'Account'])
    router.goBack()
    expect(router.store.getState().view).toBe('Connect')
    router.goBack()
    expect(router.store.getState().view).toBe('Connect')
    router.push('Send')
    router.reset('Account')
    expect(router.canGoBack()).toBe(false)
  })
})

describe('timed rules', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())

  it('re-shows a toast 150 ms after closing the open one', () => {
    const toasts = createNotifications()
    toasts.show('Transaction started')
    expect(toasts.store.getState()).toMatchObject({ open: true, message: 'Transaction started' })
    toasts.show('Token Balance Unavailable', { variant: 'error' })
    expect(toasts.store.getState()).toMatchObject({ open: false, message: 'Transaction started' })
    vi.advanceTimersByTime(149)
    expect(toasts.store.getState().open).toBe(false)
    vi.advanceTimersByTime(1)
    expect(toasts.store.getState()).toMatchObject({ open: true, message: 'Token Balance Unavailable', variant: 'error' })
  })

  it('closes an auto-closing toast by itself, and keeps a sticky one', () => {
    const toasts = createNotifications({ autoCloseMs: 1_000 })
    toasts.show('Authenticating...', { variant: 'loading', autoClose: false })
    vi.advanceTimersByTime(5_000)
    expect(toasts.store.getState().open).toBe(true)
    toasts.close()
    toasts.show('Transaction started')
    vi.advanceTimersByTime(1_000)
    expect(toasts.store.getState().open).toBe(false)
  })

  it('resets shake after 500 ms', () => {
    const modal = createModal()
    modal.shake()
    vi.advanceTimersByTime(499)
    expect(modal.store.getState().shake).toBe(true)
    vi.advanceTimersByTime(1)
    expect(modal.store.getState().shake).toBe(false)
  })

  it('stays loading while images preload, for at most 2,000 ms', async () => {
    const modal = createModal()
    const never = () => new Promise(() => {})
    const opening = modal.open({ preload: () => preloadImages(['a.png', 'b.png'], { load: never }) })
    expect(modal.store.getState()).toMatchObject({ open: true, loading: true })
    await vi.advanceTimersByTimeAsync(1_999)
    expect(modal.store.getState().loading).toBe(true)
    await vi.advanceTimersByTimeAsync(1)
    await opening
    expect(modal.store.getState().loading).toBe(false)
  })

  it('stops waiting as soon as every image loaded', async () => {
    let loaded = 0
    await preloadImages(['a', 'b'], { load: async () => loaded++ })
    expect(loaded).toBe(2)
  })
})
