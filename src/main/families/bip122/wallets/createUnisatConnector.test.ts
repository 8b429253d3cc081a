import { base64, hex } from '@scure/base'
import { describe, expect, it, vi } from 'vitest'
import type { WidgetError } from '../../../../shared/protocol/errors'
import { createUnisatConnector, isUnisatProvider, type UnisatProvider } from './createUnisatConnector'

const P2TR = 'bc1p5cyxnuxmeuwuvkwfem96lqzszd02n6xdcjrs20cac6yqjjwudpxqkedrcr'
const P2WPKH = 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu'
const rejection = (promise: Promise<unknown>) => promise.then(() => undefined, (error: WidgetError) => error)
const flush = () => new Promise((resolve) => setTimeout(resolve, 0))

// UniSat's getPublicKey answers the current account's compressed key, for a taproot account too.
const PUBLIC_KEY = '02cc8a4bc64d897bddc5fbc2f670f7a8ba0b386779106cf1223c6fc5d7cd6fc115'
const CHAIN_NETWORKS: Record<string, string> = { BITCOIN_MAINNET: 'livenet', BITCOIN_TESTNET: 'testnet', BITCOIN_TESTNET4: 'testnet', BITCOIN_SIGNET: 'testnet' }

/**
 * A Unisat-style object as UniSat publishes it: one address at a time, errors thrown as `{ code, message }`,
 * `switchChain` with its chain names (and the older `switchNetwork`, livenet or testnet only), `disconnect`, and the
 * accountsChanged and networkChanged events (a chain change is told as networkChanged with the legacy network name).
 */
function fakeUnisat() {
  const state = { accounts: [] as string[], chain: 'BITCOIN_MAINNET', isRejecting: false }
  const listeners = new Map<string, Set<(value: unknown) => void>>()
  const emit = (event: string, value: unknown) => listeners.get(event)?.forEach((listener) => listener(value))
  const refuse = () => Promise.reject({ code: 4001, message: 'User rejected the request.' })
  const provider: UnisatProvider & { getChain: () => Promise<unknown> } = {
    requestAccounts: async () => (state.isRejecting ? refuse() : ((state.accounts = [P2TR]), state.accounts)),
    getAccounts: async () => state.accounts,
    getPublicKey: async () => (state.accounts.length > 0 ? PUBLIC_KEY : ''),
    getNetwork: async () => CHAIN_NETWORKS[state.chain],
    getChain: async () => ({ enum: state.chain, name: state.chain, network: CHAIN_NETWORKS[state.chain] }),
    switchChain: vi.fn(async (chain: string) => {
      if (!(chain in CHAIN_NETWORKS)) throw new Error(`the chain is invalid, supported chains: ${Object.keys(CHAIN_NETWORKS).join(',')}`)
      if (state.isRejecting) return refuse()
      state.chain = chain
      emit('networkChanged', CHAIN_NETWORKS[chain])
      return { enum: chain, name: chain, network: CHAIN_NETWORKS[chain] }
    }),
    switchNetwork: vi.fn(async (network: string) => {
      if (network !== 'livenet' && network !== 'testnet') throw new Error('the network is invalid, supported networks: livenet,testnet')
      state.chain = network === 'livenet' ? 'BITCOIN_MAINNET' : 'BITCOIN_TESTNET'
      emit('networkChanged', network)
      return network
    }),
    disconnect: vi.fn(async () => {
      state.accounts = []
      emit('accountsChanged', [])
    }),
    signPsbt: vi.fn(async (psbtHex: string) => (state.isRejecting ? refuse() : `${psbtHex}ff`)),
    signMessage: vi.fn(async (message: string, type: string) => (state.isRejecting ? refuse() : `${type}:${message}`)),
    on: (event, listener) => void (listeners.get(event) ?? listeners.set(event, new Set()).get(event)!).add(listener),
    removeListener: (event, listener) => void listeners.get(event)?.delete(listener),
  }
  return { provider, state, emit, listenerCount: () => [...listeners.values()].reduce((n, set) => n + set.size, 0) }
}

