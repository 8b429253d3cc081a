import { afterEach, describe, expect, it, vi } from 'vitest'
import { encodeSs58 } from '../../../../shared/families/polkadot/address'
import { errorTable } from '../../../../shared/protocol/errorTable'
import type { PolkadotSignerPayload } from '../../../../shared/families/polkadot/coreApi'
import { createInjectedWeb3Connector, extensionName, toInjectedAccounts } from './createInjectedWeb3Connector'
import type { Injected, InjectedAccount } from './injectedWeb3'

const ALICE = encodeSs58(new Uint8Array(32).fill(1), 42)
const BOB = encodeSs58(new Uint8Array(32).fill(2), 42)
const SIGNATURE = `0x01${'ab'.repeat(64)}` as const

/** An extension as polkadot{.js} injects one: enable(origin), then accounts (get, subscribe) and a signer. */
function fakeExtension({ accounts = [{ address: ALICE, name: 'Alice' }] as InjectedAccount[] } = {}) {
  let current = accounts
  const listeners = new Set<(accounts: InjectedAccount[]) => void>()
  const injected: Injected = {
    accounts: {
      get: vi.fn(async () => current),
      subscribe: vi.fn((listener: (accounts: InjectedAccount[]) => void) => {
        listeners.add(listener)
        void listener(current)
        return () => void listeners.delete(listener)
      }),
    },
    signer: {
      signPayload: vi.fn(async () => ({ id: 1, signature: SIGNATURE })),
      signRaw: vi.fn(async () => ({ id: 2, signature: SIGNATURE })),
    },
  }
  const provider = { enable: vi.fn(async () => injected), version: '0.1.0' }
  return {
    provider,
    injected,
    setAccounts(next: InjectedAccount[]) {
      current = next
      for (const listener of listeners) listener(next)
    },
  }
}

const payload = { address: ALICE, method: '0x0a03' } as unknown as PolkadotSignerPayload

