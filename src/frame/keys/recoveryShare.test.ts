import { describe, expect, it } from 'vitest'
import { decryptRecoveryShare, defaultScryptParams, encryptRecoveryShare, RECOVERY_PASSWORD_MIN_LENGTH } from './recoveryShare'

// A low scrypt cost keeps the tests quick; the default cost has a test of its own.
const params = { N: 2 ** 10, r: 8, p: 1 }
const commitment = `0x${'ab'.repeat(32)}` as const
const otherCommitment = `0x${'cd'.repeat(32)}` as const
const share = Uint8Array.from({ length: 33 }, (_, i) => i * 7)
const password = 'correct horse battery'

const codeOf = (promise: Promise<unknown>) => promise.then(() => 'resolved', (error: { code?: string }) => error.code)

describe('encryptRecoveryShare / decryptRecoveryShare', () => {
  it('gives the share back with the right password, and the envelope holds no trace of it', async () => {
    const envelope = await encryptRecoveryShare(share, password, { commitment, params })
    expect(envelope).toMatchObject({ v: 1, kdf: 'scrypt', N: 1024, r: 8, p: 1 })
    expect(JSON.stringify(envelope)).not.toContain(Buffer.from(share).toString('hex').slice(0, 16))
    expect(await decryptRecoveryShare(envelope, password, { commitment })).toEqual(share)
  })

  it('refuses a wrong password with RECOVERY_PASSWORD_WRONG', async () => {
    const envelope = await encryptRecoveryShare(share, password, { commitment, params })
    expect(await codeOf(decryptRecoveryShare(envelope, 'correct horse battery!', { commitment }))).toBe('RECOVERY_PASSWORD_WRONG')
    expect(await codeOf(decryptRecoveryShare(envelope, '', { commitment }))).toBe('RECOVERY_PASSWORD_WRONG')
  })

  it('refuses the envelope of another wallet and an altered one', async () => {
    const envelope = await encryptRecoveryShare(share, password, { commitment, params })
    expect(await codeOf(decryptRecoveryShare(envelope, password, { commitment: otherCommitment }))).toBe('RECOVERY_PASSWORD_WRONG')
    const flipped = envelope.ciphertext.endsWith('0') ? `${envelope.ciphertext.slice(0, -1)}1` : `${envelope.ciphertext.slice(0, -1)}0`
    expect(await codeOf(decryptRecoveryShare({ ...envelope, ciphertext: flipped }, password, { commitment }))).toBe('RECOVERY_PASSWORD_WRONG')
  })

  it('takes the same password typed with another Unicode composition (NFKC)', async () => {
    const composed = 'mot de passe d\u00e9j\u00e0 vu'
    const decomposed = 'mot de passe de\u0301ja\u0300 vu'
    const envelope = await encryptRecoveryShare(share, composed, { commitment, params })
    expect(await decryptRecoveryShare(envelope, decomposed, { commitment })).toEqual(share)
  })

  it(`refuses a password shorter than ${RECOVERY_PASSWORD_MIN_LENGTH} characters`, async () => {
    expect(await codeOf(encryptRecoveryShare(share, 'short', { commitment, params }))).toBe('RECOVERY_PASSWORD_TOO_SHORT')
  })

  it.each([
    ['not an object', 'nope'],
    ['a cost too high to run', { N: 2 ** 24 }],
    ['a cost that is not a power of two', { N: 1000 }],
    ['a salt of the wrong size', { salt: '0x00' }],
    ['another version', { v: 2 }],
  ])('refuses an envelope with %s before any work (INVALID_MESSAGE)', async (_, change) => {
    const envelope = await encryptRecoveryShare(share, password, { commitment, params })
    const bad = typeof change === 'string' ? change : { ...envelope, ...change }
    expect(await codeOf(decryptRecoveryShare(bad, password, { commitment }))).toBe('INVALID_MESSAGE')
  })

  it('uses scrypt N = 2^17, r = 8, p = 1 by default', async () => {
    expect(defaultScryptParams).toEqual({ N: 131_072, r: 8, p: 1 })
    const envelope = await encryptRecoveryShare(share, password, { commitment })
    expect(envelope).toMatchObject({ N: 131_072, r: 8, p: 1 })
    expect(await decryptRecoveryShare(envelope, password, { commitment })).toEqual(share)
  })
})
