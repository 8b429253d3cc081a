import { describe, expect, it, vi } from 'vitest'
import { encodeSs58, polkadotNetworks } from '../../../shared/families/polkadot/address'
import type { PolkadotTransfer } from '../../../shared/families/polkadot/coreApi'
import { createWidgetError } from '../../../shared/protocol/errors'
import type { Core } from '../../core/createCore'
import { toErrorNotice } from '../../state/errorNotice'
import type { WidgetNetwork } from '../../widget/config'
import type { NamespaceConnector } from '../types'
import { polkadotSendFamily } from './send'

// The flow every family shares (fee first, refusals, wallet, toasts) is tested in ../sendFlow.test.ts; here, Polkadot's rules.
/** The network's own currency, as the token list shows it. */
const NATIVE = { name: 'ROC', symbol: 'ROC', chainId: 'test', value: 0, price: 0, iconUrl: '', quantity: { decimals: '12', numeric: '1' } }
const LOCAL = polkadotNetworks.local.caipNetworkId
const key = (byte: number) => new Uint8Array(32).fill(byte)
const SENDER = encodeSs58(key(1), 2)
const RECEIVER = encodeSs58(key(2), 2)
const RECEIVER_GENERIC = encodeSs58(key(2), 42)
const RECEIVER_ON_POLKADOT = encodeSs58(key(2), 0)
const HASH = `0x${'ab'.repeat(32)}` as const
const SIGNATURE = `0x01${'ee'.repeat(64)}`
const ROC = 1_000_000_000_000n
const localNetwork: WidgetNetwork = {
  chainNamespace: 'polkadot',
  caipNetworkId: LOCAL,
  id: LOCAL.slice('polkadot:'.length),
  name: 'Polkadot Local',
  nativeCurrency: { name: 'Rococo', symbol: 'ROC', decimals: 12 },
  rpcUrls: { default: { http: ['http://127.0.0.1:9944'], webSocket: ['ws://127.0.0.1:9944'] } },
  ss58Prefix: 2,
}
const transfer = {
  payload: { address: SENDER, method: '0x0a03', genesisHash: `0x${'45'.repeat(32)}` },
  raw: { address: SENDER, data: '0x0a03', type: 'payload' },
  fee: 15_000_000n,
  existentialDeposit: 3_333_333n,
  to: RECEIVER,
  validUntilBlock: 80,
} as unknown as PolkadotTransfer
const submission = { hash: HASH, fromBlock: 11, validUntilBlock: 80 }
const inclusion = { hash: HASH, blockHash: `0x${'cd'.repeat(32)}`, blockNumber: 11, index: 1, isFinalized: true, isSuccess: true }

function setup({ connector = { namespace: 'polkadot', signTransfer: vi.fn().mockResolvedValue(SIGNATURE) } as object } = {}) {
  // 10 ROC free, of which the existential deposit stays: 10 ROC - 3,333,333 planck can leave.
  const polkadot = {
    getBalance: vi.fn().mockResolvedValue({ free: 10n * ROC, reserved: 2n * ROC, frozen: 0n, transferable: 10n * ROC - 3_333_333n }),
    buildTransfer: vi.fn().mockResolvedValue(transfer),
    submitTransfer: vi.fn().mockResolvedValue(submission),
    waitForTransaction: vi.fn().mockResolvedValue(inclusion),
  }
  const family = polkadotSendFamily({ getNetwork: (id) => (id === LOCAL ? localNetwork : undefined), getConnector: () => connector as NamespaceConnector })
  return { family, core: { polkadot } as unknown as Core, polkadot, connector: connector as { signTransfer: ReturnType<typeof vi.fn> } }
}
const refusalOf = (run: () => unknown) => {
  try {
    run()
  } catch (error) {
    return toErrorNotice(error)
  }
  throw new Error('did not throw')
}

