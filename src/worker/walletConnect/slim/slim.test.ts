import * as original from '@walletconnect/logger'
import * as relayAuth from '@walletconnect/relay-auth'
import { describe, expect, it } from 'vitest'
import * as quiet from './quietLogger'
import { decodeJWT, encodeIss, generateKeyPair, signJWT } from './relayAuth'

// The build swaps these packages for ./quietLogger and ./relayAuth (vite.aliases.ts); the tests run the originals beside
// them (vitest does not swap), so each answer is checked against the package's own.

describe('relayAuth', () => {
  it('makes the key pair, issuer and relay JWT @walletconnect/relay-auth makes, byte for byte', async () => {
    const seed = new Uint8Array(32).fill(7)
    const mine = generateKeyPair(seed)
    const theirs = relayAuth.generateKeyPair(seed)
    expect([...mine.secretKey]).toEqual([...theirs.secretKey])
    expect([...mine.publicKey]).toEqual([...theirs.publicKey])
    expect(encodeIss(mine.publicKey)).toBe(relayAuth.encodeIss(theirs.publicKey))
    expect(encodeIss(mine.publicKey)).toMatch(/^did:key:z6Mk/)
    const jwt = await signJWT('a'.repeat(64), 'wss://relay.example', 86_400, mine, 1_700_000_000)
    expect(jwt).toBe(await relayAuth.signJWT('a'.repeat(64), 'wss://relay.example', 86_400, theirs, 1_700_000_000))
    expect(await relayAuth.verifyJWT(jwt)).toBe(true)
    expect(generateKeyPair().secretKey).toHaveLength(64)
  })

  it('decodes a relay JWT as @walletconnect/relay-auth does', async () => {
    const jwt = await relayAuth.signJWT('a'.repeat(64), 'wss://relay.example', 86_400, relayAuth.generateKeyPair(new Uint8Array(32).fill(7)), 1_700_000_000)
    const mine = decodeJWT(jwt)
    const theirs = relayAuth.decodeJWT(jwt)
    expect(mine.header).toEqual(theirs.header)
    expect(mine.payload).toEqual(theirs.payload)
    expect(mine.payload).toMatchObject({ sub: 'a'.repeat(64), aud: 'wss://relay.example', iat: 1_700_000_000, exp: 1_700_086_400 })
    expect([...mine.signature]).toEqual([...theirs.signature])
    expect(mine.signature).toHaveLength(64)
    expect([...mine.data]).toEqual([...theirs.data])
  })

  it('reads an attestation whose payload has non-ASCII text', () => {
    const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url')
    const jwt = `${part({ alg: 'ES256' })}.${part({ origin: 'https://exemple.fr', isScam: false, note: 'café ✓' })}.${Buffer.from([1, 2, 3]).toString('base64url')}`
    expect(decodeJWT(jwt).payload).toEqual(relayAuth.decodeJWT(jwt).payload)
    expect(decodeJWT(jwt).payload.note).toBe('café ✓')
  })

  it('throws on a JWT that is not one, as the original does', () => {
    expect(() => relayAuth.decodeJWT('not-a-jwt')).toThrow()
    expect(() => decodeJWT('not-a-jwt')).toThrow()
  })
})

describe('quietLogger', () => {
  it('gives child loggers the contexts the original gives (the sign client reads them back)', () => {
    const theirs = original.generatePlatformLogger({ opts: original.getDefaultLoggerOptions({ level: 'silent' }), loggerOverride: 'silent' }).logger
    const mine = quiet.generatePlatformLogger({ opts: quiet.getDefaultLoggerOptions({ level: 'silent' }), loggerOverride: 'silent' }).logger
    const theirChild = original.generateChildLogger(original.generateChildLogger(theirs, 'core'), 'relayer')
    const myChild = quiet.generateChildLogger(quiet.generateChildLogger(mine, 'core'), 'relayer')
    expect(quiet.getLoggerContext(myChild)).toBe(original.getLoggerContext(theirChild))
    expect(quiet.getLoggerContext(myChild)).toBe('core/relayer')
    expect(quiet.getLoggerContext(mine)).toBe(original.getLoggerContext(theirs))
    expect(quiet.getDefaultLoggerOptions()).toEqual(original.getDefaultLoggerOptions())
    expect(mine.level).toBe('silent')
  })

  it('keeps no log lines: no chunk controller, and a caller’s own logger is used as given', () => {
    const { logger, chunkLoggerController } = quiet.generatePlatformLogger({ opts: { level: 'trace' } })
    expect(chunkLoggerController).toBeNull()
    for (let line = 0; line < 1000; line++) logger.error({ line }, 'x'.repeat(1000))
    expect(logger.bindings()).toEqual({})
    const own = quiet.pino({ level: 'warn' })
    expect(quiet.generatePlatformLogger({ loggerOverride: own }).logger).toBe(own)
  })
})
