import { describe, expect, it } from 'vitest'
import { accountSchema, assetSchema, connectorSchema, networkSchema, notificationSchema, sendStateSchema, tokenBalanceSchema, transactionSchema, userSchema, walletListingEntrySchema } from './entities'
import { storeMessageSchema } from './envelope'
import { appEvents, parseAppRequest, parseFrameReply, replyType } from './frameMessages'
import { parseOrThrow } from './parse'

const rejectField = (run: () => unknown) => {
  try {
    run()
  } catch (error) {
    return { code: (error as { code: string }).code, field: (error as { field: string }).field, details: (error as { details: string }).details }
  }
  throw new Error('expected a rejection')
}

describe('secure-frame messages (SPEC §7, rules of SPEC §5)', () => {
  it('covers every event of SPEC §7', () => {
    expect(appEvents).toEqual([
      'APP_CONNECT_EMAIL', 'APP_CONNECT_DEVICE', 'APP_CONNECT_OTP', 'APP_CONNECT_SOCIAL', 'APP_GET_SOCIAL_REDIRECT_URI', 'APP_GET_FARCASTER_URI',
      'APP_CONNECT_FARCASTER', 'APP_GET_USER', 'APP_SIGN_OUT', 'APP_IS_CONNECTED', 'APP_GET_CHAIN_ID', 'APP_SWITCH_NETWORK', 'APP_RPC_REQUEST',
      'APP_UPDATE_EMAIL', 'APP_UPDATE_EMAIL_PRIMARY_OTP', 'APP_UPDATE_EMAIL_SECONDARY_OTP', 'APP_SYNC_THEME', 'APP_SYNC_DAPP_DATA',
      'APP_GET_SMART_ACCOUNT_ENABLED_NETWORKS', 'APP_INIT_SMART_ACCOUNT', 'APP_SET_PREFERRED_ACCOUNT', 'APP_RELOAD',
    ])
    expect(replyType('APP_CONNECT_EMAIL', 'SUCCESS')).toBe('FRAME_CONNECT_EMAIL_SUCCESS')
  })

  it('accepts valid requests', () => {
    expect(parseAppRequest({ id: '1', type: 'APP_CONNECT_EMAIL', payload: { email: 'a@b.co' } })).toEqual({ id: '1', type: 'APP_CONNECT_EMAIL', payload: { email: 'a@b.co' } })
    expect(parseAppRequest({ id: '2', type: 'APP_GET_SOCIAL_REDIRECT_URI', payload: { provider: 'github' } }).payload).toEqual({ provider: 'github' })
    expect(parseAppRequest({ id: '3', type: 'APP_SYNC_THEME', payload: { themeMode: 'light' } }).type).toBe('APP_SYNC_THEME')
    expect(parseAppRequest({ id: '4', type: 'APP_SIGN_OUT' }).type).toBe('APP_SIGN_OUT')
  })

  it.each([
    ['an invalid e-mail', { id: '1', type: 'APP_CONNECT_EMAIL', payload: { email: 'not-an-email' } }, 'payload.email'],
    ['no e-mail', { id: '1', type: 'APP_CONNECT_EMAIL', payload: {} }, 'payload.email'],
    ['a social provider outside the list', { id: '1', type: 'APP_GET_SOCIAL_REDIRECT_URI', payload: { provider: 'myspace' } }, 'payload.provider'],
    ['farcaster as a redirect provider', { id: '1', type: 'APP_GET_SOCIAL_REDIRECT_URI', payload: { provider: 'farcaster' } }, 'payload.provider'],
    ['a theme mode that is neither light nor dark', { id: '1', type: 'APP_SYNC_THEME', payload: { themeMode: 'blue' } }, 'payload.themeMode'],
    ['an OTP of 5 digits', { id: '1', type: 'APP_CONNECT_OTP', payload: { otp: '12345' } }, 'payload.otp'],
    ['an unknown event', { id: '1', type: 'APP_STEAL_KEYS', payload: {} }, 'type'],
    ['no id', { type: 'APP_SIGN_OUT' }, 'id'],
    ['an empty id', { id: '', type: 'APP_SIGN_OUT' }, 'id'],
  ])('rejects %s, naming %s', (_name, message, field) => {
    const error = rejectField(() => parseAppRequest(message))
    expect(error.code).toBe('INVALID_MESSAGE')
    expect(error.field).toBe(field)
    expect(error.details).toContain(`${field}: `)
  })

  it('checks replies by the request they answer', () => {
    expect(parseFrameReply({ id: '1', type: 'FRAME_CONNECT_EMAIL_SUCCESS', payload: { action: 'VERIFY_OTP' } }, 'APP_CONNECT_EMAIL')).toEqual({ id: '1', isError: false, payload: { action: 'VERIFY_OTP' } })
    expect(parseFrameReply({ id: '1', type: 'FRAME_UPDATE_EMAIL_PRIMARY_OTP_SUCCESS', payload: { action: 'VERIFY_SECONDARY_OTP' } }, 'APP_UPDATE_EMAIL_PRIMARY_OTP').payload).toEqual({ action: 'VERIFY_SECONDARY_OTP' })
    expect(parseFrameReply({ id: '1', type: 'FRAME_GET_USER_ERROR', payload: { message: 'no session' } }, 'APP_GET_USER')).toEqual({ id: '1', isError: true, payload: { message: 'no session' } })
    expect(rejectField(() => parseFrameReply({ id: '1', type: 'FRAME_CONNECT_EMAIL_SUCCESS', payload: { action: 'VERIFY_PRIMARY_OTP' } }, 'APP_CONNECT_EMAIL')).field).toBe('payload.action')
    expect(rejectField(() => parseFrameReply({ id: '1', type: 'FRAME_UPDATE_EMAIL_SUCCESS', payload: { action: 'CONNECT' } }, 'APP_UPDATE_EMAIL')).field).toBe('payload.action')
    expect(rejectField(() => parseFrameReply({ id: '1', type: 'FRAME_SIGN_OUT_SUCCESS' }, 'APP_GET_USER')).field).toBe('type')
    expect(rejectField(() => parseFrameReply({ id: '1', type: 'FRAME_GET_USER_SUCCESS', payload: { chainId: 1 } }, 'APP_GET_USER')).field).toBe('payload.address')
  })
})

