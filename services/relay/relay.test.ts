import { SignClient } from '@walletconnect/sign-client'
import { privateKeyToAccount } from 'viem/accounts'
import { hexToString } from 'viem'
import WebSocket from 'ws'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { freePorts } from '../stack/ports'
import { createRelay, type Relay } from './createRelay'
import { createClientJwt } from './testing/createClientJwt'
import { memoryStorage } from './testing/createNodeWallet'
import { relayStoreCases } from './testing/relayStoreCases'

const account = privateKeyToAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80')
const metadata = (name: string) => ({ name, description: name, url: 'http://127.0.0.1', icons: [] })

describe.each(relayStoreCases())('local WalletConnect relay with real sign clients (%s store)', (storeName, store) => {
  let relay: Relay
  beforeAll(async () => {
    relay = createRelay({ port: (await freePorts()).api, store: store() })
    await relay.ready
  })
  afterAll(() => relay.close())

  const client = (name: string) =>
    SignClient.init({ projectId: 'tessera-local', relayUrl: relay.url, metadata: metadata(name), storage: memoryStorage() as never, telemetryEnabled: false, logger: 'silent', customStoragePrefix: `${name}-${storeName}` } as never)

  it('pairs a dApp and a wallet, approves eip155 accounts, carries a personal_sign, and a disconnect', async () => {
    const [dapp, wallet] = await Promise.all([client('dApp'), client('Wallet')])
    wallet.on('session_proposal', async ({ id, params }) => {
      await wallet.approve({
        id,
        namespaces: {
          eip155: { accounts: [`eip155:31337:${account.address}`], methods: params.requiredNamespaces.eip155?.methods ?? ['personal_sign'], events: ['accountsChanged', 'chainChanged'], chains: ['eip155:31337'] },
        },
      })
    })
    wallet.on('session_request', async ({ id, topic, params }) => {
      const [message] = params.request.params as [`0x${string}`]
      const signature = await account.signMessage({ message: hexToString(message) })
      await wallet.respond({ topic, response: { id, jsonrpc: '2.0', result: signature } })
    })
    const started = Date.now()
    const { uri, approval } = await dapp.connect({ requiredNamespaces: { eip155: { methods: ['personal_sign'], chains: ['eip155:31337'], events: ['accountsChanged'] } } })
    expect(uri).toMatch(/^wc:[0-9a-f]{64}@2\?/)
    await wallet.pair({ uri: uri! })
    const session = await approval()
    expect(session.namespaces.eip155!.accounts).toEqual([`eip155:31337:${account.address}`])
    expect(Date.now() - started).toBeLessThan(10_000)

    const signature = await dapp.request<string>({ topic: session.topic, chainId: 'eip155:31337', request: { method: 'personal_sign', params: ['0x68656c6c6f', account.address] } })
    expect(await account.signMessage({ message: 'hello' })).toBe(signature)

    const deleted = new Promise((resolve) => dapp.on('session_delete', resolve))
    await wallet.disconnect({ topic: session.topic, reason: { code: 6000, message: 'User disconnected.' } })
    await deleted
    await Promise.all([dapp.core.relayer.transportClose(), wallet.core.relayer.transportClose()])
  }, 30_000)

  it('answers a health check (and readiness) over plain HTTP, and any other plain request with 426 Upgrade Required', async () => {
    const base = relay.url.replace('ws:', 'http:')
    const health = await fetch(`${base}/health`)
    expect(health.status).toBe(200)
    expect(await health.json()).toMatchObject({ status: 'ok', service: 'tessera-relay' })
    expect((await fetch(`${base}/ready`)).status).toBe(200)
    expect((await fetch(`${base}/`)).status).toBe(426)
  })

  it('answers malformed frames with JSON-RPC errors and keeps serving', async () => {
    const jwt = createClientJwt({ aud: relay.url })
    const socket = new WebSocket(`${relay.url}/?auth=${jwt}`)
    await new Promise((resolve) => socket.on('open', resolve))
    const replies: unknown[] = []
    socket.on('message', (data) => replies.push(JSON.parse(data.toString())))
    socket.send('{not json')
    socket.send(JSON.stringify({ jsonrpc: '2.0', method: 'irn_publish' }))
    socket.send(JSON.stringify({ id: 1, jsonrpc: '2.0', method: 'irn_steal' }))
    socket.send(JSON.stringify({ id: 2, jsonrpc: '2.0', method: 'irn_subscribe', params: { topic: 'short' } }))
    socket.send(JSON.stringify({ id: 3, jsonrpc: '2.0', method: 'irn_subscribe', params: { topic: 'a'.repeat(64) } }))
    await expect.poll(() => replies.length).toBe(5)
    expect(replies).toMatchObject([
      { id: null, error: { code: -32700 } },
      { id: null, error: { code: -32600 } },
      { id: 1, error: { code: -32601, message: 'Method not found: irn_steal' } },
      { id: 2, error: { code: -32602, message: 'topic: expected 64 hex characters' } },
      { id: 3, result: expect.stringMatching(/^[0-9a-f]{64}$/) },
    ])
    socket.close()
  })

  const nowS = () => Math.floor(Date.now() / 1_000)
  it.each<[string, (aud: string) => string, string]>([
    ['no JWT', () => 'not-a-jwt', 'auth: not a JWT (three dot-separated parts expected)'],
    ['an expired JWT', (aud) => createClientJwt({ aud, claims: { iat: 0, exp: 1 } }), 'auth: the JWT has expired'],
    ['a JWT with a forged signature', (aud) => `${createClientJwt({ aud }).split('.').slice(0, 2).join('.')}.${createClientJwt({ aud }).split('.')[2]}`, 'auth: bad signature'],
    ['a JWT for another relay', () => createClientJwt({ aud: 'wss://relay.walletconnect.org' }), "auth: aud must be this relay's URL (RELAY)"],
    ['a JWT without aud', (aud) => createClientJwt({ aud, claims: { aud: undefined } }), "auth: aud must be this relay's URL (RELAY)"],
    ['a JWT issued in the future', (aud) => createClientJwt({ aud, nowS: nowS() + 120 }), 'auth: iat is in the future (more than 60 s ahead)'],
    ['a JWT without iat', (aud) => createClientJwt({ aud, claims: { iat: undefined } }), 'auth: iat must be a number (seconds)'],
    ['a JWT with a string iat', (aud) => createClientJwt({ aud, claims: { iat: String(nowS()) } }), 'auth: iat must be a number (seconds)'],
    ['a JWT valid for more than a day', (aud) => createClientJwt({ aud, claims: { exp: nowS() + 86_401 } }), 'auth: exp is more than 86400 s after iat'],
    ['a JWT without exp', (aud) => createClientJwt({ aud, claims: { exp: undefined } }), 'auth: exp must be a number (seconds)'],
  ])('refuses a client with %s (4001 and the reason)', async (_name, jwt, reason) => {
    const socket = new WebSocket(`${relay.url}/?auth=${jwt(relay.url)}`)
    const closed = await new Promise<{ code: number; reason: string }>((resolve) => socket.on('close', (code, why) => resolve({ code, reason: why.toString() })))
    expect(closed).toEqual({ code: 4001, reason: reason.replace('RELAY', relay.url) })
  })

  it('accepts a JWT whose aud is the relay URL with a trailing slash, or was issued a little in the future', async () => {
    for (const jwt of [createClientJwt({ aud: `${relay.url}/` }), createClientJwt({ aud: relay.url, nowS: nowS() + 50 })]) {
      const socket = new WebSocket(`${relay.url}/?auth=${jwt}`)
      await new Promise((resolve, reject) => {
        socket.on('open', resolve)
        socket.on('close', (code, why) => reject(new Error(`${code} ${why.toString()}`)))
      })
      socket.send(JSON.stringify({ id: 1, jsonrpc: '2.0', method: 'irn_subscribe', params: { topic: 'b'.repeat(64) } }))
      expect(await new Promise((resolve) => socket.once('message', (data) => resolve(JSON.parse(data.toString()))))).toMatchObject({ id: 1, result: expect.any(String) })
      socket.close()
    }
  })
})