describe('createInjectedWeb3Connector', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('connects with enable(appName) and answers the extension’s accounts', async () => {
    const { provider } = fakeExtension()
    const connector = createInjectedWeb3Connector({ key: 'polkadot-js', provider, appName: 'Tessera demo dApp' })
    expect(connector).toMatchObject({ id: 'injectedWeb3:polkadot-js', name: 'polkadot{.js}', type: 'INJECTED', namespace: 'polkadot' })
    expect(await connector.connect()).toEqual([{ address: ALICE, name: 'Alice', genesisHash: null }])
    expect(provider.enable).toHaveBeenCalledWith('Tessera demo dApp')
  })

  it.each([
    ['a plain Error (polkadot{.js} closing its prompt)', new Error('Cancelled'), 'USER_REJECTED' as const],
    ['a string', 'Rejected', 'USER_REJECTED' as const],
    ['code 4001', Object.assign(new Error('User rejected'), { code: 4001 }), 'USER_REJECTED' as const],
    ['code 4100', Object.assign(new Error('Not allowed'), { code: 4100 }), 'UNAUTHORIZED' as const],
  ])('maps a refused enable (%s) to its code, never to the extension’s words', async (_name, thrown, code) => {
    const provider = { enable: vi.fn(async () => Promise.reject(thrown)) }
    const connector = createInjectedWeb3Connector({ key: 'talisman', provider, appName: 'dApp' })
    const error = await connector.connect().catch((e: unknown) => e)
    // What a person reads is the widget's sentence; the extension's words stay in details.
    expect(error).toMatchObject({ code, shortMessage: errorTable[code].message })
  })

  it('refuses a connection that shares no account, and an answer without accounts or signer', async () => {
    const empty = createInjectedWeb3Connector({ key: 'a', provider: fakeExtension({ accounts: [] }).provider, appName: 'dApp' })
    await expect(empty.connect()).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
    const broken = createInjectedWeb3Connector({ key: 'b', provider: { enable: async () => ({}) as Injected }, appName: 'dApp' })
    await expect(broken.connect()).rejects.toMatchObject({ code: 'WALLET_BAD_RESPONSE' })
  })

  it('signs payloads and raw data through the extension’s signer, and checks what it answers', async () => {
    const { provider, injected } = fakeExtension()
    const connector = createInjectedWeb3Connector({ key: 'polkadot-js', provider, appName: 'dApp' })
    await expect(connector.signPayload(payload)).rejects.toMatchObject({ code: 'UNAUTHORIZED' })
    await connector.connect()
    expect(connector.canSignPayload()).toBe(true)
    expect(await connector.signPayload(payload)).toBe(SIGNATURE)
    expect(injected.signer.signPayload).toHaveBeenCalledWith(payload)
    expect(await connector.signRaw({ address: ALICE, data: '0x68656c6c6f', type: 'bytes' })).toBe(SIGNATURE)
    vi.mocked(injected.signer.signRaw!).mockResolvedValueOnce({ id: 3, signature: '0x1234' })
    await expect(connector.signRaw({ address: ALICE, data: '0x00', type: 'bytes' })).rejects.toMatchObject({ code: 'WALLET_BAD_RESPONSE' })
    vi.mocked(injected.signer.signPayload!).mockRejectedValueOnce(new Error('Cancelled'))
    await expect(connector.signPayload(payload)).rejects.toMatchObject({ code: 'USER_REJECTED', shortMessage: 'User rejected the request.' })
  })

  it('says an extension without signPayload does not offer it', async () => {
    const { provider, injected } = fakeExtension()
    delete injected.signer.signPayload
    const connector = createInjectedWeb3Connector({ key: 'x', provider, appName: 'dApp' })
    await connector.connect()
    expect(connector.canSignPayload()).toBe(false)
    await expect(connector.signPayload(payload)).rejects.toMatchObject({ code: 'UNSUPPORTED_METHOD' })
  })

  it('bounds every wait: a prompt left unanswered times out, and reconnect does not wait on a prompt', async () => {
    vi.useFakeTimers()
    const provider = { enable: vi.fn(() => new Promise<Injected>(() => {})) }
    const connector = createInjectedWeb3Connector({ key: 'slow', provider, appName: 'dApp', promptTimeoutMs: 60_000, authorizeTimeoutMs: 3_000 })
    const authorized = connector.isAuthorized()
    await vi.advanceTimersByTimeAsync(3_000)
    expect(await authorized).toBe(false)
    const connecting = connector.connect().catch((e: unknown) => e)
    await vi.advanceTimersByTimeAsync(60_000)
    expect(await connecting).toMatchObject({ code: 'RPC_TIMEOUT' })
  })

  it('is authorized when the extension lets the site in again with accounts', async () => {
    const connector = createInjectedWeb3Connector({ key: 'polkadot-js', provider: fakeExtension().provider, appName: 'dApp' })
    expect(await connector.isAuthorized()).toBe(true)
    expect(await connector.getAccounts()).toHaveLength(1)
    await connector.disconnect()
    expect(await connector.getAccounts()).toEqual([])
  })

  it('follows account changes, and an empty list as a disconnect; stops when asked', async () => {
    const extension = fakeExtension()
    const connector = createInjectedWeb3Connector({ key: 'polkadot-js', provider: extension.provider, appName: 'dApp' })
    await connector.connect()
    const onAccountsChanged = vi.fn()
    const onDisconnect = vi.fn()
    const stop = connector.watch({ onAccountsChanged, onDisconnect })
    await Promise.resolve()
    extension.setAccounts([{ address: ALICE, name: 'Alice' }])
    expect(onAccountsChanged).not.toHaveBeenCalled()
    extension.setAccounts([{ address: BOB }])
    expect(onAccountsChanged).toHaveBeenCalledWith([{ address: BOB, genesisHash: null }])
    extension.setAccounts([])
    expect(onDisconnect).toHaveBeenCalledTimes(1)
    stop()
    extension.setAccounts([{ address: ALICE }])
    expect(onAccountsChanged).toHaveBeenCalledTimes(1)
  })
})

describe('toInjectedAccounts', () => {
  it('keeps SS58 account addresses only, with a well-formed genesis hash', () => {
    const genesis = `0x${'45'.repeat(32)}`
    expect(
      toInjectedAccounts([
        { address: ALICE, genesisHash: genesis.toUpperCase().replace('0X', '0x'), name: 'Alice', type: 'sr25519' },
        { address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', type: 'ethereum' },
        { address: `${ALICE.slice(0, -1)}x` },
        { address: BOB, genesisHash: 'not a hash' },
        null,
      ]),
    ).toEqual([
      { address: ALICE, genesisHash: genesis, name: 'Alice', type: 'sr25519' },
      { address: BOB, genesisHash: null },
    ])
    expect(toInjectedAccounts('nope')).toEqual([])
  })
})

describe('extensionName', () => {
  it('names known extensions, and others by their key’s words', () => {
    expect(extensionName('polkadot-js')).toBe('polkadot{.js}')
    expect(extensionName('subwallet-js')).toBe('SubWallet')
    expect(extensionName('tessera-dev-polkadot')).toBe('Tessera Dev Polkadot')
  })
})
