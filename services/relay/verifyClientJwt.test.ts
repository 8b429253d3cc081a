import { generateKeyPair, signJWT } from '@walletconnect/relay-auth'
import { describe, expect, it } from 'vitest'
import { createClientJwt } from './testing/createClientJwt'
import { verifyClientJwt } from './verifyClientJwt'

const aud = 'ws://127.0.0.1:8790'
const nowS = 1_750_000_000

describe('verifyClientJwt', () => {
  it('accepts the JWT @walletconnect/relay-auth signs for core (aud = relayUrl, one day)', async () => {
    const jwt = await signJWT('a-session', aud, 86_400, generateKeyPair(), nowS)
    expect(verifyClientJwt(jwt, { audiences: [aud], nowS })).toMatchObject({ aud, iat: nowS, exp: nowS + 86_400, sub: 'a-session' })
  })

  it.each([
    ['aud with a trailing slash', { aud: `${aud}/` }, nowS],
    ['configured URL with a trailing slash', { aud }, nowS, [`${aud}/`]],
    ['a second public URL', { aud: 'ws://localhost:8790' }, nowS, [aud, 'ws://localhost:8790']],
    ['iat 60 s ahead (clock skew)', { iat: nowS + 60, exp: nowS + 3_600 }, nowS],
    ['exp exactly one day after iat', { exp: nowS + 86_400 }, nowS],
    ['the last second before exp', {}, nowS + 86_400],
  ])('accepts %s', (_name, claims, now, audiences = [aud]) => {
    expect(() => verifyClientJwt(createClientJwt({ aud, nowS, claims }), { audiences, nowS: now })).not.toThrow()
  })

  it.each([
    ['another relay', { aud: 'wss://relay.walletconnect.org' }, nowS, "auth: aud must be this relay's URL (ws://127.0.0.1:8790)"],
    ['another port', { aud: 'ws://127.0.0.1:8791' }, nowS, "auth: aud must be this relay's URL (ws://127.0.0.1:8790)"],
    ['aud as a list', { aud: [aud] }, nowS, "auth: aud must be this relay's URL (ws://127.0.0.1:8790)"],
    ['no iat', { iat: undefined }, nowS, 'auth: iat must be a number (seconds)'],
    ['iat 61 s ahead', { iat: nowS + 61, exp: nowS + 3_600 }, nowS, 'auth: iat is in the future (more than 60 s ahead)'],
    ['no exp', { exp: undefined }, nowS, 'auth: exp must be a number (seconds)'],
    ['exp past', {}, nowS + 86_401, 'auth: the JWT has expired'],
    ['exp a day and a second after iat', { exp: nowS + 86_401 }, nowS, 'auth: exp is more than 86400 s after iat'],
    ['exp 30 days ahead', { exp: nowS + 30 * 86_400 }, nowS, 'auth: exp is more than 86400 s after iat'],
  ])('refuses %s', (_name, claims, now, reason) => {
    expect(() => verifyClientJwt(createClientJwt({ aud, nowS, claims }), { audiences: [aud], nowS: now })).toThrow(reason)
  })

  it.each([
    ['not a JWT', 'abc', 'auth: not a JWT (three dot-separated parts expected)'],
    ['a payload that is not JSON', 'eyJhbGciOiJFZERTQSJ9.!!!.sig', 'auth: the payload is not base64url JSON'],
    ['alg none', `${Buffer.from('{"alg":"none"}').toString('base64url')}.e30.`, 'auth: alg must be EdDSA, got none'],
    ['a signature by another key', (() => {
      const [a, b] = [createClientJwt({ aud, nowS }), createClientJwt({ aud, nowS })]
      return `${a.split('.').slice(0, 2).join('.')}.${b.split('.')[2]}`
    })(), 'auth: bad signature'],
  ])('refuses %s', (_name, jwt, reason) => {
    expect(() => verifyClientJwt(jwt, { audiences: [aud], nowS })).toThrow(reason)
  })
})
