import { ApiPromise, WsProvider } from '@polkadot/api'
import { Keyring } from '@polkadot/keyring'
import type { KeyringPair } from '@polkadot/keyring/types'
import { hexToU8a, u8aToHex } from '@polkadot/util'
import { cryptoWaitReady } from '@polkadot/util-crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startPolkadotChain, type PolkadotChain } from '../../../../services/chain/polkadot/startPolkadotChain'
import { freePorts } from '../../../../services/stack/ports'
import { balanceKey } from '../../../shared/protocol/core/coreState'
import { createWorkerApi } from '../../api'
import { createPolkadotClient, type PolkadotClient, type PolkadotSignerPayload, type PolkadotTransfer } from './polkadot'

const LOCAL = 'polkadot:45454545454545454545454545454545'
/** 1 ROC in planck (12 decimals). */
const UNIT = 10n ** 12n
/** //Alice in Polkadot's format (prefix 0) and the generic one (42). */
const ALICE_POLKADOT = '15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5'
const ALICE_GENERIC = '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY'

type AccountData = { data: { free: { toString(): string }; reserved: { toString(): string }; miscFrozen: { toString(): string }; feeFrozen: { toString(): string } } }

describe('the worker Polkadot client against a local chopsticks chain', () => {
  let chain: PolkadotChain
  /** The test's own view of the chain, to compare the client with. */
  let api: ApiPromise
  let provider: WsProvider
  let client: PolkadotClient
  let keyring: Keyring
  let pairs: Record<'alice' | 'bob' | 'charlie' | 'dave' | 'eve' | 'ferdie', KeyringPair>

  beforeAll(async () => {
    chain = await startPolkadotChain({ port: (await freePorts()).polkadot })
    provider = new WsProvider(chain.rpcUrl)
    api = await ApiPromise.create({ provider, noInitWarn: true })
    client = createPolkadotClient({ caipNetworkId: LOCAL, rpcUrl: chain.rpcUrl })
    await cryptoWaitReady()
    keyring = new Keyring({ type: 'sr25519', ss58Format: chain.ss58Prefix })
    pairs = Object.fromEntries(['alice', 'bob', 'charlie', 'dave', 'eve', 'ferdie'].map((name) => [name, keyring.addFromUri(`//${name[0]!.toUpperCase()}${name.slice(1)}`)])) as typeof pairs
  }, 120_000)
  afterAll(async () => {
    await client?.destroy()
    await api?.disconnect()
    await chain?.stop()
  })

  const chainAccount = async (address: string) => {
    const { data } = (await api.query.system!.account!(address)) as unknown as AccountData
    return { free: BigInt(data.free.toString()), reserved: BigInt(data.reserved.toString()), frozen: BigInt(data.miscFrozen.toString()) }
  }
  /** Sets an account's free balance on the chain (chopsticks' dev_setStorage). */
  const setFree = (address: string, free: bigint) => provider.send('dev_setStorage', [{ System: { Account: [[[address], { providers: 1, data: { free: free.toString() } }]] } }])
  /** What a polkadot.js extension does in signer.signPayload: the payload's bytes signed by the account's key, kind byte first. */
  const signPayload = (payload: PolkadotSignerPayload, pair: KeyringPair) => api.registry.createType('ExtrinsicPayload', payload, { version: payload.version }).sign(pair).signature
  /** What it does in signer.signRaw for `type: 'payload'`: the bytes as given, signed, kind byte first. */
  const signRaw = (raw: PolkadotTransfer['raw'], pair: KeyringPair) => u8aToHex(pair.sign(hexToU8a(raw.data), { withType: true }))
  const newAccount = () => keyring.addFromUri(`//tessera/${Math.random()}`).address

  it('says what the chain is: genesis, SS58 prefix, token and existential deposit, as the node does', async () => {
    expect(await client.getChainInfo()).toEqual({
      caipNetworkId: LOCAL,
      genesisHash: chain.genesisHash,
      chainName: 'asset-hub-rococo',
      ss58Prefix: 2,
      token: { symbol: 'ROC', decimals: 12 },
      existentialDeposit: BigInt(api.consts.balances!.existentialDeposit!.toString()),
      specVersion: api.runtimeVersion.specVersion.toNumber(),
    })
  })

  it('reads the balance the chain holds (free, reserved, frozen) and what a keep-alive transfer can move, whatever the address format', async () => {
    const { alice } = pairs
    const onChain = await chainAccount(alice.address)
    const balance = await client.getBalance(alice.address)
    expect(balance).toEqual({ ...onChain, transferable: onChain.free - chain.existentialDeposit })
    expect(balance.free).toBe(chain.fundedPlanck)
    // The same account in the generic Substrate format reads the same.
    expect(await client.getBalance(ALICE_GENERIC)).toEqual(balance)
    // An account nobody funded holds nothing, and can move nothing.
    expect(await client.getBalance(newAccount())).toEqual({ free: 0n, reserved: 0n, frozen: 0n, transferable: 0n })
  })

  it('estimates the fee of a transfer as the node does (paymentInfo of transferKeepAlive)', async () => {
    const { alice, bob } = pairs
    const fee = await client.estimateTransferFee({ from: alice.address, to: bob.address, amount: 3n * UNIT })
    const expected = await api.tx.balances!.transferKeepAlive!(bob.address, 3n * UNIT).paymentInfo(alice.address)
    expect(fee).toBe(BigInt(expected.partialFee.toString()))
    expect(fee).toBeGreaterThan(0n)
  })

  it('sends 1.5 ROC: built in the worker, signed by the extension through signPayload, submitted, in a block then final; the recipient up by exactly 1.5', async () => {
    const { alice } = pairs
    const recipient = newAccount()
    const amount = 3n * (UNIT / 2n)
    const senderBefore = await chainAccount(alice.address)

    const transfer = await client.buildTransfer({ from: ALICE_GENERIC, to: recipient, amount })
    expect(transfer).toMatchObject({ to: recipient, existentialDeposit: chain.existentialDeposit, raw: { address: alice.address, type: 'payload' } })
    expect(transfer.fee).toBe(await client.estimateTransferFee({ from: alice.address, to: recipient, amount }))
    expect(transfer.payload).toMatchObject({ address: alice.address, genesisHash: chain.genesisHash, tip: `0x${'0'.repeat(32)}`, version: 4 })
    // The payload's call is the transfer asked for, nothing else.
    expect(api.registry.createType('Call', transfer.payload.method).toHuman()).toMatchObject({ section: 'balances', method: 'transferKeepAlive', args: { value: '1,500,000,000,000' } })
    // What polkadot.js makes of the same payload: the bytes signRaw is given, the era's last block; its signingInfo's nonce and mortality.
    const extrinsicPayload = api.registry.createType('ExtrinsicPayload', transfer.payload, { version: transfer.payload.version })
    expect(transfer.raw.data).toBe(u8aToHex(extrinsicPayload.toU8a({ method: true })))
    const era = api.registry.createType('ExtrinsicEra', transfer.payload.era).asMortalEra
    expect(transfer.validUntilBlock).toBe(era.death(BigInt(transfer.payload.blockNumber)) - 1)
    const signingInfo = await api.derive.tx.signingInfo(alice.address)
    expect(transfer.payload.nonce).toBe(signingInfo.nonce.toHex())
    expect(era.period.toNumber()).toBe(2 ** Math.ceil(Math.log2(signingInfo.mortalLength)))

    const submission = await client.submitTransfer({ payload: transfer.payload, signature: signPayload(transfer.payload, alice) })
    expect(submission).toEqual({ hash: expect.stringMatching(/^0x[0-9a-f]{64}$/), fromBlock: Number(transfer.payload.blockNumber) + 1, validUntilBlock: transfer.validUntilBlock })
    const inBlock = await client.waitForTransaction({ submission, until: 'inBlock', pollIntervalMs: 50 })
    expect(inBlock).toMatchObject({ hash: submission.hash, isSuccess: true })
    const signedBlock = await api.rpc.chain.getBlock(inBlock.blockHash)
    expect(signedBlock.block.extrinsics[inBlock.index]!.hash.toHex()).toBe(submission.hash)
    expect(signedBlock.block.header.number.toNumber()).toBe(inBlock.blockNumber)
    const final = await client.waitForTransaction({ submission, pollIntervalMs: 50 })
    expect(final).toEqual({ ...inBlock, isFinalized: true })

    expect((await chainAccount(recipient)).free).toBe(amount)
    // The sender paid the amount and a fee close to the estimate (the weight-based part varies a little).
    const paid = senderBefore.free - (await chainAccount(alice.address)).free - amount
    expect(paid).toBeGreaterThan(0n)
    expect(paid).toBeLessThanOrEqual(transfer.fee * 2n)
  })

  it('sends through signRaw too (a wallet without signPayload): the same payload bytes, signed as given', async () => {
    const { bob } = pairs
    const recipient = newAccount()
    const transfer = await client.buildTransfer({ from: bob.address, to: recipient, amount: UNIT, tip: 1_000n })
    expect(BigInt(transfer.payload.tip)).toBe(1_000n)
    const submission = await client.submitTransfer({ payload: transfer.payload, signature: signRaw(transfer.raw, bob) })
    expect(await client.waitForTransaction({ submission, pollIntervalMs: 50 })).toMatchObject({ isSuccess: true, isFinalized: true })
    expect((await chainAccount(recipient)).free).toBe(UNIT)
  })

  it('refuses a transfer that would leave the recipient under the existential deposit, or the sender without its own, each with its sentence', async () => {
    const { charlie } = pairs
    const ed = chain.existentialDeposit
    const recipient = newAccount()
    const belowDeposit = await client.buildTransfer({ from: charlie.address, to: recipient, amount: ed - 1n }).catch((e: unknown) => e)
    expect(belowDeposit).toMatchObject({
      code: 'POLKADOT_BELOW_EXISTENTIAL_DEPOSIT',
      field: 'amount',
      shortMessage: 'An account must hold at least 0.000003333333 ROC: send at least 0.000003333333 ROC to this address',
    })
    // Exactly the deposit opens the account.
    await expect(client.buildTransfer({ from: charlie.address, to: recipient, amount: ed })).resolves.toMatchObject({ to: recipient })
    // An account that holds the deposit takes any amount.
    await expect(client.buildTransfer({ from: charlie.address, to: pairs.dave.address, amount: 1n })).resolves.toMatchObject({ to: pairs.dave.address })

    const { free } = await chainAccount(charlie.address)
    const fee = await client.estimateTransferFee({ from: charlie.address, to: pairs.dave.address, amount: free })
    const tooMuch = await client.buildTransfer({ from: charlie.address, to: pairs.dave.address, amount: free - ed - fee + 1n }).catch((e: unknown) => e)
    expect(tooMuch).toMatchObject({ code: 'POLKADOT_INSUFFICIENT_FUNDS', field: 'amount' })
    expect((tooMuch as Error & { shortMessage: string }).shortMessage).toMatch(
      /^The amount and its network fee of 0\.\d+ ROC are more than the 999999\.999996666667 ROC this account can send while keeping its existential deposit of 0\.000003333333 ROC$/,
    )
    // One planck less is fine: everything but the deposit and the fee.
    await expect(client.buildTransfer({ from: charlie.address, to: pairs.dave.address, amount: free - ed - fee })).resolves.toMatchObject({ fee })
  })

  it.each([
    ['not SS58 at all', { to: 'not an address' }, { code: 'INVALID_ADDRESS', field: 'to', shortMessage: 'Address is invalid.' }],
    ['an EVM address', { to: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' }, { code: 'INVALID_ADDRESS', field: 'to' }],
    ['a checksum flip', { to: '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQZ' }, { code: 'INVALID_ADDRESS', field: 'to' }],
    ['a Polkadot address', { to: ALICE_POLKADOT }, { code: 'POLKADOT_ADDRESS_WRONG_NETWORK', field: 'to', shortMessage: 'This is a Polkadot address; the selected network is Polkadot Local' }],
    ['a Polkadot sender', { from: ALICE_POLKADOT }, { code: 'POLKADOT_ADDRESS_WRONG_NETWORK', field: 'from' }],
    ['an amount of 0', { amount: 0n }, { code: 'INVALID_PARAMS', field: 'amount' }],
    ['a number amount', { amount: 1 as unknown as bigint }, { code: 'INVALID_PARAMS', field: 'amount' }],
    ['more than a u128', { amount: 2n ** 128n }, { code: 'INVALID_PARAMS', field: 'amount' }],
    ['a negative tip', { tip: -1n }, { code: 'INVALID_PARAMS', field: 'tip' }],
  ])('refuses %s before anything is signed', async (_name, change, expected) => {
    const transfer = { from: pairs.alice.address, to: pairs.bob.address, amount: UNIT, ...change }
    await expect(client.buildTransfer(transfer)).rejects.toMatchObject(expected)
  })

  it('maps the node’s refusals: a signature of another key, a used nonce, fees the account can no longer pay, a payload of another runtime', async () => {
    const { eve, ferdie } = pairs
    const transfer = await client.buildTransfer({ from: eve.address, to: ferdie.address, amount: UNIT })
    await expect(client.submitTransfer({ payload: transfer.payload, signature: signPayload(transfer.payload, ferdie) })).rejects.toMatchObject({ code: 'WALLET_BAD_RESPONSE', field: 'signature' })
    await expect(client.submitTransfer({ payload: transfer.payload, signature: '0x1234' })).rejects.toMatchObject({ code: 'WALLET_BAD_RESPONSE', field: 'signature' })
    await expect(client.submitTransfer({ payload: { ...transfer.payload, specVersion: '0x00000001' }, signature: signPayload(transfer.payload, eve) })).rejects.toMatchObject({
      code: 'POLKADOT_TRANSACTION_STALE',
      shortMessage: 'This transaction is out of date: prepare it again and sign the new one',
    })
    await expect(client.submitTransfer({ payload: { ...transfer.payload, genesisHash: `0x${'91'.repeat(32)}` }, signature: signPayload(transfer.payload, eve) })).rejects.toMatchObject({
      code: 'INVALID_PARAMS',
      field: 'payload.genesisHash',
    })
    await expect(client.submitTransfer({ payload: { ...transfer.payload, method: 'transfer' as `0x${string}` }, signature: signPayload(transfer.payload, eve) })).rejects.toMatchObject({
      code: 'INVALID_PARAMS',
      field: 'payload.method',
    })

    const signature = signPayload(transfer.payload, eve)
    const submission = await client.submitTransfer({ payload: transfer.payload, signature })
    await client.waitForTransaction({ submission, pollIntervalMs: 50 })
    // The same signed transaction again: its nonce is used.
    await expect(client.submitTransfer({ payload: transfer.payload, signature })).rejects.toMatchObject({ code: 'POLKADOT_TRANSACTION_STALE' })

    // Signed while the account could pay, submitted after it was emptied.
    const next = await client.buildTransfer({ from: eve.address, to: ferdie.address, amount: UNIT })
    await setFree(eve.address, 0n)
    await expect(client.submitTransfer({ payload: next.payload, signature: signPayload(next.payload, eve) })).rejects.toMatchObject({
      code: 'POLKADOT_CANNOT_PAY_FEE',
      shortMessage: 'This account cannot pay the network fee of this transaction',
    })
  })

  it('reports a transaction included whose transfer failed: the fee paid, the pallet’s error named', async () => {
    const { dave, ferdie } = pairs
    const transfer = await client.buildTransfer({ from: dave.address, to: ferdie.address, amount: 10n * UNIT })
    // Enough left for the fee, not for the amount: the node accepts it, the runtime refuses the transfer.
    await setFree(dave.address, UNIT)
    const submission = await client.submitTransfer({ payload: transfer.payload, signature: signPayload(transfer.payload, dave) })
    const inclusion = await client.waitForTransaction({ submission, pollIntervalMs: 50 })
    expect(inclusion).toMatchObject({ isFinalized: true, isSuccess: false, failure: expect.stringMatching(/^(balances\.\w+|Token\.\w+)$/) })
    expect((await chainAccount(dave.address)).free).toBeLessThan(UNIT)
  })

  it('says a transaction no block included before its era ended was not sent, and gives up after maxWaitMs', async () => {
    const head = (await api.rpc.chain.getHeader()).number.toNumber()
    const neverSent = { hash: `0x${'ab'.repeat(32)}` as const, fromBlock: head + 1, validUntilBlock: head + 2 }
    await expect(client.waitForTransaction({ submission: neverSent, pollIntervalMs: 10, maxWaitMs: 100 })).rejects.toMatchObject({ code: 'TRANSACTION_UNCONFIRMED' })
    await provider.send('dev_newBlock', [{ count: 2 }])
    await expect(client.waitForTransaction({ submission: neverSent, pollIntervalMs: 10 })).rejects.toMatchObject({
      code: 'POLKADOT_TRANSACTION_NOT_INCLUDED',
      shortMessage: 'The transaction expired before a block included it: nothing was sent, you can send it again',
    })
    await expect(client.waitForTransaction({ submission: { ...neverSent, hash: 'nope' as `0x${string}` } })).rejects.toMatchObject({ code: 'INVALID_PARAMS', field: 'submission' })
  })

  it('refuses a node whose chain is not the configured network', async () => {
    const polkadot = createPolkadotClient({ caipNetworkId: 'polkadot:91b171bb158e2d3848fa23a9f1c25182', rpcUrl: chain.rpcUrl, reconnectCount: 0 })
    await expect(polkadot.getChainInfo()).rejects.toMatchObject({ code: 'INVALID_CONFIG', field: 'rpcUrl' })
    await polkadot.destroy()
  })

  it('serves configured networks by CAIP-2 id through the worker, mirrors the free balance into the store, and refuses others', async () => {
    const worker = createWorkerApi()
    // The page gives the URL of the Polkadot module (src/main/core/familyModules.ts); here, its source.
    worker.configure({ chains: [], familyModules: { polkadot: new URL('./polkadotFamily.ts', import.meta.url).href }, familyChains: { polkadot: [{ caipNetworkId: LOCAL, rpcUrl: chain.rpcUrl }] } })
    const { bob } = pairs
    const balance = await worker.familyCall({ namespace: 'polkadot', method: 'getBalance', args: { caipNetworkId: LOCAL, address: bob.address } })
    expect(balance.free).toBe((await chainAccount(bob.address)).free)
    expect((await worker.getState()).balances[balanceKey(LOCAL, bob.address)]).toMatchObject({ caipNetworkId: LOCAL, owner: bob.address, token: null, value: balance.free })
    // The one balance call of every family, by CAIP-2 id: the free balance, which the store mirrors.
    expect(await worker.getNativeBalance({ caipNetworkId: LOCAL, address: bob.address })).toBe(balance.free)
    await expect(worker.familyCall({ namespace: 'polkadot', method: 'getBalance', args: { caipNetworkId: 'polkadot:91b171bb158e2d3848fa23a9f1c25182', address: ALICE_POLKADOT } })).rejects.toMatchObject({ code: 'NETWORK_NOT_FOUND' })
    // A new config closes the old connections.
    worker.configure({ chains: [] })
    await expect(worker.familyCall({ namespace: 'polkadot', method: 'getChainInfo', args: { caipNetworkId: LOCAL } })).rejects.toMatchObject({ code: 'NETWORK_NOT_FOUND', details: 'no Polkadot network is configured in the core' })
  })
})

describe('the worker Polkadot client when the node is down', () => {
  it('tries a bounded number of times, then says it could not connect', async () => {
    const port = (await freePorts()).polkadot // nothing listens there
    const waits: number[] = []
    const client = createPolkadotClient({
      caipNetworkId: 'polkadot:45454545454545454545454545454545',
      rpcUrl: `ws://127.0.0.1:${port}`,
      reconnectCount: 2,
      sleep: async (ms) => void waits.push(ms),
    })
    const error = await client.getBalance(ALICE_GENERIC).catch((e: unknown) => e)
    expect(error).toMatchObject({
      code: 'POLKADOT_NODE_UNREACHABLE',
      shortMessage: 'Could not connect to the Polkadot Local node. Check your connection and try again.',
      details: expect.stringMatching(new RegExp(`^127\\.0\\.0\\.1:${port} after 3 attempts: `)),
    })
    expect(waits).toEqual([500, 1_000])
    await client.destroy()
  })

  it('says so when the node stops under a connected client, and connects again once it is back', async () => {
    const port = (await freePorts()).polkadot
    let chain = await startPolkadotChain({ port })
    const client = createPolkadotClient({ caipNetworkId: chain.caipNetworkId, rpcUrl: chain.rpcUrl, reconnectCount: 1, reconnectDelayMs: 10 })
    try {
      const alice = chain.devAccounts[0]!.address
      expect((await client.getBalance(alice)).free).toBe(chain.fundedPlanck)
      await chain.stop()
      await expect(client.getBalance(alice)).rejects.toMatchObject({ code: 'POLKADOT_NODE_UNREACHABLE' })
      chain = await startPolkadotChain({ port })
      expect((await client.getBalance(alice)).free).toBe(chain.fundedPlanck)
    } finally {
      await client.destroy()
      await chain.stop()
    }
  }, 120_000)

  it('refuses a URL that is not a WebSocket one, and a CAIP-2 id that is not Polkadot’s', () => {
    expect(() => createPolkadotClient({ caipNetworkId: 'polkadot:45454545454545454545454545454545', rpcUrl: 'https://rpc.polkadot.io' })).toThrow(
      expect.objectContaining({ code: 'NO_RPC_URL', field: 'rpcUrls.0' }),
    )
    expect(() => createPolkadotClient({ caipNetworkId: 'polkadot:45454545454545454545454545454545', rpcUrls: ['wss://rpc.polkadot.io', 'not a url'] })).toThrow(
      expect.objectContaining({ code: 'NO_RPC_URL', field: 'rpcUrls.1' }),
    )
    expect(() => createPolkadotClient({ caipNetworkId: 'polkadot:45454545454545454545454545454545', rpcUrls: [] })).toThrow(expect.objectContaining({ code: 'NO_RPC_URL', field: 'rpcUrls' }))
    expect(() => createPolkadotClient({ caipNetworkId: 'bip122:000000000019d6689c085ae165831e93', rpcUrl: 'wss://rpc.polkadot.io' })).toThrow(
      expect.objectContaining({ code: 'INVALID_CONFIG', field: 'caipNetworkId' }),
    )
  })
})
