import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ed25519 } from '@noble/curves/ed25519'
import { base58, base64 } from '@scure/base'
import type { WidgetError } from '../../../shared/protocol/errors'
import type { WidgetNetwork } from '../../widget/config'
import { createTestAuthConnector } from './testing/createTestAuthConnector'
import { createFakeFrame, type FakeRequest } from './testing/createFakeFrame'

const evmAddress = '0x1111111111111111111111111111111111111111'
const secretKey = ed25519.utils.randomPrivateKey()
const solanaAddress = base58.encode(ed25519.getPublicKey(secretKey))
const cluster = 'solana:localnet1234'
const solanaNetwork = { chainNamespace: 'solana', caipNetworkId: cluster, id: 'localnet1234', name: 'Solana Local' } as unknown as WidgetNetwork

type Answer = { ok: unknown } | { error: unknown } | undefined

/**
 * An auth connector over a fake frame that keeps a network the way the real one does: APP_GET_USER on a chain and
 * APP_SWITCH_NETWORK move it, APP_GET_USER and APP_GET_CHAIN_ID answer for the side it is on, and Solana requests sign
 * with an ed25519 key. `rpc` answers the RPC requests (undefined: the default answer; null: no answer).
 */
function setUp({ rpc, solanaCaipNetworkId }: { rpc?: (payload: { method: string; params: Record<string, string>; chainId?: string }) => Answer | null; solanaCaipNetworkId?: () => `solana:${string}` | undefined } = {}) {
  let chainId: string | number = 31337
  const user = () => ({ email: 'me@example.test', address: typeof chainId === 'number' ? evmAddress : solanaAddress, chainId, accounts: [] })
  const answer = (request: FakeRequest): Answer => {
    const payload = (request.payload ?? {}) as { chainId?: string | number; method: string; params: Record<string, string> }
    switch (request.type) {
      case 'APP_GET_USER':
        if (payload.chainId !== undefined) chainId = payload.chainId
        return { ok: user() }
      case 'APP_SWITCH_NETWORK':
        chainId = payload.chainId!
        return { ok: { chainId } }
      case 'APP_GET_CHAIN_ID':
        return { ok: { chainId } }
      case 'APP_SIGN_OUT':
        return { ok: {} }
      case 'APP_RPC_REQUEST': {
        const custom = rpc?.(payload as never)
        if (custom === null) return undefined
        if (custom) return custom
        if (payload.method === 'eth_accounts') return { ok: [evmAddress] }
        if (payload.method === 'eth_chainId') return { ok: '0x7a69' }
        if (payload.method === 'solana_signMessage') return { ok: { signature: base58.encode(ed25519.sign(base58.decode(payload.params.message!), secretKey)) } }
        if (payload.method === 'solana_signTransaction') return { ok: { signature: 'x', transaction: base64.encode(new Uint8Array([9, ...base64.decode(payload.params.transaction!)])) } }
        if (payload.method === 'solana_signAndSendTransaction') return { ok: { signature: '5sig' } }
        return undefined
      }
    }
    return request.type.startsWith('APP_SYNC_') ? { ok: {} } : undefined
  }
  const fake = createFakeFrame({ answer })
  const auth = createTestAuthConnector(fake, { params: { projectId: 'demo', version: 'react-eip155,solana-0.2.0' }, ...(solanaCaipNetworkId && { solanaCaipNetworkId }) })
  const ready = async () => {
    await vi.advanceTimersByTimeAsync(0)
    fake.ready()
    await vi.advanceTimersByTimeAsync(500)
  }
  /** The frame's requests after the theme and dApp data, as type and payload. */
  const sent = () => fake.posted.map((p) => p.message).filter((m) => !m.type.startsWith('APP_SYNC_')).map(({ type, payload }) => ({ type, payload }))
  return { auth, fake, ready, sent, frameChainId: () => chainId }
}
const rejection = async (promise: Promise<unknown>) => (await promise.then(() => undefined, (error: unknown) => error)) as WidgetError

