import { createServer } from 'node:net'
import { createPublicClient, http, numberToHex, pad, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { createSiweMessage } from 'viem/siwe'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAnvil } from '../chain/anvil'
import { devFarcasterAccounts } from '../oidc/devAccounts'
import { createCustodyResolver, ID_REGISTRY_ADDRESS, verifySignInWithFarcaster } from './farcaster'
import { FRAME_ORIGIN, startAuthTestbed, type AuthTestbed } from './testing/startAuthTestbed'

const [alice, bob] = devFarcasterAccounts as [(typeof devFarcasterAccounts)[0], (typeof devFarcasterAccounts)[0]]
const domain = new URL(FRAME_ORIGIN).host

describe('Sign In With Farcaster through the local relay', () => {
  let bed: AuthTestbed
  beforeAll(async () => {
    bed = await startAuthTestbed()
  }, 60_000)
  afterAll(async () => {
    await bed?.stop()
  })

  const start = async () => {
    const started = await bed.call('/v1/farcaster/start', { body: {} })
    expect(started.status).toBe(200)
    const url = new URL(started.json.url as string)
    return { flowId: started.json.flowId as string, url, channelToken: url.searchParams.get('channelToken')!, nonce: url.searchParams.get('nonce')! }
  }

  /** What a Farcaster client does when it signs: sends its message and signature to the relay's channel. */
  const authenticate = async (channelToken: string, { message, signature, fid }: { message: string; signature: Hex; fid: number }) => {
    const response = await fetch(`${bed.idp!.farcasterRelayUrl}/v1/channel/authenticate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${channelToken}` },
      body: JSON.stringify({ message, signature, fid, username: 'someone' }),
    })
    expect(response.status).toBe(201)
  }
  const siwf = (overrides: Partial<Parameters<typeof createSiweMessage>[0]> & { nonce: string }, account = alice) =>
    createSiweMessage({ domain, address: account.custodyAddress, statement: 'Farcaster Auth', uri: FRAME_ORIGIN, version: '1', chainId: 10, issuedAt: new Date(), resources: [`farcaster://fid/${account.fid}`], ...overrides })

  it('waits while the person has not signed, then opens a session for the fid the custody key signed for', async () => {
    const { flowId, url, nonce } = await start()
    expect(`${url.origin}${url.pathname}`).toBe(`${bed.idp!.farcasterRelayUrl}/connect`)
    expect(nonce).toMatch(/^[A-Za-z0-9]{24}$/)
    expect(url.searchParams.get('domain')).toBe(domain)
    expect((await bed.call('/v1/farcaster/complete', { body: { flowId } })).json).toEqual({ state: 'pending' })

    // The dev Farcaster client's page, as the person sees it on their phone.
    const page = await (await fetch(url)).text()
    expect(page).toContain(`<strong>${domain}</strong> asks you to sign in with your Farcaster account.`)
    const completing = bed.call('/v1/farcaster/complete', { body: { flowId } })
    const signed = await fetch(`${bed.idp!.farcasterRelayUrl}/connect`, { method: 'POST', body: new URLSearchParams({ channelToken: url.searchParams.get('channelToken')!, fid: String(alice.fid) }) })
    expect(await signed.text()).toContain('Signed in as @alice.')
    // The wait that was open when the person signed answers (or, on a slow machine, the frame asks again).
    let completed = await completing
    for (let retries = 0; completed.json.state === 'pending' && retries < 5; retries++) completed = await bed.call('/v1/farcaster/complete', { body: { flowId } })
    expect(completed.status).toBe(200)
    expect(completed.json).toMatchObject({ state: 'completed', fid: alice.fid, isNewUser: true, token: expect.stringMatching(/^[\w-]{43}$/), user: { authProvider: 'farcaster', userName: 'alice', email: null } })
    expect((await bed.call('/v1/session', { token: completed.json.token as string })).json).toMatchObject({ user: { authProvider: 'farcaster' } })
    // Finished once.
    expect((await bed.call('/v1/farcaster/complete', { body: { flowId } })).json.error).toMatchObject({ code: 'AUTH_FLOW_EXPIRED' })
  })

  it('opens the same account for the same fid next time', async () => {
    const ids = []
    for (let i = 0; i < 2; i++) {
      const { flowId, channelToken } = await start()
      await fetch(`${bed.idp!.farcasterRelayUrl}/connect`, { method: 'POST', body: new URLSearchParams({ channelToken, fid: String(bob.fid) }) })
      ids.push(((await bed.call('/v1/farcaster/complete', { body: { flowId } })).json.user as { id: string }).id)
    }
    expect(ids[0]).toBe(ids[1])
  })

  it.each([
    ['for another domain', 'the message is for domain evil.example', (nonce: string) => ({ message: siwf({ nonce, domain: 'evil.example' }), account: alice })],
    ['with another nonce', 'the nonce is not the one', () => ({ message: siwf({ nonce: 'ReplayedNonce1234567890' }), account: alice })],
    ['for another URI', 'the message names another URI', (nonce: string) => ({ message: siwf({ nonce, uri: 'https://evil.example' }), account: alice })],
    ['with another statement', 'the statement is not', (nonce: string) => ({ message: siwf({ nonce, statement: 'Sign in' }), account: alice })],
    ['for another chain', 'the version or chain id', (nonce: string) => ({ message: siwf({ nonce, chainId: 1 }), account: alice })],
    ['already expired', 'expired or not yet valid', (nonce: string) => ({ message: siwf({ nonce, expirationTime: new Date(Date.now() - 1_000) }), account: alice })],
    ['issued long before this sign-in', 'was not issued during this sign-in', (nonce: string) => ({ message: siwf({ nonce, issuedAt: new Date(Date.now() - 3_600_000) }), account: alice })],
    ['by a key that is not the fid’s custody', 'is not the custody address of fid', (nonce: string) => ({ message: siwf({ nonce, address: bob.custodyAddress }), account: bob, fid: alice.fid, resources: [`farcaster://fid/${alice.fid}`] })],
  ] as const)('refuses a message %s', async (_name, reason, build) => {
    const { flowId, channelToken, nonce } = await start()
    const built = build(nonce) as { message: string; account: typeof alice; fid?: number; resources?: string[] }
    const message = built.resources ? siwf({ nonce, address: built.account.custodyAddress, resources: built.resources }) : built.message
    const signature = await privateKeyToAccount(built.account.custodyPrivateKey).signMessage({ message })
    await authenticate(channelToken, { message, signature, fid: built.fid ?? built.account.fid })
    const refused = await bed.call('/v1/farcaster/complete', { body: { flowId } })
    expect(refused).toMatchObject({ status: 400, json: { error: { code: 'AUTH_FARCASTER_FAILED', message: 'The Farcaster sign-in could not be verified. Please try again' } } })
    expect(bed.logLines.at(-1)).toContain(reason)
  })

  it('refuses a signature that is not over the message, and a fid the message does not name', async () => {
    for (const tamper of ['signature', 'fid'] as const) {
      const { flowId, channelToken, nonce } = await start()
      const message = siwf({ nonce })
      const signature = await privateKeyToAccount(alice.custodyPrivateKey).signMessage({ message: tamper === 'signature' ? `${message}x` : message })
      await authenticate(channelToken, { message, signature, fid: tamper === 'fid' ? bob.fid : alice.fid })
      expect((await bed.call('/v1/farcaster/complete', { body: { flowId } })).json.error).toMatchObject({ code: 'AUTH_FARCASTER_FAILED' })
    }
    expect(bed.logLines.some((line) => line.includes("the signature is not the message address's"))).toBe(true)
    expect(bed.logLines.some((line) => line.includes(`is not for fid ${bob.fid} alone`))).toBe(true)
  })

  it('says Farcaster is not available when it is not configured', async () => {
    const local = await startAuthTestbed({ withIdentityProviders: false })
    try {
      expect((await local.call('/v1/farcaster/start', { body: {} })).json.error).toEqual({ code: 'AUTH_SOCIAL_UNAVAILABLE', message: 'Sign-in with Farcaster is not available', params: { provider: 'Farcaster' } })
    } finally {
      await local.stop()
    }
  }, 60_000)
})

