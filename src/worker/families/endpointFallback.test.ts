// Every family's endpoints with fallback: with the first of two endpoints dead (nothing listens) or hanging (it accepts
// and never answers), the worker's Solana and Bitcoin clients (the one ranked fallback, rpc-transport/rankedFallback.ts,
// ranked as the widget's worker ranks them) and its Polkadot client (WebSocket nodes tried side by side) still read
// balances and send on the real local chains, each call's p99 under 2 s.
import { createServer as createTcpServer, type Socket } from 'node:net'
import { createServer, type Server } from 'node:http'
import { Keyring } from '@polkadot/keyring'
import { cryptoWaitReady } from '@polkadot/util-crypto'
import { hexToU8a, u8aToHex } from '@polkadot/util'
import { createKeyPairFromBytes, getTransactionDecoder, getTransactionEncoder, signTransaction } from '@solana/kit'
import { initEccLib, networks, Psbt } from 'bitcoinjs-lib'
import { ECPairFactory } from 'ecpair'
import * as ecc from 'tiny-secp256k1'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bitcoinMinerAddress, deriveBitcoinAccounts } from '../../../services/chain/bitcoin/devKeys'
import { startBitcoinChain, type BitcoinChain } from '../../../services/chain/bitcoin/startBitcoinChain'
import { seedSolana, type SeededSolana } from '../../../services/chain/solana/seedSolana'
import { startSolanaChain, type SolanaChain } from '../../../services/chain/solana/startSolanaChain'
import { startPolkadotChain, type PolkadotChain } from '../../../services/chain/polkadot/startPolkadotChain'
import { freePorts } from '../../../services/stack/ports'
import { createBitcoinClient } from './bip122/bitcoin'
import { createPolkadotClient } from './polkadot/polkadot'
import { createSolanaClient } from './solana/solana'

initEccLib(ecc)
const ecpair = ECPairFactory(ecc)
const READS = 40

/** A server that accepts every request and never answers it. */
async function startHangingServer(): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer(() => {})
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** The 99th percentile of the durations (ms). */
const p99 = (durations: number[]) => [...durations].sort((a, b) => a - b)[Math.ceil(durations.length * 0.99) - 1]!

async function timed<T>(durations: number[], run: () => Promise<T>): Promise<T> {
  const started = performance.now()
  try {
    return await run()
  } finally {
    durations.push(performance.now() - started)
  }
}

let hanging: Awaited<ReturnType<typeof startHangingServer>>
let deadUrl: string
beforeAll(async () => {
  hanging = await startHangingServer()
  deadUrl = `http://127.0.0.1:${(await freePorts()).api}` // a free port: nothing listens there
})
afterAll(() => hanging?.close())

describe('Solana with the first of two endpoints dead or hanging', () => {
  let chain: SolanaChain
  let seeded: SeededSolana

  beforeAll(async () => {
    const { anvil: port, anvil2: wsPort } = await freePorts()
    chain = await startSolanaChain({ port, wsPort })
    seeded = await seedSolana({ rpcUrl: chain.rpcUrl })
  }, 60_000)
  afterAll(() => chain?.stop())

  it.each(['dead', 'hanging'] as const)('%s first: balances and a send succeed, p99 under 2 s', async (kind) => {
    const client = createSolanaClient({ rpcUrls: [kind === 'dead' ? deadUrl : hanging.url, chain.rpcUrl], rank: true })
    try {
      const durations: number[] = []
      const [from, to] = seeded.devAccounts as [string, string]
      for (let i = 0; i < READS; i++) expect(await timed(durations, () => client.getBalance(to))).toBeGreaterThan(0n)
      const before = await client.getBalance(to)
      const { transaction, lastValidBlockHeight } = await timed(durations, () => client.buildTransfer({ from, to, amount: 1_000n }))
      const signed = await signTransaction([await createKeyPairFromBytes(seeded.devSecretKeys[0]!)], getTransactionDecoder().decode(transaction))
      const signature = await timed(durations, () => client.sendTransaction(new Uint8Array(getTransactionEncoder().encode(signed))))
      await timed(durations, () => client.waitForConfirmation({ signature, lastValidBlockHeight, pollIntervalMs: 20 }))
      expect(await client.getBalance(to)).toBe(before + 1_000n)
      expect(p99(durations)).toBeLessThan(2_000)
    } finally {
      client.close()
    }
  }, 60_000)
})

