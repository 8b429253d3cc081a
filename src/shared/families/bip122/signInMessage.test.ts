import { networks, payments } from 'bitcoinjs-lib'
import { describe, expect, it } from 'vitest'
import { createBitcoinSignInMessage, parseBitcoinSignInMessage, type BitcoinSignInMessageFields } from './signInMessage'

const MAINNET = '000000000019d6689c085ae165831e93'
const TESTNET = '000000000933ea01ad0ee984209779ba'
const SIGNET = '00000008819873e925422c1ff0f99f7c'
const REGTEST = '0f9188f13cb7b2c71f2a335e3a4fc328'
const ADDRESS = 'bc1q9vza2e8x573nczrlzms0wvx3gsqjx7vavgkx0l'
const TAPROOT = 'bc1ppv609nr0vr25u07u95waq5lucwfm6tde4nydujnu8npg4q75mr5sxq8lt3'
const hash = new Uint8Array(20).fill(7)
const LEGACY = payments.p2pkh({ hash, network: networks.bitcoin }).address!
const NESTED = payments.p2sh({ hash, network: networks.bitcoin }).address!
const TESTNET_ADDRESS = payments.p2wpkh({ hash, network: networks.testnet }).address!
const TESTNET_LEGACY = payments.p2pkh({ hash, network: networks.testnet }).address!
const REGTEST_ADDRESS = payments.p2wpkh({ hash, network: networks.regtest }).address!
const NONCE = 'a1b2c3d4e5f6a7b8'

const minimal: BitcoinSignInMessageFields = {
  domain: 'dapp.test',
  address: ADDRESS,
  uri: 'https://dapp.test',
  version: '1',
  chainId: MAINNET,
  nonce: NONCE,
  issuedAt: new Date('2026-11-23T12:00:00.000Z'),
}
const maximal: BitcoinSignInMessageFields = {
  ...minimal,
  domain: 'localhost:5173',
  uri: 'http://localhost:5173/login',
  address: REGTEST_ADDRESS,
  statement: 'Sign in to Dapp: this costs nothing.',
  chainId: REGTEST,
  expirationTime: new Date('2026-11-24T12:00:00.000Z'),
  notBefore: new Date('2026-11-23T11:59:00.000Z'),
  requestId: 'req-42',
  resources: ['https://dapp.test/terms', 'ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi'],
}

