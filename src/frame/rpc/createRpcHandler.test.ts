import { ed25519 } from '@noble/curves/ed25519'
import { base58, base64 } from '@scure/base'
import { createPublicClient, createTestClient, http, parseEther, recoverMessageAddress, verifyTypedData, type Address, type Hex } from 'viem'
import { waitForTransactionReceipt } from 'viem/actions'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAnvil, type Anvil } from '../../../services/chain/anvil'
import { freePorts } from '../../../services/stack/ports'
import type { FrameEvmNetwork, FrameSolanaNetwork } from '../config/frameConfig'
import type { KeyVault } from '../keys/createKeyVault'
import { openTestWallet } from '../testing/openTestWallet'
import type { ApprovalRequest } from './approvalRequest'
import { createSmartAccounts } from '../smartAccount/createSmartAccounts'
import { createRpcHandler, type ResolvedNetwork } from './createRpcHandler'
import { createEvmClient } from './evmRequests'
import { SYSTEM_PROGRAM } from './solanaTransaction'

const RECIPIENT: Address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const solanaNetwork: FrameSolanaNetwork = { caipNetworkId: 'solana:8E9rvCKLFQia2Y35HXjjpWzj8weVo44K', name: 'Solana Local', rpcUrl: 'http://127.0.0.1:1/' }

let anvil: Anvil
let network: FrameEvmNetwork
let vault: KeyVault

beforeAll(async () => {
  anvil = await startAnvil({ port: (await freePorts()).anvil, chainId: 31337 })
  network = { chainId: 31337, name: 'Tessera Local', rpcUrl: anvil.rpcUrl, nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 } }
  vault = await openTestWallet()
  await createTestClient({ mode: 'anvil', transport: http(anvil.rpcUrl) }).setBalance({ address: vault.keys().eip155.address, value: parseEther('10') })
}, 60_000)
afterAll(() => anvil?.stop())

/** A handler whose approval screen is a person who approves (or rejects) and whose every request is recorded. */
function setup({ isApproved = true, fetch }: { isApproved?: boolean; fetch?: typeof globalThis.fetch } = {}) {
  const shown: ApprovalRequest[] = []
  const client = createEvmClient(network)
  const handle = createRpcHandler({
    vault,
    evmNetworks: () => [network],
    resolveNetwork: (namespace): ResolvedNetwork => (namespace === 'solana' ? { namespace, network: solanaNetwork } : { namespace, network, client }),
    approve: async (request) => {
      shown.push(request)
      if (!isApproved) throw Object.assign(new Error('rejected'), { code: 'USER_REJECTED' })
    },
    smartAccounts: createSmartAccounts({ vault, projectId: 'test-project' }),
    ...(fetch && { fetch }),
  })
  return { handle, shown }
}

const codeOf = (promise: Promise<unknown>) => promise.then(() => 'resolved', (error: { code?: string }) => error.code)
const publicClient = () => createPublicClient({ transport: http(anvil.rpcUrl) })

describe('createRpcHandler: what is allowed', () => {
  it.each(['eth_sign', 'eth_signTransaction', 'wallet_addEthereumChain', 'debug_traceTransaction', 'anvil_setBalance', 'solana_getBalance', '__proto__', 'constructor'])(
    'refuses %s with "Requested RPC call is not allowed", without asking the person',
    async (method) => {
      const { handle, shown } = setup()
      await expect(handle({ method, params: [] })).rejects.toMatchObject({ code: 'RPC_NOT_ALLOWED', shortMessage: 'Requested RPC call is not allowed' })
      expect(shown).toEqual([])
    },
  )

  it('answers eth_chainId and eth_accounts itself, and safe reads through the chain', async () => {
    const { handle, shown } = setup()
    expect(await handle({ method: 'eth_chainId' })).toBe('0x7a69')
    expect(await handle({ method: 'eth_accounts' })).toEqual([vault.keys().eip155.address])
    expect(await handle({ method: 'eth_getBalance', params: [vault.keys().eip155.address, 'latest'] })).toMatch(/^0x[0-9a-f]+$/)
    expect(await handle({ method: 'eth_blockNumber' })).toMatch(/^0x[0-9a-f]+$/)
    expect(shown).toEqual([])
  })

  it('answers the smart-account methods 4200 (this wallet has no smart account)', async () => {
    const { handle } = setup()
    for (const method of ['wallet_grantPermissions', 'wallet_revokePermissions', 'eth_sendUserOperation']) {
      await expect(handle({ method, params: [{}] })).rejects.toMatchObject({ code: 'UNSUPPORTED_METHOD', rpcCode: 4200 })
    }
  })

  it('refuses a method of one namespace sent for the other', async () => {
    const { handle } = setup()
    expect(await codeOf(handle({ method: 'personal_sign', params: ['0x00', '0x00'], chainNamespace: 'solana' }))).toBe('UNSUPPORTED_CHAIN_ID')
  })
})

