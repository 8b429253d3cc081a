import { ParsedMessage } from '@spruceid/siwe-parser'
import { describe, expect, it, vi } from 'vitest'
import type { CoreDataService } from '../core/createCore'
import { createMemoryStorage, createWidgetStorage } from '../storage/createWidgetStorage'
import { createDefaultSiwx } from './siwx'


const address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' as const

describe('default SIWX', () => {
  const setup = (dataService: Partial<CoreDataService> = {}) =>
    createDefaultSiwx({
      dataService: dataService as CoreDataService,
      storage: createWidgetStorage({ storage: createMemoryStorage() }),
      location: { host: 'dapp.test', origin: 'https://dapp.test' },
      now: () => Date.parse('2026-11-22T12:00:00Z'),
    })

  it('writes EIP-4361 messages that the siwe package’s parser accepts, with the nonce the data service issued', async () => {
    const nonce = 'f00d'.repeat(19)
    const message = await setup({ createSessionNonce: async () => ({ nonce, expiresAt: 0 }) }).createMessage({ accountAddress: address, chainId: 31337 })
    const parsed = new ParsedMessage(message)
    expect(parsed).toMatchObject({ domain: 'dapp.test', address, uri: 'https://dapp.test', version: '1', chainId: 31337, statement: 'Sign in with your wallet.', nonce })
    expect(parsed.expirationTime).toBe('2026-11-23T12:00:00.000Z')
  })

  it('stores sessions through the data service and trusts only those it still knows', async () => {
    const createSession = vi.fn().mockResolvedValue({ id: 's1', caipAddress: `eip155:31337:${address}`, expiresAt: null, revoked: false })
    let revoked = false
    const getSession = vi.fn(async () => ({ id: 's1', caipAddress: '', expiresAt: null, revoked }))
    const siwx = setup({ createSession, getSession } as never)
    await siwx.addSession({ caipAddress: `eip155:31337:${address}`, message: 'm', signature: '0xs' })
    expect(createSession).toHaveBeenCalledWith({ message: 'm', signature: '0xs' })
    expect(await siwx.getSessions({ accountAddress: address, chainId: 31337 })).toHaveLength(1)
    expect(await siwx.getSessions({ accountAddress: address, chainId: 1 })).toHaveLength(0)
    revoked = true
    expect(await siwx.getSessions({ accountAddress: address, chainId: 31337 })).toHaveLength(0)
  })
})