beforeEach(() => vi.useFakeTimers())
afterEach(() => vi.useRealTimers())

describe('createAuthConnector: the solana side', () => {
  it("is the AUTH connector's solana namespace, with the same id as its eip155 side", () => {
    const { auth } = setUp()
    expect(auth.solana).toMatchObject({ id: auth.eip155.id, type: 'AUTH', namespace: 'solana', name: 'Embedded wallet' })
  })

  it("connects the frame's Solana account on the cluster asked for, and leaves the frame on its EVM network", async () => {
    const { auth, ready, sent, frameChainId } = setUp()
    const connected = auth.solana.connect(solanaNetwork)
    await ready()
    await expect(connected).resolves.toEqual({ accounts: [solanaAddress], caipNetworkId: cluster })
    expect(sent()).toEqual([
      { type: 'APP_GET_CHAIN_ID', payload: undefined },
      { type: 'APP_GET_USER', payload: { chainId: cluster, preferredAccountType: 'smartAccount' } },
      { type: 'APP_SWITCH_NETWORK', payload: { chainId: 31337 } },
    ])
    expect(frameChainId()).toBe(31337)
    // The EVM side still answers with its own account and network.
    await expect(auth.eip155.getAccounts()).resolves.toEqual([evmAddress])
    await expect(auth.eip155.getCaipNetworkId('eip155:1')).resolves.toBe('eip155:31337')
    await expect(auth.solana.getAccounts()).resolves.toEqual([solanaAddress])
  })

  it('an EVM switch asked while the Solana account is read waits its turn, so the frame ends on the chain asked for', async () => {
    const { auth, ready, sent, frameChainId } = setUp()
    const solana = auth.solana.connect(solanaNetwork)
    const evmSwitch = auth.eip155.switchNetwork({ caipNetworkId: 'eip155:31338' } as WidgetNetwork)
    await ready()
    await Promise.all([solana, evmSwitch])
    expect(sent().map((m) => m.type)).toEqual(['APP_GET_CHAIN_ID', 'APP_GET_USER', 'APP_SWITCH_NETWORK', 'APP_SWITCH_NETWORK'])
    expect(frameChainId()).toBe(31338)
  })

  it("reconnects on the widget's cluster: the Solana account read on it, the widget's network kept", async () => {
    const { auth, ready, sent } = setUp({ solanaCaipNetworkId: () => cluster })
    const accounts = auth.solana.getAccounts()
    await ready()
    await expect(accounts).resolves.toEqual([solanaAddress])
    expect(sent()[1]).toEqual({ type: 'APP_GET_USER', payload: { chainId: cluster, preferredAccountType: 'smartAccount' } })
    await expect(auth.solana.getCaipNetworkId(cluster)).resolves.toBe(cluster)
  })

  it('says Network not found when no Solana network is known to read the account on', async () => {
    const { auth, ready } = setUp()
    const accounts = rejection(auth.solana.getAccounts())
    await ready()
    expect(await accounts).toMatchObject({ code: 'NETWORK_NOT_FOUND', shortMessage: 'Network not found' })
  })

  it('signs a text message in the frame as solana_signMessage (base58 bytes, its account, its cluster); the signature verifies with ed25519', async () => {
    const { auth, ready, sent } = setUp()
    const connected = auth.solana.connect(solanaNetwork)
    await ready()
    await connected
    const message = 'Hello from Solana'
    const signature = await auth.solana.signMessage(message, solanaAddress)
    expect(sent().at(-1)).toEqual({
      type: 'APP_RPC_REQUEST',
      payload: { method: 'solana_signMessage', params: { message: base58.encode(new TextEncoder().encode(message)), pubkey: solanaAddress }, chainNamespace: 'solana', chainId: cluster },
    })
    expect(ed25519.verify(base58.decode(signature), new TextEncoder().encode(message), base58.decode(solanaAddress))).toBe(true)
  })

  it('signs a wire transaction (base64 both ways) and signs-and-sends one, each on the cluster named; a switch changes the cluster', async () => {
    const { auth, ready, sent } = setUp()
    const connected = auth.solana.connect(solanaNetwork)
    await ready()
    await connected
    const signed = await auth.solana.signTransaction(new Uint8Array([1, 2, 3]), solanaAddress, 'solana:devnet1')
    expect(signed).toEqual(new Uint8Array([9, 1, 2, 3]))
    expect(sent().at(-1)!.payload).toEqual({ method: 'solana_signTransaction', params: { transaction: 'AQID', pubkey: solanaAddress }, chainNamespace: 'solana', chainId: 'solana:devnet1' })
    await expect(auth.solana.signAndSendTransaction(new Uint8Array([4]), solanaAddress, cluster)).resolves.toBe('5sig')
    expect(sent().at(-1)!.payload).toMatchObject({ method: 'solana_signAndSendTransaction', params: { transaction: 'BA==' }, chainId: cluster })
    await auth.solana.switchNetwork({ ...solanaNetwork, caipNetworkId: 'solana:other' } as WidgetNetwork)
    await auth.solana.signMessage('x', solanaAddress)
    expect(sent().at(-1)!.payload).toMatchObject({ method: 'solana_signMessage', chainId: 'solana:other' })
  })

  it("says the frame's refusal in its sentence, an answer without a signature as 'An error occurred', and aborts open approvals", async () => {
    const { auth, ready } = setUp({
      solanaCaipNetworkId: () => cluster,
      rpc: ({ method }) =>
        method === 'solana_signTransaction'
          ? { error: { message: 'User rejected the request.', code: 'USER_REJECTED' } }
          : method === 'solana_signAndSendTransaction'
            ? { ok: { nothing: true } }
            : method === 'solana_signMessage'
              ? null
              : undefined,
    })
    const refused = rejection(auth.solana.signTransaction(new Uint8Array([1]), solanaAddress, cluster))
    await ready()
    expect(await refused).toMatchObject({ code: 'USER_REJECTED' })
    expect(await rejection(auth.solana.signAndSendTransaction(new Uint8Array([1]), solanaAddress, cluster))).toMatchObject({ code: 'FRAME_ERROR', shortMessage: 'An error occurred' })
    // The frame does not answer (the person has not decided yet): the request waits until it is aborted.
    const waiting = rejection(auth.solana.signMessage('wait', solanaAddress))
    await vi.advanceTimersByTimeAsync(0)
    auth.abortRpcRequests()
    expect(await waiting).toMatchObject({ code: 'REQUEST_ABORTED', shortMessage: 'Request was aborted' })
  })

  it("disconnecting either side signs out once and tells the other side it is disconnected too (SPEC §4)", async () => {
    const { auth, ready, sent } = setUp()
    const onEvmDisconnect = vi.fn()
    const onSolanaDisconnect = vi.fn()
    auth.eip155.watch({ onDisconnect: onEvmDisconnect })
    auth.solana.watch({ onDisconnect: onSolanaDisconnect })
    const both = Promise.all([auth.solana.disconnect(), auth.eip155.disconnect()])
    await ready()
    await both
    expect(sent().filter((m) => m.type === 'APP_SIGN_OUT')).toHaveLength(1)
    expect(onEvmDisconnect).toHaveBeenCalledOnce()
    expect(onSolanaDisconnect).toHaveBeenCalledOnce()

    onEvmDisconnect.mockClear()
    onSolanaDisconnect.mockClear()
    await auth.solana.disconnect()
    expect(onEvmDisconnect).toHaveBeenCalledOnce()
    expect(onSolanaDisconnect).not.toHaveBeenCalled()
    // The login's accounts are forgotten: the next read asks the frame again.
    await auth.solana.connect(solanaNetwork)
    await auth.solana.disconnect()
    const reads = sent().filter((m) => m.type === 'APP_GET_USER').length
    await rejection(auth.solana.getAccounts())
    expect(sent().filter((m) => m.type === 'APP_GET_USER').length).toBe(reads + 1)
  })
})
