import { describe, expect, it } from 'vitest'
import { encodeSs58, polkadotNetworks } from './address'
import { createPolkadotSignInMessage, parsePolkadotSignInMessage, type PolkadotSignInMessageFields } from './signInMessage'

const key = new Uint8Array(32).fill(7)
const POLKADOT_REF = polkadotNetworks.polkadot.caipNetworkId.slice('polkadot:'.length)
const fields: PolkadotSignInMessageFields = {
  domain: 'dapp.test',
  address: encodeSs58(key, 0),
  statement: 'Sign in with your wallet.',
  uri: 'https://dapp.test',
  version: '1',
  chainId: POLKADOT_REF,
  nonce: 'abcdefgh1234',
  issuedAt: new Date('2026-11-23T12:00:00.000Z'),
  expirationTime: new Date('2026-11-23T13:00:00.000Z'),
}

describe('Sign in with Polkadot (CAIP-122)', () => {
  it('writes EIP-4361’s layout with "Polkadot" in the header and the genesis reference as Chain ID, and reads it back', () => {
    const text = createPolkadotSignInMessage(fields)
    expect(text).toBe(
      [
        'dapp.test wants you to sign in with your Polkadot account:',
        fields.address,
        '',
        'Sign in with your wallet.',
        '',
        'URI: https://dapp.test',
        'Version: 1',
        `Chain ID: ${POLKADOT_REF}`,
        'Nonce: abcdefgh1234',
        'Issued At: 2026-11-23T12:00:00.000Z',
        'Expiration Time: 2026-11-23T13:00:00.000Z',
      ].join('\n'),
    )
    expect(parsePolkadotSignInMessage(text)).toEqual({ ok: true, fields })
  })

  it.each([
    ['an address of another network', { address: encodeSs58(key, 2) }, 'address'],
    ['a Bitcoin address', { address: 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu' }, 'address'],
    ['a Chain ID that is not a genesis reference', { chainId: 'polkadot' }, 'chainId'],
    ['a short nonce', { nonce: 'abc' }, 'nonce'],
    ['a statement of two lines', { statement: 'a\nb' }, 'statement'],
  ])('refuses %s', (_name, change, field) => {
    expect(() => createPolkadotSignInMessage({ ...fields, ...change })).toThrow(expect.objectContaining({ code: 'INVALID_MESSAGE', field }))
  })

  it('takes the generic format (42) on a known network', () => {
    expect(() => createPolkadotSignInMessage({ ...fields, address: encodeSs58(key, 42) })).not.toThrow()
  })

  it('refuses any text that is not exactly the message of its fields', () => {
    const text = createPolkadotSignInMessage(fields)
    expect(parsePolkadotSignInMessage(`${text}\n`)).toMatchObject({ ok: false })
    expect(parsePolkadotSignInMessage(text.replace('Polkadot account', 'Ethereum account'))).toMatchObject({ ok: false, field: 'message' })
    expect(parsePolkadotSignInMessage(text.replace('Issued At: 2026-11-23T12:00:00.000Z', 'Issued At: 2026-11-23T12:00:00Z'))).toMatchObject({ ok: false, field: 'issuedAt' })
    expect(parsePolkadotSignInMessage(text.replace(fields.address, encodeSs58(key, 2)))).toMatchObject({ ok: false, field: 'address' })
  })
})
