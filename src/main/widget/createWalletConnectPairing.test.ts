import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createStore } from 'zustand/vanilla'
import { createWidgetError } from '../../shared/protocol/errors'
import type { Pairing } from '../connectors/createWalletConnectConnector'
import { createWalletConnectPairing, initialPairingState, type PairingState } from './createWalletConnectPairing'

function setup() {
  const store = createStore<PairingState>()(() => initialPairingState)
  const answers: { resolve: (v: Awaited<Pairing['approval']>) => void; reject: (e: unknown) => void }[] = []
  let count = 0
  const pair = vi.fn(async (): Promise<Pairing> => {
    const uri = `wc:${++count}@2`
    const approval = new Promise<Awaited<Pairing['approval']>>((resolve, reject) => answers.push({ resolve, reject }))
    return { uri, approval }
  })
  const onApproved = vi.fn()
  const pairing = createWalletConnectPairing({ pair, store, onApproved })
  return { store, pair, pairing, answers, onApproved }
}

describe('WalletConnect pairing lifetime (SPEC §4)', () => {
  beforeEach(() => vi.useFakeTimers({ now: 1_000_000 }))
  afterEach(() => vi.useRealTimers())

  it('shows a URI that lasts 4 minutes and is replaced 10 s before its end, by a fresh one', async () => {
    const { store, pairing, pair } = setup()
    await pairing.start()
    expect(store.getState()).toMatchObject({ wcUri: 'wc:1@2', wcPairingExpiry: 1_000_000 + 240_000 })
    await vi.advanceTimersByTimeAsync(229_999)
    expect(store.getState().wcUri).toBe('wc:1@2')
    await vi.advanceTimersByTimeAsync(1)
    expect(store.getState().wcUri).toBe('wc:2@2')
    expect(store.getState().wcPairingExpiry).toBe(1_000_000 + 230_000 + 240_000)
    expect(pair).toHaveBeenCalledTimes(2)
  })

  it('reuses a live URI when the view comes back, and never pairs twice within a second', async () => {
    const { store, pairing, pair } = setup()
    await pairing.start()
    pairing.pause()
    await vi.advanceTimersByTimeAsync(60_000)
    await pairing.start()
    expect(pair).toHaveBeenCalledTimes(1)
    expect(store.getState().wcUri).toBe('wc:1@2')

    pairing.reset()
    expect(store.getState()).toEqual(initialPairingState)
    await pairing.start()
    expect(pair).toHaveBeenCalledTimes(2)
    pairing.reset()
    await pairing.start()
    expect(pair).toHaveBeenCalledTimes(2)
    await vi.advanceTimersByTimeAsync(1_000)
    expect(pair).toHaveBeenCalledTimes(3)
  })

  it('passes the approval on, and a wallet declining shows an error with no URI', async () => {
    const { store, pairing, answers, onApproved } = setup()
    await pairing.start({ id: 'sample-mobile-wallet', name: 'Sample Mobile Wallet' })
    expect(store.getState().wcWallet).toEqual({ id: 'sample-mobile-wallet', name: 'Sample Mobile Wallet' })
    answers[0]!.reject(createWidgetError('USER_REJECTED'))
    await vi.advanceTimersByTimeAsync(0)
    expect(store.getState()).toMatchObject({ wcUri: undefined, wcError: { code: 'USER_REJECTED', message: 'User rejected the request.' } })

    await vi.advanceTimersByTimeAsync(1_000)
    await pairing.start()
    answers[1]!.resolve({ eip155: { accounts: ['0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'], caipNetworkId: 'eip155:31337' } })
    await vi.advanceTimersByTimeAsync(0)
    expect(onApproved).toHaveBeenCalledWith({ eip155: { accounts: ['0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'], caipNetworkId: 'eip155:31337' } })
  })

  it('says so when the relay cannot be reached', async () => {
    const { store, pairing, pair } = setup()
    pair.mockRejectedValueOnce(createWidgetError('WALLETCONNECT_UNAVAILABLE'))
    await pairing.start()
    expect(store.getState().wcError).toEqual({ code: 'WALLETCONNECT_UNAVAILABLE', message: 'Could not reach the WalletConnect relay' })
  })
})