describe('the custody address from the IdRegistry', () => {
  it('reads custodyOf(fid) through an RPC (anvil with a stand-in registry at the registry’s address)', async () => {
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port: p } = server.address() as { port: number }
        server.close(() => resolve(p))
      })
    })
    const anvil = await startAnvil({ port, chainId: 10 })
    try {
      const client = createPublicClient({ transport: http(anvil.rpcUrl) })
      // Runtime code: return sload(calldataload(4)), i.e. custodyOf(fid) reads storage slot fid.
      await client.request({ method: 'anvil_setCode' as never, params: [ID_REGISTRY_ADDRESS, '0x6004355460005260206000f3'] as never })
      await client.request({ method: 'anvil_setStorageAt' as never, params: [ID_REGISTRY_ADDRESS, numberToHex(alice.fid, { size: 32 }), pad(alice.custodyAddress)] as never })
      const custodyOf = createCustodyResolver({ kind: 'idRegistry', rpcUrl: anvil.rpcUrl }, { timeoutMs: 5_000 })
      expect(await custodyOf(alice.fid)).toBe(alice.custodyAddress)
      expect(await custodyOf(bob.fid)).toBeUndefined()

      const message = createSiweMessage({ domain, address: alice.custodyAddress, statement: 'Farcaster Auth', uri: FRAME_ORIGIN, version: '1', chainId: 10, nonce: 'Nonce12345678', issuedAt: new Date(), resources: [`farcaster://fid/${alice.fid}`] })
      const signature = await privateKeyToAccount(alice.custodyPrivateKey).signMessage({ message })
      const check = (fid: number) => verifySignInWithFarcaster({ message, signature, fid, expected: { domain, siweUri: FRAME_ORIGIN, nonce: 'Nonce12345678' }, nowMs: Date.now(), maxAgeMs: 600_000, custodyOf })
      expect(await check(alice.fid)).toEqual({ ok: true, fid: alice.fid, custody: alice.custodyAddress })
    } finally {
      await anvil.stop()
    }
  }, 60_000)
})
