import { describe, expect, it, vi } from 'vitest'
import { bitcoinNetworks } from '../../../shared/families/bip122/address'
import type { BitcoinTransfer } from '../../../shared/families/bip122/coreApi'
import { createWidgetError } from '../../../shared/protocol/errors'
import type { Core } from '../../core/createCore'
import { toErrorNotice } from '../../state/errorNotice'
import type { WidgetNetwork } from '../../widget/config'
import type { NamespaceConnector } from '../types'
import { bitcoinSendFamily } from './send'

// The flow every family shares (fee first, refusals, wallet, toasts) is tested in ../sendFlow.test.ts; here, Bitcoin's rules.
/** The network's own currency, as the token list shows it. */
const NATIVE = { name: 'BTC', symbol: 'BTC', chainId: 'test', value: 0, price: 0, iconUrl: '', quantity: { decimals: '8', numeric: '1' } }
const LOCAL = bitcoinNetworks.regtest.caipNetworkId
const SENDER = 'bcrt1qquv9lg5g2r4jkr0ahun0ddfg5xntxjelwjpnuw'
const SENDER_KEY = '02'.padEnd(66, 'a')
const RECEIVER = 'bcrt1qkf7j3rkd7qd4j0kf23g6x0mmczaykvtwywskqn'
const MAINNET_ADDRESS = 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu'
const EVM_ADDRESS = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const TXID = 'ab'.repeat(32)
const localNetwork: WidgetNetwork = {
  chainNamespace: 'bip122',
  caipNetworkId: LOCAL,
  id: LOCAL.slice('bip122:'.length),
  name: 'Bitcoin Local',
  nativeCurrency: { name: 'Bitcoin', symbol: 'BTC', decimals: 8 },
  rpcUrls: { default: { http: ['http://127.0.0.1:3002'] } },
}
const transfer: BitcoinTransfer = {
  psbtBase64: 'cHNidP8BAA==',
  fee: 141n,
  feeRate: 1,
  vsize: 141,
  inputs: [
    { txid: '11'.repeat(32), vout: 0, value: 5_000_000_000n },
    { txid: '22'.repeat(32), vout: 1, value: 2_500_000_000n },
  ],
  change: 7_399_999_859n,
}

function setup({ connector = { namespace: 'bip122', bitcoinAccounts: () => [{ address: SENDER, purpose: 'payment', publicKey: SENDER_KEY }], signPsbt: vi.fn().mockResolvedValue('c2lnbmVk') } as object } = {}) {
  const bitcoin = {
    getBalance: vi.fn().mockResolvedValue({ confirmed: 150_000_000n, pending: -20_000n }),
    buildTransfer: vi.fn().mockResolvedValue(transfer),
    finalizeAndBroadcast: vi.fn().mockResolvedValue(TXID),
    waitForConfirmation: vi.fn().mockResolvedValue({ txid: TXID, blockHeight: 500, blockHash: 'cd'.repeat(32) }),
  }
  const getConnector = () => connector as NamespaceConnector
  const family = bitcoinSendFamily({ getNetwork: (id) => (id === LOCAL ? localNetwork : undefined), getConnector })
  return { family, core: { bitcoin } as unknown as Core, bitcoin, connector: connector as { signPsbt: ReturnType<typeof vi.fn> } }
}