describe('polkadot send family', () => {
  it('lists the account’s free balance in the network’s token and decimals', async () => {
    const { family, core, polkadot } = setup()
    expect(await family.readBalances(core, { caipNetworkId: LOCAL, address: SENDER, force: false })).toMatchObject([{ symbol: 'ROC', name: 'Rococo', chainId: LOCAL, quantity: { decimals: '12', numeric: '10' } }])
    expect(polkadot.getBalance).toHaveBeenCalledWith({ caipNetworkId: LOCAL, address: SENDER, force: false })
  })

  it('takes any SS58 account address as a receiver, and on the network its own prefix or the generic one (42)', () => {
    const { family } = setup()
    expect([RECEIVER, RECEIVER_ON_POLKADOT, '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', `${RECEIVER.slice(0, -1)}x`].map(family.isAddress)).toEqual([true, true, false, false])
    expect(family.receiverOn(RECEIVER, LOCAL)).toBe(RECEIVER)
    expect(family.receiverOn(RECEIVER_GENERIC, LOCAL)).toBe(RECEIVER_GENERIC)
  })

  it('refuses an address of another network in its own words, naming both', () => {
    const { family } = setup()
    const notice = refusalOf(() => family.receiverOn(RECEIVER_ON_POLKADOT, LOCAL))
    expect(notice).toEqual({ code: 'POLKADOT_ADDRESS_WRONG_NETWORK', params: { addressNetwork: 'Polkadot', network: 'Polkadot Local' }, message: 'This is a Polkadot address; the selected network is Polkadot Local' })
    expect(family.refusals.has(notice.code)).toBe(true)
  })

  it('reads the amount in planck, and refuses one the form would not take', () => {
    const { family } = setup()
    expect(family.parseAmount('1.5', LOCAL)).toBe(1_500_000_000_000n)
    for (const amount of ['0', '1.0000000000001', '1e3']) expect(refusalOf(() => family.parseAmount(amount, LOCAL))).toMatchObject({ code: 'SEND_INPUT_MISSING' })
  })

  it.each([
    [
      'an amount that leaves a new account under the existential deposit',
      createWidgetError('POLKADOT_BELOW_EXISTENTIAL_DEPOSIT', { params: { existentialDeposit: '0.000003333333 ROC', minimum: '0.000003333333 ROC' } }),
      'An account must hold at least 0.000003333333 ROC: send at least 0.000003333333 ROC to this address',
    ],
    [
      'more than the account can send while keeping its deposit',
      createWidgetError('POLKADOT_INSUFFICIENT_FUNDS', { params: { fee: '0.000015 ROC', available: '9.999996666667 ROC', existentialDeposit: '0.000003333333 ROC' } }),
      'The amount and its network fee of 0.000015 ROC are more than the 9.999996666667 ROC this account can send while keeping its existential deposit of 0.000003333333 ROC',
    ],
  ])('says %s (the worker’s rule) in its own words', (_name, error, message) => {
    const { family } = setup()
    expect(family.refusals.has(error.code)).toBe(true)
    expect(toErrorNotice(error).message).toBe(message)
  })

  it('shows the fee the node prices, in the token; Max keeps the fee and what the account must keep', async () => {
    const { family, core, polkadot } = setup()
    const request = { caipNetworkId: LOCAL, from: SENDER, to: RECEIVER, amount: 1_500_000_000_000n }
    expect(await family.buildTransfer(core, request)).toBe(transfer)
    expect(polkadot.buildTransfer).toHaveBeenCalledWith(request)
    expect(family.feeOf(transfer, LOCAL)).toEqual({ networkFee: { amount: '0.000015', symbol: 'ROC' }, feeReserve: '0.000015' })
    await family.readBalances(core, { caipNetworkId: LOCAL, address: SENDER, force: false })
    expect(family.feeOf(transfer, LOCAL)).toEqual({ networkFee: { amount: '0.000015', symbol: 'ROC' }, feeReserve: '0.000018333333' })
  })

  it('sends: signed by the extension, submitted by the worker, then waits for its block within the era', async () => {
    const { family, core, polkadot, connector } = setup()
    const sent = await family.getSigner(core)({ transfer, token: NATIVE, to: RECEIVER, amount: '1.5', caipNetworkId: LOCAL, from: SENDER })
    expect(connector.signTransfer).toHaveBeenCalledWith(transfer)
    expect(polkadot.submitTransfer).toHaveBeenCalledWith({ caipNetworkId: LOCAL, payload: transfer.payload, signature: SIGNATURE })
    expect(sent.id).toBe(HASH)
    expect(await sent.waitForBlock()).toBe(inclusion)
    expect(polkadot.waitForTransaction).toHaveBeenCalledWith({ caipNetworkId: LOCAL, submission, pollIntervalMs: 1_000, maxWaitMs: 600_000 })
  })

  it('asks no wallet of another family', () => {
    const { family, core } = setup({ connector: { namespace: 'bip122' } })
    expect(refusalOf(() => family.getSigner(core))).toMatchObject({ code: 'AUTH_CONNECTOR_NOT_FOUND' })
  })

  it('says the node’s refusals that tell what to do, and an era that ended, in their own words', () => {
    const { family } = setup()
    expect(['POLKADOT_TRANSACTION_STALE', 'POLKADOT_CANNOT_PAY_FEE'].filter((code) => family.submitRefusals?.has(code))).toHaveLength(2)
    expect(family.notIncludedCode).toBe('POLKADOT_TRANSACTION_NOT_INCLUDED')
  })
})