describe('Bitcoin with the first of two Esplora APIs dead or hanging', () => {
  const accounts = deriveBitcoinAccounts()
  let chain: BitcoinChain

  beforeAll(async () => {
    chain = await startBitcoinChain({
      port: (await freePorts()).bitcoin,
      blockIntervalMs: 0,
      coinbaseAddress: bitcoinMinerAddress(),
      premine: { blocks: 450, addresses: accounts.map((account) => account.payment.address) },
    })
  }, 60_000)
  afterAll(() => chain?.stop())

  it.each([
    ['dead', 1],
    ['hanging', 2],
  ] as const)('%s first: balances and a send succeed, p99 under 2 s', async (kind, senderIndex) => {
    const client = createBitcoinClient({ apiUrls: [kind === 'dead' ? deadUrl : hanging.url, chain.apiUrl], network: 'regtest', rank: true })
    try {
      const durations: number[] = []
      const sender = accounts[senderIndex]!
      const recipient = accounts[3]!
      for (let i = 0; i < READS; i++) expect((await timed(durations, () => client.getBalance(sender.payment.address))).confirmed).toBeGreaterThan(0n)
      const before = await client.getBalance(recipient.payment.address)
      const transfer = await timed(durations, () => client.buildTransfer({ from: sender.payment, to: recipient.payment.address, amount: 100_000n }))
      const signed = Psbt.fromBase64(transfer.psbtBase64, { network: networks.regtest }).signAllInputs(ecpair.fromWIF(sender.payment.wif, networks.regtest)).toBase64()
      const txid = await timed(durations, () => client.finalizeAndBroadcast(signed))
      const confirmation = client.waitForConfirmation({ txid, pollIntervalMs: 20, maxWaitMs: 10_000 })
      await chain.mine(1)
      await timed(durations, () => confirmation)
      expect((await client.getBalance(recipient.payment.address)).confirmed).toBe(before.confirmed + before.pending + 100_000n)
      expect(p99(durations)).toBeLessThan(2_000)
    } finally {
      client.close()
    }
  }, 60_000)
})

describe('Polkadot with the first of two WebSocket nodes dead or hanging', () => {
  const LOCAL = 'polkadot:45454545454545454545454545454545'
  let chain: PolkadotChain
  let keyring: Keyring
  /** Accepts the TCP connection and never answers the WebSocket handshake. */
  const accepted = new Set<Socket>()
  const hangingSocket = createTcpServer((socket) => void accepted.add(socket))
  let hangingUrl: string

  beforeAll(async () => {
    chain = await startPolkadotChain({ port: (await freePorts()).polkadot })
    await cryptoWaitReady()
    keyring = new Keyring({ type: 'sr25519', ss58Format: chain.ss58Prefix })
    await new Promise<void>((resolve) => hangingSocket.listen(0, '127.0.0.1', resolve))
    hangingUrl = `ws://127.0.0.1:${(hangingSocket.address() as { port: number }).port}`
  }, 120_000)
  afterAll(async () => {
    for (const socket of accepted) socket.destroy()
    await new Promise((resolve) => hangingSocket.close(resolve))
    await chain?.stop()
  })

  it.each([
    ['dead', '//Bob'],
    ['hanging', '//Charlie'],
  ] as const)('%s first: balances and a send succeed, p99 under 2 s', async (kind, senderUri) => {
    const client = createPolkadotClient({ caipNetworkId: LOCAL, rpcUrls: [kind === 'dead' ? deadUrl.replace(/^http/, 'ws') : hangingUrl, chain.rpcUrl] })
    try {
      const durations: number[] = []
      const sender = keyring.addFromUri(senderUri)
      const recipient = keyring.addFromUri(`//tessera/fallback/${kind}`).address
      for (let i = 0; i < READS; i++) expect((await timed(durations, () => client.getBalance(sender.address))).free).toBeGreaterThan(0n)
      const before = (await client.getBalance(recipient)).free
      const transfer = await timed(durations, () => client.buildTransfer({ from: sender.address, to: recipient, amount: 10n ** 12n }))
      // What a polkadot.js extension's signRaw gives for the payload: the bytes signed by the account's key, kind byte first.
      const signature = u8aToHex(sender.sign(hexToU8a(transfer.raw.data), { withType: true }))
      const submission = await timed(durations, () => client.submitTransfer({ payload: transfer.payload, signature }))
      await timed(durations, () => client.waitForTransaction({ submission, until: 'inBlock', pollIntervalMs: 50 }))
      expect((await client.getBalance(recipient)).free).toBe(before + 10n ** 12n)
      expect(p99(durations)).toBeLessThan(2_000)
    } finally {
      await client.destroy()
    }
  }, 90_000)
})
