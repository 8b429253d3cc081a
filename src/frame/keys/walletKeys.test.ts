import { ed25519 } from '@noble/curves/ed25519'
import { base58 } from '@scure/base'
import { privateKeyToAccount } from 'viem/accounts'
import { describe, expect, it } from 'vitest'
import { createRootSecret, deriveWalletKeys, toPublicKeys, walletCommitment } from './walletKeys'

const fixedSecret = Uint8Array.from({ length: 32 }, (_, i) => i)

describe('deriveWalletKeys', () => {
  it('derives the same accounts from a secret forever (a change here would move every user to a new address)', () => {
    expect(toPublicKeys(deriveWalletKeys(fixedSecret))).toMatchInlineSnapshot(`
      {
        "eip155": {
          "address": "0x5F0c79555e8Bbc779e9e98BdfAB5e8a715848aC0",
          "publicKey": "0x04641a1cd09b479a8290d72066a513bbc0297cd5b57a359d16d167ec58239f1acdd56ee88fea7d464cae6b377a5a65c5f47cbae5a77f9268ad957e019172678788",
        },
        "solana": {
          "address": "C9K5xcTNXGiAG6UNJf9wageD5dzKw8mUgpC5tiCGsqAA",
          "publicKey": "0xa591a6e966b39d7800976f6eac3516a2f765454de4242111ebe07aa48725c433",
        },
      }
    `)
    expect(walletCommitment(deriveWalletKeys(fixedSecret))).toMatchInlineSnapshot(`"0xca66c81966964f902c813a3857ca527e29c8222afaf82ae7a84423ead0677c90"`)
  })

  it('gives an EVM key whose address is the one viem computes, and a Solana key that signs for its address', () => {
    const keys = deriveWalletKeys(createRootSecret())
    expect(privateKeyToAccount(keys.eip155.privateKey).address).toBe(keys.eip155.address)
    const message = new TextEncoder().encode('hello')
    const signature = ed25519.sign(message, keys.solana.secretKey)
    expect(ed25519.verify(signature, message, base58.decode(keys.solana.address))).toBe(true)
  })

  it('gives two secrets two wallets and two commitments', () => {
    const a = deriveWalletKeys(createRootSecret())
    const b = deriveWalletKeys(createRootSecret())
    expect(a.eip155.address).not.toBe(b.eip155.address)
    expect(a.solana.address).not.toBe(b.solana.address)
    expect(walletCommitment(a)).not.toBe(walletCommitment(b))
  })

  it('refuses a secret of the wrong length', () => {
    expect(() => deriveWalletKeys(new Uint8Array(31))).toThrow('a root secret of 31 bytes')
  })
})