describe('entities (SPEC §3)', () => {
  const network = {
    chainNamespace: 'eip155', caipNetworkId: 'eip155:1', id: 1, name: 'Ethereum',
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [] }, chainDefault: { http: [] } },
  }
  it.each([
    ['network', networkSchema, network],
    ['account', accountSchema, { namespace: 'eip155', address: '0xabc', type: 'eoa' }],
    ['user', userSchema, { email: null, address: '0xabc', chainId: 1, accounts: [{ address: '0xabc', type: 'smartAccount' }] }],
    ['connector', connectorSchema, { id: 'io.metamask', name: 'MetaMask', chain: 'eip155', type: 'ANNOUNCED', info: { rdns: 'io.metamask' } }],
    ['wallet listing entry', walletListingEntrySchema, { id: 'dev', name: 'Dev', chains: ['eip155:1'], mobile_link: null }],
    ['token balance', tokenBalanceSchema, { name: 'T', symbol: 'T', chainId: 'eip155:1', value: 1, price: 1, iconUrl: '', quantity: { decimals: '6', numeric: '1.5' } }],
    ['asset', assetSchema, { address: '0xabc', balance: '0x10', type: 'NATIVE', metadata: { name: 'E', symbol: 'E', decimals: 18 } }],
    ['transaction', transactionSchema, { id: '1', metadata: { operationType: 'send', hash: '0x1', minedAt: '2026-01-01T00:00:00Z', sentFrom: '0xa', sentTo: '0xb', status: 'confirmed', chain: 'eip155:1' }, transfers: [{ quantity: { numeric: '1' }, fungible_info: { symbol: 'ETH' } }] }],
    ['send state', sendStateSchema, { tokenBalances: [], loading: false, gasPrice: 1n }],
    ['notification', notificationSchema, { message: 'Transaction started', variant: 'success', open: true, autoClose: true }],
  ])('accepts a valid %s', (_name, schema, value) => expect(parseOrThrow(schema as never, value, 'entity')).toEqual(value))

  it.each([
    [networkSchema, { ...network, caipNetworkId: 'eip155' }, 'caipNetworkId'],
    [networkSchema, { ...network, nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: -1 } }, 'nativeCurrency.decimals'],
    [userSchema, { address: '0xabc', chainId: 1, email: 'nope' }, 'email'],
    [tokenBalanceSchema, { name: 'T', symbol: 'T', chainId: 'eip155:1', value: 1, price: 1, iconUrl: '', quantity: { decimals: '6', numeric: '1.5e3' } }, 'quantity.numeric'],
    [assetSchema, { address: '0xabc', balance: 16, type: 'NATIVE', metadata: { name: 'E', symbol: 'E', decimals: 18 } }, 'balance'],
    [assetSchema, { address: '0xabc', balance: '0x10', type: 'ERC721', metadata: { name: 'E', symbol: 'E', decimals: 18 } }, 'type'],
    [notificationSchema, { message: 'x', variant: 'warning', open: true, autoClose: true }, 'variant'],
  ])('names the failing field %#', (schema, value, field) => {
    expect(rejectField(() => parseOrThrow(schema as never, value, 'entity')).field).toBe(field)
  })
})

describe('worker → main envelope', () => {
  it('accepts snapshots and patches, rejects the rest naming the field', () => {
    expect(storeMessageSchema.safeParse({ kind: 'snapshot', version: 0, state: { blockNumbers: { '1': 5n } } }).success).toBe(true)
    expect(storeMessageSchema.safeParse({ kind: 'patch', version: 1, patches: [{ slice: 'balances', set: {}, remove: ['a'] }] }).success).toBe(true)
    expect(rejectField(() => parseOrThrow(storeMessageSchema, { kind: 'patch', version: 0, patches: [] }, 'store message')).field).toBe('version')
    expect(rejectField(() => parseOrThrow(storeMessageSchema, { kind: 'patch', version: 2, patches: [{ slice: 'secrets', set: {}, remove: [] }] }, 'store message')).field).toBe('patches.0.slice')
  })
})
