import { describe, expect, it } from 'vitest'
import { createRootSecret, deriveWalletKeys, walletCommitment } from './walletKeys'
import { recombineWallet, splitRootSecret } from './walletShares'

const codeOf = (promise: Promise<unknown>) => promise.then(() => 'resolved', (error: { code?: string }) => error.code)

describe('splitRootSecret / recombineWallet', () => {
  it('rebuilds the wallet from any two of its three shares', async () => {
    const secret = createRootSecret()
    const keys = deriveWalletKeys(secret)
    const commitment = walletCommitment(keys)
    const { device, auth, recovery } = await splitRootSecret(secret)
    for (const pair of [[device, auth], [auth, device], [device, recovery], [auth, recovery]] as const) {
      const rebuilt = await recombineWallet([pair[0], pair[1]], commitment)
      expect(rebuilt.eip155.address).toBe(keys.eip155.address)
      expect(rebuilt.solana.address).toBe(keys.solana.address)
    }
  })

  it('gives shares that alone say nothing: each differs from the secret and from a new split of it', async () => {
    const secret = createRootSecret()
    const first = await splitRootSecret(secret)
    const second = await splitRootSecret(secret)
    for (const share of [first.device, first.auth, first.recovery]) {
      expect(share).toHaveLength(33)
      expect(Buffer.from(share).includes(Buffer.from(secret.subarray(0, 8)))).toBe(false)
    }
    expect(first.auth).not.toEqual(second.auth)
  })

  it('refuses shares of another wallet: the commitment does not match (KEY_COMMITMENT_MISMATCH)', async () => {
    const mine = createRootSecret()
    const commitment = walletCommitment(deriveWalletKeys(mine))
    const minesShares = await splitRootSecret(mine)
    const othersShares = await splitRootSecret(createRootSecret())
    expect(await codeOf(recombineWallet([minesShares.device, othersShares.auth], commitment))).toBe('KEY_COMMITMENT_MISMATCH')
    expect(await codeOf(recombineWallet([othersShares.device, othersShares.auth], commitment))).toBe('KEY_COMMITMENT_MISMATCH')
  })

  it('refuses a corrupted share, and the same share twice', async () => {
    const secret = createRootSecret()
    const commitment = walletCommitment(deriveWalletKeys(secret))
    const { device, auth } = await splitRootSecret(secret)
    const corrupted = auth.slice()
    corrupted[3] = corrupted[3]! ^ 0x01
    expect(await codeOf(recombineWallet([device, corrupted], commitment))).toBe('KEY_COMMITMENT_MISMATCH')
    expect(await codeOf(recombineWallet([device, device], commitment))).toBe('KEY_COMMITMENT_MISMATCH')
  })
})