describe('createRpcHandler: eip155 signing after approval', () => {
  it('personal_sign: shows the message text, and signs for the frame address once approved', async () => {
    const { handle, shown } = setup()
    const address = vault.keys().eip155.address
    const message = 'Sign in to Example\nNonce: 42'
    const signature = (await handle({ method: 'personal_sign', params: [`0x${Buffer.from(message).toString('hex')}`, address] })) as Hex
    expect(shown).toEqual([{ kind: 'signMessage', network: 'Tessera Local', account: address, text: message, hex: `0x${Buffer.from(message).toString('hex')}` }])
    expect(await recoverMessageAddress({ message, signature })).toBe(address)
  })

  it('personal_sign: shows bytes that are not text as hex only', async () => {
    const { handle, shown } = setup()
    await handle({ method: 'personal_sign', params: ['0x00ff1b', vault.keys().eip155.address] })
    expect(shown[0]).toMatchObject({ text: undefined, hex: '0x00ff1b' })
  })

  it('personal_sign: nothing is signed when the person rejects, or for another account', async () => {
    const rejected = setup({ isApproved: false })
    expect(await codeOf(rejected.handle({ method: 'personal_sign', params: ['0x68656c6c6f', vault.keys().eip155.address] }))).toBe('USER_REJECTED')
    const { handle, shown } = setup()
    expect(await codeOf(handle({ method: 'personal_sign', params: ['0x68656c6c6f', RECIPIENT] }))).toBe('UNAUTHORIZED')
    expect(await codeOf(handle({ method: 'personal_sign', params: ['0x68656c6c6f'] }))).toBe('INVALID_MESSAGE')
    expect(shown).toEqual([])
  })

  it('eth_signTypedData_v4: says a permit is a permission to spend, and signs EIP-712', async () => {
    const { handle, shown } = setup()
    const address = vault.keys().eip155.address
    const typedData = {
      types: {
        EIP712Domain: [
          { name: 'name', type: 'string' },
          { name: 'version', type: 'string' },
          { name: 'chainId', type: 'uint256' },
          { name: 'verifyingContract', type: 'address' },
        ],
        Permit: [
          { name: 'owner', type: 'address' },
          { name: 'spender', type: 'address' },
          { name: 'value', type: 'uint256' },
          { name: 'nonce', type: 'uint256' },
          { name: 'deadline', type: 'uint256' },
        ],
      },
      primaryType: 'Permit',
      domain: { name: 'Test Token', version: '1', chainId: 31337, verifyingContract: '0x0000000000000000000000000000000000000001' },
      message: { owner: address, spender: RECIPIENT, value: '115792089237316195423570985008687907853269984665640564039457584007913129639935', nonce: 0, deadline: 1 },
    } as const
    const signature = (await handle({ method: 'eth_signTypedData_v4', params: [address, JSON.stringify(typedData)] })) as Hex
    expect(shown[0]).toMatchObject({ kind: 'signTypedData', domainName: 'Test Token', primaryType: 'Permit', permit: { spender: RECIPIENT, amount: 'unlimited' } })
    expect(await verifyTypedData({ address, signature, ...typedData } as never)).toBe(true)
    expect(await codeOf(handle({ method: 'eth_signTypedData_v4', params: [address, JSON.stringify({ ...typedData, domain: { ...typedData.domain, chainId: 1 } })] }))).toBe('INVALID_PARAMS')
  })

  it('eth_sendTransaction: shows recipient, amount in ETH and the fee cap, then the transaction lands on the chain', async () => {
    const { handle, shown } = setup()
    const before = await publicClient().getBalance({ address: RECIPIENT })
    const hash = (await handle({ method: 'eth_sendTransaction', params: [{ from: vault.keys().eip155.address, to: RECIPIENT, value: '0x6f05b59d3b20000' }] })) as Hex
    expect(shown[0]).toMatchObject({ kind: 'sendTransaction', network: 'Tessera Local', to: RECIPIENT, amount: '0.5', symbol: 'ETH', token: undefined, dataBytes: 0 })
    expect(Number((shown[0] as { maxFee: string }).maxFee)).toBeGreaterThan(0)
    const receipt = await waitForTransactionReceipt(publicClient(), { hash })
    expect(receipt.status).toBe('success')
    expect(receipt.from.toLowerCase()).toBe(vault.keys().eip155.address.toLowerCase())
    expect((await publicClient().getBalance({ address: RECIPIENT })) - before).toBe(parseEther('0.5'))
  })

  it('eth_sendTransaction: a transfer the balance cannot pay is refused before the person is asked (the node reason, classified)', async () => {
    const { handle, shown } = setup()
    expect(await codeOf(handle({ method: 'eth_sendTransaction', params: [{ to: RECIPIENT, value: '0x3635c9adc5dea00000' }] }))).toBe('INSUFFICIENT_FUNDS')
    expect(shown).toEqual([])
  })

  it('eth_sendTransaction: refuses a fee conflict and another chain (SPEC §5), and sends nothing when rejected', async () => {
    const { handle } = setup()
    expect(await codeOf(handle({ method: 'eth_sendTransaction', params: [{ to: RECIPIENT, gasPrice: '0x1', maxFeePerGas: '0x2' }] }))).toBe('INVALID_PARAMS')
    expect(await codeOf(handle({ method: 'eth_sendTransaction', params: [{ to: RECIPIENT, maxFeePerGas: '0x1', maxPriorityFeePerGas: '0x2' }] }))).toBe('TIP_ABOVE_FEE_CAP')
    expect(await codeOf(handle({ method: 'eth_sendTransaction', params: [{ to: RECIPIENT, chainId: '0x1' }] }))).toBe('INVALID_PARAMS')
    const nonce = await publicClient().getTransactionCount({ address: vault.keys().eip155.address })
    expect(await codeOf(setup({ isApproved: false }).handle({ method: 'eth_sendTransaction', params: [{ to: RECIPIENT, value: '0x1' }] }))).toBe('USER_REJECTED')
    expect(await publicClient().getTransactionCount({ address: vault.keys().eip155.address })).toBe(nonce)
  })

  it('wallet_sendCalls: one approval for the calls, sent one after the other, then wallet_getCallsStatus says 200', async () => {
    const { handle, shown } = setup()
    const { id } = (await handle({ method: 'wallet_sendCalls', params: [{ version: '2.0.0', chainId: '0x7a69', atomicRequired: false, calls: [{ to: RECIPIENT, value: '0x1' }, { to: RECIPIENT, value: '0x2' }] }] })) as { id: Hex }
    expect(shown).toHaveLength(1)
    expect(shown[0]).toMatchObject({ kind: 'sendCalls', calls: [{ to: RECIPIENT, amount: '0.000000000000000001' }, { to: RECIPIENT, amount: '0.000000000000000002' }] })
    await waitForTransactionReceipt(publicClient(), { hash: id })
    await expect.poll(async () => ((await handle({ method: 'wallet_getCallsStatus', params: [id] })) as { status: number }).status).toBe(200)
    expect(await codeOf(handle({ method: 'wallet_getCallsStatus', params: ['0x1234'] }))).toBe('UNKNOWN_BUNDLE_ID')
    expect(await codeOf(handle({ method: 'wallet_sendCalls', params: [{ atomicRequired: true, calls: [{ to: RECIPIENT }] }] }))).toBe('ATOMICITY_NOT_SUPPORTED')
  })

  it('wallet_getAssets and wallet_getCapabilities', async () => {
    const { handle } = setup()
    const assets = (await handle({ method: 'wallet_getAssets', params: [{ account: RECIPIENT }] })) as Record<string, { type: string; balance: string; metadata: { symbol: string } }[]>
    expect(assets['0x7a69']![0]).toMatchObject({ type: 'NATIVE', metadata: { symbol: 'ETH' } })
    expect(BigInt(assets['0x7a69']![0]!.balance)).toBeGreaterThan(0n)
    expect(await handle({ method: 'wallet_getCapabilities', params: [] })).toEqual({ '0x7a69': { atomic: { status: 'unsupported' } } })
  })
})