describe('bitcoin send family', () => {
  it('takes any Bitcoin address as a receiver, and nothing else', () => {
    const { family } = setup()
    expect(family.isAddress(RECEIVER)).toBe(true)
    expect(family.isAddress(MAINNET_ADDRESS)).toBe(true)
    expect(family.isAddress(EVM_ADDRESS)).toBe(false)
    expect(family.receiverOn(RECEIVER, LOCAL)).toBe(RECEIVER)
  })

  it('lists the account’s BTC: confirmed and pending, 8 decimals', async () => {
    const { family, core, bitcoin } = setup()
    expect(await family.readBalances(core, { caipNetworkId: LOCAL, address: SENDER, force: true })).toMatchObject([{ symbol: 'BTC', name: 'Bitcoin', chainId: LOCAL, quantity: { decimals: '8', numeric: '1.4998' } }])
    expect(bitcoin.getBalance).toHaveBeenCalledWith({ caipNetworkId: LOCAL, address: SENDER, force: true })
  })

  it.each([
    ['an address of another network, naming both networks', MAINNET_ADDRESS, { code: 'BITCOIN_ADDRESS_WRONG_NETWORK', params: { addressNetwork: 'Bitcoin mainnet', network: 'Bitcoin Local' }, shortMessage: 'This is a Bitcoin mainnet address; the selected network is Bitcoin Local' }],
    ['an address of another family', EVM_ADDRESS, { code: 'INVALID_ADDRESS', shortMessage: 'Address is invalid.' }],
  ])('refuses %s, in its own words', (_name, receiver, error) => {
    const { family } = setup()
    expect(() => family.receiverOn(receiver, LOCAL)).toThrow(expect.objectContaining(error))
    expect(family.refusals.has(error.code)).toBe(true)
  })

  it.each([
    ['an amount that is not one', '0.1.2'],
    ['too many decimals', '0.000000001'],
  ])('refuses %s, in its own words', (_name, amount) => {
    const { family } = setup()
    expect(family.parseAmount('0.1', LOCAL)).toBe(10_000_000n)
    expect(() => family.parseAmount(amount, LOCAL)).toThrow(expect.objectContaining({ code: 'BITCOIN_AMOUNT_INVALID', shortMessage: 'Enter an amount of BTC more than 0, with at most 8 decimals' }))
    expect(family.refusals.has('BITCOIN_AMOUNT_INVALID')).toBe(true)
  })

  it('says the worker’s rules (dust, more than the account can spend) in their own words', () => {
    const { family } = setup()
    const dust = createWidgetError('BITCOIN_AMOUNT_BELOW_DUST', { params: { dust: '294' } })
    const funds = createWidgetError('BITCOIN_INSUFFICIENT_FUNDS', { params: { fee: '141', available: '5000' } })
    expect([dust, funds].map((error) => family.refusals.has(error.code) && toErrorNotice(error).message)).toEqual([
      'The amount is below the dust limit: send at least 294 sats to this address',
      'The amount and its network fee of 141 sats are more than the 5000 sats this account can spend',
    ])
  })

  it('has the worker price the PSBT from the payment account, with its key, and shows its fee in BTC', async () => {
    const { family, core, bitcoin } = setup()
    expect(await family.buildTransfer(core, { caipNetworkId: LOCAL, from: SENDER, to: RECEIVER, amount: 10_000_000n })).toBe(transfer)
    expect(bitcoin.buildTransfer).toHaveBeenCalledWith({ caipNetworkId: LOCAL, from: { address: SENDER, publicKey: SENDER_KEY }, to: RECEIVER, amount: 10_000_000n })
    expect(family.feeOf(transfer, LOCAL)).toEqual({ networkFee: { amount: '0.00000141', symbol: 'BTC' }, feeReserve: '0.00000141' })
  })

  it('builds from the address alone without a wallet', async () => {
    const { family, core, bitcoin } = setup({ connector: { namespace: 'eip155' } })
    await family.buildTransfer(core, { caipNetworkId: LOCAL, from: SENDER, to: RECEIVER, amount: 1n })
    expect(bitcoin.buildTransfer).toHaveBeenCalledWith(expect.objectContaining({ from: { address: SENDER } }))
  })

  it('sends: the wallet signs every input, the worker broadcasts, then waits for the block', async () => {
    const { family, core, bitcoin, connector } = setup()
    const sent = await family.getSigner(core)({ transfer, token: NATIVE, to: RECEIVER, amount: '0.1', caipNetworkId: LOCAL, from: SENDER })
    expect(connector.signPsbt).toHaveBeenCalledWith({ psbtBase64: transfer.psbtBase64, address: SENDER, signingIndexes: [0, 1], caipNetworkId: LOCAL })
    expect(bitcoin.finalizeAndBroadcast).toHaveBeenCalledWith({ caipNetworkId: LOCAL, psbtBase64: 'c2lnbmVk' })
    expect(sent.id).toBe(TXID)
    expect(await sent.waitForBlock()).toEqual({ isSuccess: true })
    expect(bitcoin.waitForConfirmation).toHaveBeenCalledWith({ caipNetworkId: LOCAL, txid: TXID, pollIntervalMs: 1_000 })
  })

  it('asks no wallet of another family, and says a broadcast refusal as a transfer that would fail', () => {
    const { family, core } = setup({ connector: { namespace: 'eip155' } })
    expect(() => family.getSigner(core)).toThrow(expect.objectContaining({ code: 'AUTH_CONNECTOR_NOT_FOUND' }))
    expect(family.submitRefusals?.has('BITCOIN_BROADCAST_REFUSED') ?? false).toBe(false)
  })
})
