import { describe, expect, it } from 'vitest'
import { checkSendCalls, isValidAsset, usableAssets } from './assets'
import { FEE_CEILING_WEI } from './constants'
import { checkBaseFeeMultiplier, checkFees } from './fees'
import { DEFAULT_ACCOUNT_TYPES, isFrameRpcMethodAllowed, isSafeRpcMethod, isUnsafeRpcMethod } from './rpcMethods'
import { isEmail, isHexString, isSignedMessage, isTransactionHash, isValidAccountName } from './rules'

describe('account names (SPEC §5)', () => {
  it.each([
    ['abc', false],
    ['abcd', true],
    ['my-name-2', true],
    ['ab_c', false],
    ['abc.d', false],
    ['abc ', false],
    ['naïve', false],
    ['', false],
  ])('%j → %s', (name, valid) => expect(isValidAccountName(name)).toBe(valid))
})

describe('hashes, signatures, hex and e-mail (SPEC §5)', () => {
  it.each([
    [`0x${'a'.repeat(64)}`, true],
    [`0x${'a'.repeat(63)}`, false],
    [`0x${'a'.repeat(65)}`, false],
    [`${'a'.repeat(64)}`, false],
    [`0x${'g'.repeat(64)}`, false],
  ])('transaction hash %s → %s', (value, valid) => expect(isTransactionHash(value)).toBe(valid))

  it.each([
    [`0x${'1'.repeat(61)}`, false],
    [`0x${'1'.repeat(62)}`, true],
    [`0x${'1'.repeat(130)}`, true],
  ])('signed message %s → %s', (value, valid) => expect(isSignedMessage(value)).toBe(valid))

  it.each([['0x', false], ['0x0', true], ['0xAbC', true], ['0xz', false], ['abc', false]])('hex %s → %s', (value, valid) =>
    expect(isHexString(value)).toBe(valid),
  )

  it.each([
    ['a@b.co', true],
    ['first.last+tag@example.org', true],
    ['no-at.example.org', false],
    ['two@@example.org', false],
    ['space @example.org', false],
    ['nodot@example', false],
  ])('e-mail %s → %s', (value, valid) => expect(isEmail(value)).toBe(valid))
})

describe('fee checks (SPEC §5)', () => {
  it('accepts consistent fees, up to exactly 2^256-1', () => {
    expect(checkFees({ gasPrice: 1n })).toBeUndefined()
    expect(checkFees({ maxFeePerGas: FEE_CEILING_WEI, maxPriorityFeePerGas: 1n })).toBeUndefined()
    expect(checkFees({ maxFeePerGas: 5n, maxPriorityFeePerGas: 5n })).toBeUndefined()
  })

  it('names each problem', () => {
    expect(checkFees({ gasPrice: 1n, maxFeePerGas: 2n })?.code).toBe('FEE_CONFLICT')
    expect(checkFees({ gasPrice: 1n, maxPriorityFeePerGas: 2n })?.code).toBe('FEE_CONFLICT')
    expect(checkFees({ maxFeePerGas: FEE_CEILING_WEI + 1n })?.code).toBe('FEE_CAP_TOO_HIGH')
    expect(checkFees({ maxFeePerGas: 5n, maxPriorityFeePerGas: 6n })?.code).toBe('TIP_ABOVE_FEE_CAP')
    expect(checkFees({ maxFeePerGas: FEE_CEILING_WEI + 1n })?.message).toMatchInlineSnapshot(
      `"The fee cap (\`maxFeePerGas\` = 115792089237316195423570985008687907853269984665640564039457584007913129639936) cannot be higher than the maximum allowed value (2^256-1)."`,
    )
  })

  it('wants a base-fee multiplier of at least 1', () => {
    expect(checkBaseFeeMultiplier(1)).toBeUndefined()
    expect(checkBaseFeeMultiplier(1.2)).toBeUndefined()
    expect(checkBaseFeeMultiplier(0.99)).toBe('`baseFeeMultiplier` must be greater than 1.')
    expect(checkBaseFeeMultiplier(Number.NaN)).toBeDefined()
  })
})

describe('wallet_getAssets and wallet_sendCalls (SPEC §5)', () => {
  const asset = { address: '0xabc', balance: '0x10', type: 'ERC20', metadata: { name: 'T', symbol: 'T', decimals: 6, price: 1, iconUrl: '' } }
  it.each([
    ['a valid asset', asset, true],
    ['a native asset', { ...asset, type: 'NATIVE' }, true],
    ['a numeric balance', { ...asset, balance: 16 }, false],
    ['an unknown type', { ...asset, type: 'ERC721' }, false],
    ['no metadata', { ...asset, metadata: undefined }, false],
    ['a price that is a string', { ...asset, metadata: { ...asset.metadata, price: '1' } }, false],
    ['null', null, false],
  ])('%s → %s', (_name, value, valid) => expect(isValidAsset(value)).toBe(valid))

  it("drops invalid assets and tokens whose decimals are '0'", () => {
    const zero = { ...asset, address: '0xzero', metadata: { ...asset.metadata, decimals: '0' } }
    expect(usableAssets([asset, zero, { nope: true }]).map((a) => a.address)).toEqual(['0xabc'])
  })

  it('checks every call', () => {
    expect(checkSendCalls([{ to: '0x1' }, { to: '0x2', data: '0xabcd' }])).toBeUndefined()
    expect(checkSendCalls([{ to: '0x1' }, { to: '1x2' }])).toEqual({ index: 1, field: 'to', message: 'calls.1.to must start with 0x' })
    expect(checkSendCalls([{ to: '0x1', data: 'abcd' }])).toEqual({ index: 0, field: 'data', message: 'calls.0.data must start with 0x' })
  })
})

describe('RPC method lists and account types (SPEC §6)', () => {
  it('classifies methods', () => {
    for (const m of ['eth_accounts', 'eth_call', 'eth_getBalance', 'eth_chainId', 'eth_getLogs']) expect(isSafeRpcMethod(m)).toBe(true)
    for (const m of ['personal_sign', 'eth_signTypedData_v4', 'eth_sendTransaction', 'solana_signMessage', 'wallet_sendCalls', 'wallet_grantPermissions', 'wallet_revokePermissions', 'eth_sendUserOperation']) {
      expect(isUnsafeRpcMethod(m)).toBe(true)
      expect(isSafeRpcMethod(m)).toBe(false)
    }
    for (const m of ['wallet_getCallsStatus', 'wallet_getCapabilities', 'wallet_getAssets']) expect(isFrameRpcMethodAllowed(m)).toBe(true)
    expect(isFrameRpcMethodAllowed('eth_sign')).toBe(false)
    expect(isFrameRpcMethodAllowed('debug_traceTransaction')).toBe(false)
  })

  it('defaults account types per namespace', () =>
    expect(DEFAULT_ACCOUNT_TYPES).toEqual({ eip155: 'smartAccount', bip122: 'payment', solana: 'eoa', polkadot: 'eoa' }))
})