/** A legacy wire transaction: one System Program transfer of `lamports` from `from` to `to`, its slot empty. */
function solanaTransfer(from: Uint8Array, to: Uint8Array, lamports: bigint) {
  const data = new Uint8Array(12)
  new DataView(data.buffer).setUint32(0, 2, true)
  new DataView(data.buffer).setBigUint64(4, lamports, true)
  const message = [1, 0, 1, 3, ...from, ...to, ...base58.decode(SYSTEM_PROGRAM), ...new Uint8Array(32).fill(7), 1, 2, 2, 0, 1, 12, ...data]
  return Uint8Array.from([1, ...new Uint8Array(64), ...message])
}

describe('createRpcHandler: solana signing after approval', () => {
  it('solana_signMessage: shows the text and signs it with the ed25519 key of the Solana address', async () => {
    const { handle, shown } = setup()
    const { address } = vault.keys().solana
    const message = new TextEncoder().encode('Sign in to Example')
    const { signature } = (await handle({ method: 'solana_signMessage', params: { message: base58.encode(message), pubkey: address } })) as { signature: string }
    expect(shown[0]).toMatchObject({ kind: 'solanaSignMessage', text: 'Sign in to Example', account: address })
    expect(ed25519.verify(base58.decode(signature), message, base58.decode(address))).toBe(true)
  })

  it('solana_signTransaction: says "send 1.5 SOL to …", and signs the fee payer slot', async () => {
    const { handle, shown } = setup()
    const { address } = vault.keys().solana
    const to = ed25519.getPublicKey(ed25519.utils.randomPrivateKey())
    const wire = solanaTransfer(base58.decode(address), to, 1_500_000_000n)
    const { signature, transaction } = (await handle({ method: 'solana_signTransaction', params: { transaction: base64.encode(wire) } })) as { signature: string; transaction: string }
    expect(shown[0]).toMatchObject({ kind: 'solanaTransaction', willSend: false, count: 1, actions: [{ kind: 'transfer', to: base58.encode(to), amount: '1.5' }] })
    const signed = base64.decode(transaction)
    expect(signed.subarray(1, 65)).toEqual(base58.decode(signature))
    expect(ed25519.verify(base58.decode(signature), signed.subarray(65), base58.decode(address))).toBe(true)
  })

  it('solana_signAndSendTransaction: sends the signed transaction (base64) to the node and answers its signature', async () => {
    const sent: { method: string; params: [string, unknown] }[] = []
    const fetch = (async (_url: string, init: RequestInit) => {
      const body = JSON.parse(String(init.body)) as { method: string; params: [string, unknown] }
      sent.push(body)
      return new Response(JSON.stringify({ jsonrpc: '2.0', id: 1, result: 'sig111' }))
    }) as typeof globalThis.fetch
    const { handle, shown } = setup({ fetch })
    const wire = solanaTransfer(base58.decode(vault.keys().solana.address), new Uint8Array(32).fill(9), 1n)
    expect(await handle({ method: 'solana_signAndSendTransaction', params: { transaction: base64.encode(wire) } })).toEqual({ signature: 'sig111' })
    expect(shown[0]).toMatchObject({ willSend: true })
    expect(sent[0]!.method).toBe('sendTransaction')
    expect(base64.decode(sent[0]!.params[0]).subarray(1, 65).some((byte) => byte !== 0)).toBe(true)
  })

  it('solana: refuses a transaction this wallet does not sign, and bytes that are not a transaction', async () => {
    const { handle, shown } = setup()
    const stranger = solanaTransfer(new Uint8Array(32).fill(3), new Uint8Array(32).fill(4), 1n)
    expect(await codeOf(handle({ method: 'solana_signTransaction', params: { transaction: base64.encode(stranger) } }))).toBe('UNAUTHORIZED')
    expect(await codeOf(handle({ method: 'solana_signTransaction', params: { transaction: base64.encode(new Uint8Array(10)) } }))).toBe('INVALID_PARAMS')
    expect(await codeOf(handle({ method: 'solana_signTransaction', params: { transaction: '!!!!' } }))).toBe('INVALID_PARAMS')
    expect(shown).toEqual([])
  })
})