describe('Unisat-style connector', () => {
  it('knows a Unisat-style object by its methods', () => {
    expect(isUnisatProvider(fakeUnisat().provider)).toBe(true)
    expect(isUnisatProvider({ requestAccounts: () => {} })).toBe(false)
    expect(isUnisatProvider(undefined)).toBe(false)
  })

  it('connects by requestAccounts: the one address is the payment account, with its key; then authorized by getAccounts', async () => {
    const { provider } = fakeUnisat()
    const connector = createUnisatConnector({ provider })
    expect(connector).toMatchObject({ id: 'injected:unisat', name: 'UniSat Wallet', type: 'INJECTED', namespace: 'bip122', kind: 'unisat' })
    expect(await connector.isAuthorized()).toBe(false)
    expect(await connector.connect('mainnet')).toEqual([{ address: P2TR, purpose: 'payment', publicKey: PUBLIC_KEY }])
    expect(await connector.isAuthorized()).toBe(true)
  })

  it('signs a PSBT as hex with autoFinalized off and the inputs named, and answers base64', async () => {
    const { provider } = fakeUnisat()
    const connector = createUnisatConnector({ provider })
    await connector.connect('mainnet')
    const psbtBase64 = base64.encode(Uint8Array.of(0x70, 0x73, 0x62, 0x74))
    expect(await connector.signPsbt({ psbtBase64, address: P2TR, signingIndexes: [0, 1], network: 'mainnet' })).toBe(base64.encode(hex.decode('70736274ff')))
    expect(provider.signPsbt).toHaveBeenCalledWith('70736274', { autoFinalized: false, toSignInputs: [{ index: 0, address: P2TR }, { index: 1, address: P2TR }] })
  })

  it('signs messages with bip322-simple, for its current address only', async () => {
    const { provider } = fakeUnisat()
    const connector = createUnisatConnector({ provider })
    await connector.connect('mainnet')
    expect(await connector.signMessage('hi', P2TR)).toBe('bip322-simple:hi')
    expect(await rejection(connector.signMessage('hi', P2WPKH))).toMatchObject({ code: 'UNAUTHORIZED' })
  })

  it('maps a refusal (4001) to USER_REJECTED, and a signed PSBT that is not hex to WALLET_BAD_RESPONSE', async () => {
    const { provider, state } = fakeUnisat()
    const connector = createUnisatConnector({ provider })
    state.isRejecting = true
    expect(await rejection(connector.connect('mainnet'))).toMatchObject({ code: 'USER_REJECTED' })
    state.isRejecting = false
    await connector.connect('mainnet')
    provider.signPsbt = async () => 'not hex'
    expect(await rejection(connector.signPsbt({ psbtBase64: 'cHNidA==', address: P2TR, signingIndexes: [0], network: 'mainnet' }))).toMatchObject({ code: 'WALLET_BAD_RESPONSE' })
  })

  it('switches network by switchChain in UniSat’s chain names, and follows accountsChanged and networkChanged until stopped', async () => {
    const { provider, state, emit, listenerCount } = fakeUnisat()
    const connector = createUnisatConnector({ provider })
    await connector.connect('mainnet')
    const seen: unknown[] = []
    const stop = connector.watch({ onAccountsChanged: (accounts) => seen.push(accounts[0]!.address), onDisconnect: () => seen.push('disconnect') })
    await flush()
    emit('accountsChanged', [P2WPKH])
    await flush()
    state.accounts = ['tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx']
    await connector.switchNetwork!('testnet')
    await flush()
    expect(provider.switchChain).toHaveBeenCalledWith('BITCOIN_TESTNET')
    expect(provider.switchNetwork).not.toHaveBeenCalled()
    emit('accountsChanged', [])
    await flush()
    stop()
    expect(listenerCount()).toBe(0)
    expect(seen).toEqual([P2WPKH, 'tb1qw508d6qejxtdg4y5r3zarvary0c5xw7kxpjzsx', 'disconnect'])
  })

  it.each([
    ['mainnet', 'BITCOIN_MAINNET'],
    ['testnet', 'BITCOIN_TESTNET'],
    ['signet', 'BITCOIN_SIGNET'],
  ] as const)('asks switchChain for %s as %s', async (network, chain) => {
    const { provider } = fakeUnisat()
    await createUnisatConnector({ provider }).switchNetwork!(network)
    expect(provider.switchChain).toHaveBeenCalledWith(chain)
  })

  it('does not ask for a network UniSat has not (regtest; signet without switchChain), and asks an older wallet by switchNetwork', async () => {
    const { provider } = fakeUnisat()
    expect(await rejection(createUnisatConnector({ provider }).switchNetwork!('regtest'))).toMatchObject({ code: 'CHAIN_NOT_SUPPORTED' })
    expect(provider.switchChain).not.toHaveBeenCalled()
    const older = { ...fakeUnisat().provider, switchChain: undefined }
    const connector = createUnisatConnector({ provider: older })
    await connector.switchNetwork!('mainnet')
    expect(older.switchNetwork).toHaveBeenCalledWith('livenet')
    expect(await rejection(connector.switchNetwork!('signet'))).toMatchObject({ code: 'CHAIN_NOT_SUPPORTED' })
    expect(await rejection(connector.switchNetwork!('regtest'))).toMatchObject({ code: 'CHAIN_NOT_SUPPORTED' })
    expect(older.switchNetwork).toHaveBeenCalledTimes(1)
    const fixed = createUnisatConnector({ provider: { ...older, switchNetwork: undefined } })
    expect(await rejection(fixed.switchNetwork!('testnet'))).toMatchObject({ code: 'UNSUPPORTED_METHOD' })
  })

  it('a refused network switch is USER_REJECTED', async () => {
    const { provider, state } = fakeUnisat()
    state.isRejecting = true
    expect(await rejection(createUnisatConnector({ provider }).switchNetwork!('testnet'))).toMatchObject({ code: 'USER_REJECTED' })
  })

  it('disconnect() ends the site’s access where the wallet has disconnect; an older wallet has nothing to end', async () => {
    const { provider } = fakeUnisat()
    const connector = createUnisatConnector({ provider })
    await connector.connect('mainnet')
    await connector.disconnect()
    expect(provider.disconnect).toHaveBeenCalledTimes(1)
    expect(await connector.isAuthorized()).toBe(false)
    await expect(createUnisatConnector({ provider: { ...fakeUnisat().provider, disconnect: undefined } }).disconnect()).resolves.toBeUndefined()
    const failing = createUnisatConnector({ provider: { ...fakeUnisat().provider, disconnect: async () => Promise.reject({ code: -32603, message: 'Internal error' }) } })
    expect(await rejection(failing.disconnect())).toMatchObject({ code: 'DISCONNECT_FAILED' })
  })
})