describe('bip122 sign-in messages (CAIP-122)', () => {
  it('writes EIP-4361’s layout with Bitcoin in the header and the CAIP-2 reference as Chain ID', () => {
    expect(createBitcoinSignInMessage({ ...minimal, statement: 'Sign in with your wallet.', expirationTime: new Date('2026-11-24T12:00:00.000Z') })).toBe(
      [
        'dapp.test wants you to sign in with your Bitcoin account:',
        ADDRESS,
        '',
        'Sign in with your wallet.',
        '',
        'URI: https://dapp.test',
        'Version: 1',
        `Chain ID: ${MAINNET}`,
        `Nonce: ${NONCE}`,
        'Issued At: 2026-11-23T12:00:00.000Z',
        'Expiration Time: 2026-11-24T12:00:00.000Z',
      ].join('\n'),
    )
    // Without a statement, EIP-4361 keeps both blank lines.
    expect(createBitcoinSignInMessage(minimal)).toBe(
      `dapp.test wants you to sign in with your Bitcoin account:\n${ADDRESS}\n\n\nURI: https://dapp.test\nVersion: 1\nChain ID: ${MAINNET}\nNonce: ${NONCE}\nIssued At: 2026-11-23T12:00:00.000Z`,
    )
    expect(createBitcoinSignInMessage(maximal).split('\n').slice(3)).toEqual([
      'Sign in to Dapp: this costs nothing.',
      '',
      'URI: http://localhost:5173/login',
      'Version: 1',
      `Chain ID: ${REGTEST}`,
      `Nonce: ${NONCE}`,
      'Issued At: 2026-11-23T12:00:00.000Z',
      'Expiration Time: 2026-11-24T12:00:00.000Z',
      'Not Before: 2026-11-23T11:59:00.000Z',
      'Request ID: req-42',
      'Resources:',
      '- https://dapp.test/terms',
      '- ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3oclgtqy55fbzdi',
    ])
  })

  it.each([
    ['only the required fields', minimal],
    ['every field', maximal],
    ['a P2TR address', { ...minimal, address: TAPROOT }],
    ['a P2PKH address', { ...minimal, address: LEGACY }],
    ['a P2SH address', { ...minimal, address: NESTED }],
    ['a tb1 address on testnet', { ...minimal, address: TESTNET_ADDRESS, chainId: TESTNET }],
    ['a tb1 address on signet', { ...minimal, address: TESTNET_ADDRESS, chainId: SIGNET }],
    ['a testnet base58 address on regtest', { ...minimal, address: TESTNET_LEGACY, chainId: REGTEST }],
    ['a chain this code does not know (any address)', { ...minimal, chainId: 'ab'.repeat(16) }],
    ['a statement that looks like a field line', { ...minimal, statement: 'URI: https://evil.test' }],
    ['an empty Resources list', { ...minimal, resources: [] }],
    ['a Unicode statement', { ...minimal, statement: 'Connexion à Dapp ✓' }],
  ] as const)('reads back what it writes: %s', (_name, fields) => {
    expect(parseBitcoinSignInMessage(createBitcoinSignInMessage(fields))).toEqual({ ok: true, fields })
  })

  const text = createBitcoinSignInMessage({ ...minimal, expirationTime: new Date('2026-11-24T12:00:00.000Z') })
  const withStatement = createBitcoinSignInMessage({ ...minimal, statement: 'Hello.' })
  it.each([
    ['an EIP-4361 message', text.replace('Bitcoin account', 'Ethereum account'), 'message'],
    ['text before the header', `Ignore this.\n${text}`, 'message'],
    ['a line added at the end', `${text}\nAdmin: true`, 'message'],
    ['a trailing newline', `${text}\n`, 'message'],
    ['CRLF line ends', text.replaceAll('\n', '\r\n'), 'message'],
    ['a line added between fields', text.replace('\nNonce:', '\nAdmin: true\nNonce:'), 'nonce'],
    ['two fields swapped', text.replace(`Version: 1\nChain ID: ${MAINNET}`, `Chain ID: ${MAINNET}\nVersion: 1`), 'version'],
    ['the SIWS layout (one blank line for a missing statement)', text.replace('\n\n\nURI:', '\n\nURI:'), 'statement'],
    ['three blank lines', text.replace('\n\n\nURI:', '\n\n\n\nURI:'), 'uri'],
    ['a statement of two lines', withStatement.replace('Hello.', 'Hello.\nSecond line.'), 'statement'],
    ['a tab in the statement', withStatement.replace('Hello.', 'Hello.\tThere.'), 'statement'],
    ['no blank line after the address', withStatement.replace(`${ADDRESS}\n\n`, `${ADDRESS}\n`), 'message'],
    ['a scheme before the domain', `https://${text}`, 'domain'],
    ['userinfo in the domain', text.replace('dapp.test wants', 'user@dapp.test wants'), 'domain'],
    ['an EVM address', text.replace(ADDRESS, '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed'), 'address'],
    ['an address with a bad checksum', text.replace(ADDRESS, `${ADDRESS.slice(0, -1)}m`), 'address'],
    ['an upper-case bech32 address', text.replace(ADDRESS, ADDRESS.toUpperCase()), 'address'],
    ['a testnet address on mainnet', text.replace(ADDRESS, TESTNET_ADDRESS), 'address'],
    ['a regtest address on mainnet', text.replace(ADDRESS, REGTEST_ADDRESS), 'address'],
    ['a mainnet address on regtest', text.replace(`Chain ID: ${MAINNET}`, `Chain ID: ${REGTEST}`), 'address'],
    ['a full CAIP-2 id as Chain ID', text.replace(`Chain ID: ${MAINNET}`, `Chain ID: bip122:${MAINNET}`), 'chainId'],
    ['an upper-case Chain ID', text.replace(`Chain ID: ${MAINNET}`, `Chain ID: ${MAINNET.toUpperCase()}`), 'chainId'],
    ['a whole genesis hash as Chain ID', text.replace(`Chain ID: ${MAINNET}`, `Chain ID: ${MAINNET}0a8ce26f72b3f1b646a2a6c14ff763ae`), 'chainId'],
    ['a chain name as Chain ID', text.replace(`Chain ID: ${MAINNET}`, 'Chain ID: mainnet'), 'chainId'],
    ['version 2', text.replace('Version: 1', 'Version: 2'), 'version'],
    ['a 7-character nonce', text.replace(NONCE, 'abc1234'), 'nonce'],
    ['no Issued At', text.replace(/\nIssued At: .*/, ''), 'issuedAt'],
    ['an Issued At without milliseconds', text.replace('Issued At: 2026-11-23T12:00:00.000Z', 'Issued At: 2026-11-23T12:00:00Z'), 'issuedAt'],
    ['an Issued At on 30 February', text.replace('Issued At: 2026-11-23', 'Issued At: 2026-02-30'), 'issuedAt'],
    ['an Expiration Time that is not a date', text.replace(/Expiration Time: .*/, 'Expiration Time: tomorrow'), 'expirationTime'],
    ['a Request ID with a space', text.replace(/(Expiration Time: .*)/, '$1\nRequest ID: a b'), 'requestId'],
    ['a Resources item that is not a URI', `${text}\nResources:\n- not a uri`, 'resources'],
    ['a lone surrogate', withStatement.replace('Hello.', 'Hello.\ud800'), 'message'],
    ['a header alone', 'dapp.test wants you to sign in with your Bitcoin account:', 'message'],
    ['three lines', `dapp.test wants you to sign in with your Bitcoin account:\n${ADDRESS}\n`, 'uri'],
  ])('refuses %s, naming the field', (_name, tampered, field) => {
    expect(parseBitcoinSignInMessage(tampered)).toMatchObject({ ok: false, field })
  })

  it('says which network an address of another network is of', () => {
    expect(parseBitcoinSignInMessage(text.replace(ADDRESS, TESTNET_ADDRESS))).toEqual({ ok: false, field: 'address', reason: 'is a Bitcoin testnet or signet address, not a Bitcoin mainnet one' })
  })

  it('refuses what is not text', () => {
    expect(parseBitcoinSignInMessage(42 as never)).toMatchObject({ ok: false, field: 'message' })
  })

  it.each([
    ['a domain with a path', { domain: 'dapp.test/x' }, 'domain'],
    ['an EVM address', { address: '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed' }, 'address'],
    ['a regtest address on mainnet', { address: REGTEST_ADDRESS }, 'address'],
    ['a statement of two lines', { statement: 'one\ntwo' }, 'statement'],
    ['an empty statement', { statement: '' }, 'statement'],
    ['a Chain ID of 31 characters', { chainId: MAINNET.slice(1) }, 'chainId'],
    ['a short nonce', { nonce: 'abc' }, 'nonce'],
    ['an invalid date', { issuedAt: new Date(Number.NaN) }, 'issuedAt'],
    ['a year past 9999', { expirationTime: new Date('+012345-01-01T00:00:00.000Z') }, 'expirationTime'],
    ['an empty Request ID', { requestId: '' }, 'requestId'],
    ['a resource with a line break', { resources: ['https://a.test\nAdmin: true'] }, 'resources'],
  ])('will not write %s', (_name, change, field) => {
    expect(() => createBitcoinSignInMessage({ ...minimal, ...change } as BitcoinSignInMessageFields)).toThrow(expect.objectContaining({ code: 'INVALID_MESSAGE', field }))
  })
})
