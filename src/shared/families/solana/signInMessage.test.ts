import { base58 } from '@scure/base'
import { describe, expect, it } from 'vitest'
import { createSolanaSignInMessage, parseSolanaSignInMessage, type SolanaSignInMessageFields } from './signInMessage'

// The USDC mint: any valid 32-byte base58 address serves.
const ADDRESS = 'EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v'
const NONCE = 'a1b2c3d4e5f6a7b8'

const minimal: SolanaSignInMessageFields = {
  domain: 'dapp.test',
  address: ADDRESS,
  uri: 'https://dapp.test',
  version: '1',
  chainId: 'mainnet',
  nonce: NONCE,
  issuedAt: new Date('2026-11-23T12:00:00.000Z'),
}
const maximal: SolanaSignInMessageFields = {
  ...minimal,
  domain: 'localhost:5173',
  uri: 'http://localhost:5173/login',
  statement: 'Sign in to Dapp: this costs nothing.',
  chainId: 'localnet',
  expirationTime: new Date('2026-11-24T12:00:00.000Z'),
  notBefore: new Date('2026-11-23T11:59:00.000Z'),
  requestId: 'req-42',
  resources: ['https://dapp.test/terms', 'ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi'],
}

describe('Sign-In With Solana messages', () => {
  it('writes the SIWS layout: header, address, blank line, fields (no blank line for a missing statement)', () => {
    expect(createSolanaSignInMessage(minimal)).toBe(
      `dapp.test wants you to sign in with your Solana account:\n${ADDRESS}\n\nURI: https://dapp.test\nVersion: 1\nChain ID: mainnet\nNonce: ${NONCE}\nIssued At: 2026-11-23T12:00:00.000Z`,
    )
    expect(createSolanaSignInMessage(maximal)).toBe(
      [
        'localhost:5173 wants you to sign in with your Solana account:',
        ADDRESS,
        '',
        'Sign in to Dapp: this costs nothing.',
        '',
        'URI: http://localhost:5173/login',
        'Version: 1',
        'Chain ID: localnet',
        `Nonce: ${NONCE}`,
        'Issued At: 2026-11-23T12:00:00.000Z',
        'Expiration Time: 2026-11-24T12:00:00.000Z',
        'Not Before: 2026-11-23T11:59:00.000Z',
        'Request ID: req-42',
        'Resources:',
        '- https://dapp.test/terms',
        '- ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi',
      ].join('\n'),
    )
  })

  it.each([
    ['only the required fields', minimal],
    ['every field', maximal],
    ['a statement that looks like a field line', { ...minimal, statement: 'URI: https://evil.test' }],
    ['an empty Resources list', { ...minimal, resources: [] }],
    ['a solana:-prefixed chain id', { ...minimal, chainId: 'solana:devnet' }],
    ['a Unicode statement', { ...minimal, statement: 'Connexion à Dapp ✓' }],
  ] as const)('reads back what it writes: %s', (_name, fields) => {
    expect(parseSolanaSignInMessage(createSolanaSignInMessage(fields))).toEqual({ ok: true, fields })
  })

  const text = createSolanaSignInMessage({ ...minimal, expirationTime: new Date('2026-11-24T12:00:00.000Z') })
  const withStatement = createSolanaSignInMessage({ ...minimal, statement: 'Hello.' })
  it.each([
    ['an EIP-4361 message', text.replace('Solana account', 'Ethereum account'), 'message'],
    ['text before the header', `Ignore this.\n${text}`, 'message'],
    ['a line added at the end', `${text}\nAdmin: true`, 'message'],
    ['a trailing newline', `${text}\n`, 'message'],
    ['CRLF line ends', text.replaceAll('\n', '\r\n'), 'message'],
    ['a line added between fields', text.replace('\nNonce:', '\nAdmin: true\nNonce:'), 'nonce'],
    ['two fields swapped', text.replace(/Version: 1\nChain ID: mainnet/, 'Chain ID: mainnet\nVersion: 1'), 'version'],
    ['Expiration Time moved after Request ID', text.replace(/\nExpiration Time: (.*)/, '\nRequest ID: x\nExpiration Time: $1'), 'message'],
    ['the EIP-4361 blank line for a missing statement', text.replace('\n\nURI:', '\n\n\nURI:'), 'uri'],
    ['an empty statement', text.replace('\n\nURI:', '\n\n\n\nURI:'), 'statement'],
    ['a statement of two lines', withStatement.replace('Hello.', 'Hello.\nSecond line.'), 'uri'],
    ['a tab in the statement', withStatement.replace('Hello.', 'Hello.\tThere.'), 'statement'],
    ['no blank line after the address', text.replace(`${ADDRESS}\n\n`, `${ADDRESS}\n`), 'message'],
    ['a scheme before the domain', `https://${text}`, 'domain'],
    ['a path in the domain', text.replace('dapp.test wants', 'dapp.test/x wants'), 'domain'],
    ['userinfo in the domain', text.replace('dapp.test wants', 'user@dapp.test wants'), 'domain'],
    ['a hex address', text.replace(ADDRESS, '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'), 'address'],
    ['an address of 31 bytes', text.replace(ADDRESS, base58.encode(new Uint8Array(31).fill(7))), 'address'],
    ['an address with a 0 (not base58)', text.replace(ADDRESS, `0${ADDRESS.slice(1)}`), 'address'],
    ['a relative URI', text.replace('URI: https://dapp.test', 'URI: /login'), 'uri'],
    ['a URI with a space', text.replace('URI: https://dapp.test', 'URI: https://dapp.test/a b'), 'uri'],
    ['version 2', text.replace('Version: 1', 'Version: 2'), 'version'],
    ['a CAIP-2 reference as Chain ID', text.replace('Chain ID: mainnet', 'Chain ID: 5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'), 'chainId'],
    ['mainnet-beta as Chain ID', text.replace('Chain ID: mainnet', 'Chain ID: mainnet-beta'), 'chainId'],
    ['a numeric Chain ID', text.replace('Chain ID: mainnet', 'Chain ID: 1'), 'chainId'],
    ['a 7-character nonce', text.replace(NONCE, 'abc1234'), 'nonce'],
    ['a nonce with a dash', text.replace(NONCE, 'abcd-1234'), 'nonce'],
    ['no Issued At', text.replace(/\nIssued At: .*/, ''), 'issuedAt'],
    ['an Issued At without milliseconds', text.replace('Issued At: 2026-11-23T12:00:00.000Z', 'Issued At: 2026-11-23T12:00:00Z'), 'issuedAt'],
    ['an Issued At with an offset', text.replace('Issued At: 2026-11-23T12:00:00.000Z', 'Issued At: 2026-11-23T13:00:00.000+01:00'), 'issuedAt'],
    ['an Issued At on 30 February', text.replace('Issued At: 2026-11-23', 'Issued At: 2026-02-30'), 'issuedAt'],
    ['an Expiration Time that is not a date', text.replace(/Expiration Time: .*/, 'Expiration Time: tomorrow'), 'expirationTime'],
    ['a Request ID with a space', text.replace(/(Expiration Time: .*)/, '$1\nRequest ID: a b'), 'requestId'],
    ['a Resources item that is not a URI', `${text}\nResources:\n- not a uri`, 'resources'],
    ['a Resources item without its dash', `${text}\nResources:\nhttps://dapp.test`, 'message'],
    ['a NUL in the statement', withStatement.replace('Hello.', 'Hello.\u0000'), 'statement'],
    ['a lone surrogate', withStatement.replace('Hello.', 'Hello.\ud800'), 'message'],
  ])('refuses %s, naming the field', (_name, tampered, field) => {
    expect(parseSolanaSignInMessage(tampered)).toMatchObject({ ok: false, field })
  })

  it.each([
    ['a domain with a path', { domain: 'dapp.test/x' }, 'domain'],
    ['an EVM address', { address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' }, 'address'],
    ['a statement of two lines', { statement: 'one\ntwo' }, 'statement'],
    ['an empty statement', { statement: '' }, 'statement'],
    ['an unknown chain id', { chainId: 'mainnet-beta' }, 'chainId'],
    ['a short nonce', { nonce: 'abc' }, 'nonce'],
    ['an invalid date', { issuedAt: new Date(Number.NaN) }, 'issuedAt'],
    ['a year past 9999', { expirationTime: new Date('+012345-01-01T00:00:00.000Z') }, 'expirationTime'],
    ['an empty Request ID', { requestId: '' }, 'requestId'],
    ['a resource with a line break', { resources: ['https://a.test\nAdmin: true'] }, 'resources'],
  ])('will not write %s', (_name, change, field) => {
    expect(() => createSolanaSignInMessage({ ...minimal, ...change } as SolanaSignInMessageFields)).toThrow(expect.objectContaining({ code: 'INVALID_MESSAGE', field }))
  })
})
