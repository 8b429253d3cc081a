import { secp256k1 } from '@noble/curves/secp256k1'
import { sha256 } from '@noble/hashes/sha2.js'
import { concatBytes, utf8ToBytes } from '@noble/hashes/utils.js'
import { base64, createBase58check } from '@scure/base'
import { initEccLib, networks, payments } from 'bitcoinjs-lib'
import * as ecc from 'tiny-secp256k1'
import { describe, expect, it } from 'vitest'
import { BIP322_MAX_MESSAGE_LENGTH, signBip322, verifyBip322 } from './bip322'

initEccLib(ecc) // bitcoinjs-lib derives the P2TR addresses below with tiny-secp256k1: an implementation other than ours

/** The 32-byte secret of a compressed-key WIF. */
const fromWif = (wif: string) => createBase58check(sha256).decode(wif).subarray(1, 33)

// The BIP-322 vectors (bitcoin/bips, bip-0322.mediawiki and bip-0322/*.json).
const BIP_KEY = fromWif('L3VFeEujGtevx9w18HD1fhRbCH67Az2dpCymeRE1SoPK6XQtaN2k')
const BIP_P2WPKH = 'bc1q9vza2e8x573nczrlzms0wvx3gsqjx7vavgkx0l'
const EMPTY_LOW_R = 'AkcwRAIgM2gBAQqvZX15ZiysmKmQpDrG83avLIT492QBzLnQIxYCIBaTpOaD20qRlEylyxFSeEA2ba9YOixpX8z46TSDtS40ASECx/EgAxlkQpQ9hYjgGu6EBCPMVPwVIVJqO4XCsMvViHI='
const EMPTY_HIGH_R = 'AkgwRQIhAPkJ1Q4oYS0htvyuSFHLxRQpFAY56b70UvE7Dxazen0ZAiAtZfFz1S6T6I23MWI2lK/pcNTWncuyL8UL+oMdydVgzAEhAsfxIAMZZEKUPYWI4BruhAQjzFT8FSFSajuFwrDL1Yhy'
const HELLO_LOW_R = 'AkcwRAIgZRfIY3p7/DoVTty6YZbWS71bc5Vct9p9Fia83eRmw2QCICK/ENGfwLtptFluMGs2KsqoNSk89pO7F29zJLUx9a/sASECx/EgAxlkQpQ9hYjgGu6EBCPMVPwVIVJqO4XCsMvViHI='
const HELLO_HIGH_R = 'AkgwRQIhAOzyynlqt93lOKJr+wmmxIens//zPzl9tqIOua93wO6MAiBi5n5EyAcPScOjf1lAqIUIQtr3zKNeavYabHyR8eGhowEhAsfxIAMZZEKUPYWI4BruhAQjzFT8FSFSajuFwrDL1Yhy'

const vectors = [
  ['P2WPKH, empty message, low R', '', BIP_P2WPKH, EMPTY_LOW_R],
  ['P2WPKH, empty message, high R', '', BIP_P2WPKH, EMPTY_HIGH_R],
  ['P2WPKH, Hello World, low R', 'Hello World', BIP_P2WPKH, HELLO_LOW_R],
  ['P2WPKH, Hello World, high R', 'Hello World', BIP_P2WPKH, HELLO_HIGH_R],
  ['P2WPKH, the smp prefix', '', BIP_P2WPKH, `smp${EMPTY_LOW_R}`],
  ['P2WPKH, generated', 'ESHJI7MWUL64AXHBI42L3UR4QA', 'bc1qkntwc3c4dzxh9xh6875l03fn3vkk023jgak3u7', 'AkcwRAIgCYHF/vn67iZX5WBimh84kqD6pTME6eNCMGhfFnnwCNECIAF3nMCk/RfLit+uv8a8FgfQIw0f0ASE21GSz7rX17PsASEDTA2vM8bOtUFgvenSDUmvkq7aWNwoTB0CMiM6carHY1s='],
  ['P2TR, SIGHASH_DEFAULT', 'No prefix fallback', 'bc1pss0zhytly75awhm6x2hhvd5lnzv3vssgrf9axfheq8ldyzn88ges79fler', 'AUCJYOwOjxYAvatTAGYaVlNXBVyFuc4MwNQkOuK2tl8xhfKDONd0NjfYyNSYcRqeCp8hsAnCEPHAVEkO9h6vbQ/R'],
  ['P2TR, generated', 'TPIZPITUIHEUHO5ACOL6W6MBVD', 'bc1p9cyuceaazr8cz46mvgkzl94wy397mwpqsrk84su37t72jvkg6wzqv52nfp', 'AUBay6NwR4LEYedkTG+vE9F7C0RTOCB5NH6ZAqf+3hudjHIkOzSZk1jW/5Kt0wRKX3llJ25os+0qktdou4/Y8516'],
  // Bitcoin Core's util_tests: the BIP key's P2TR address, SIGHASH_ALL (a 65-byte signature).
  ['P2TR, SIGHASH_ALL', 'Hello World', 'bc1ppv609nr0vr25u07u95waq5lucwfm6tde4nydujnu8npg4q75mr5sxq8lt3', 'AUHd69PrJQEv+oKTfZ8l+WROBHuy9HKrbFCJu7U1iK2iiEy1vMU5EfMtjc+VSHM7aU0SDbak5IUZRVno2P5mjSafAQ=='],
  ['full format, P2WPKH', 'YGIAANMREUXLFRI4HIEOCE4T23', 'bc1qkwzsslep5elkuat4608v7tpntpr3d9n7w5cwwq', 'AgAAAAABAaVatLF3wpACTG5XowFYPJPv65lgTlZypjUV9d1DNduCAAAAAADgBwAAAQAAAAAAAAAAAWoCRzBEAiB+SJdR6bVLpv5+kK8pOXSUDS24rU53YkTQEvelQJ22uwIgEfqM8eYTupu4LtA0Tz7z1LIbhpP2PrUxWEt9osnrxFEBIQMasC7JaIHbbAUt1kU81yx7S4QHScnEDBs4GsdHDPMPSuAHAAA='],
  ['full format, P2TR', 'K276VUM3MXP56DGNVICQR5XWRT', 'bc1psmjelwjtg7lz26jhd4kkf35v0xp3u7ffc6p4n4869s0hxkrrrtkqkpqvmg', 'AgAAAAABAY+B3hhlrps+S2YaxSvL3HxZKdfT+8XCCtZ4KQc5N+AaAAAAAADgBwAAAQAAAAAAAAAAAWoBQEHQoT3HfPKw4WNiQySblfcRX2gnha/mrpFxUoYlkJxuQFXNN3sS+XbJsNAoXRlvQitk0tVEFpsUGRcCdZ7bWPHgBwAA'],
  ['full format, P2SH-P2WPKH', 'OQXDXSR5SN5N7WRXSPTI462HKH', '37HVPoc7ZsU5C9Z2VKcCkSLzEknYXCzm3s', 'AgAAAAABAbtjBsUTHnoyuNG4NGbx6cI1Z01QLlfGHJX/WIRCAU6/AAAAABcWABTGXFmsgRqCkic6D+eE4AKm1iyVhuAHAAABAAAAAAAAAAABagJHMEQCIBp/IMJTnnhI6YrHJwIQbfucoizq0esZ35QRxtpXuk7fAiAGx6kSd9BuPDY+R0sHTJU0ZFtScJI8ASojEHwrClKxDQEhAl3boe/68fHvtuYzRkaS3GOSxnUTJwejjrubm+czK+Yi4AcAAA=='],
  ['full format, P2PKH', 'GI2SVNWVCWTEEIMFZFFZYAQNSA', '164P4mbDkPcyvRnFGAZd1ThjxSj7Fbsywz', 'AgAAAAGEmHuloQANVIqnpMegGLNFKwAGE0Urv0a/uMiHnJ+FQwAAAABrSDBFAiEAr8VdqPCZU/oVqKKj2WwHfeCX/lzp+Rfk8d59cS9xdGECIAar0nievDdeVstmIgjfM7kzMepL6HrecBuJtgEitFxBASECzgU8WF30ffzpbdClcw/0NBkTCkuRbiEzr+CTXePjiPfgBwAAAQAAAAAAAAAAAWrgBwAA'],
] as const

/** A legacy "Bitcoin Signed Message" signature (BIP-137) with the given header base (27, 31, 35 or 39). */
function signLegacy(message: string, privateKey: Uint8Array, headerBase: number) {
  const bytes = utf8ToBytes(message)
  const length = bytes.length < 0xfd ? Uint8Array.of(bytes.length) : Uint8Array.of(0xfd, bytes.length & 0xff, bytes.length >> 8)
  const digest = sha256(sha256(concatBytes(utf8ToBytes('\x18Bitcoin Signed Message:\n'), length, bytes)))
  const signature = secp256k1.sign(digest, privateKey)
  return base64.encode(Uint8Array.of(headerBase + signature.recovery, ...signature.toCompactRawBytes()))
}

const keyA = secp256k1.utils.randomPrivateKey()
const keyB = secp256k1.utils.randomPrivateKey()
const addressesOf = (privateKey: Uint8Array, network = networks.bitcoin) => {
  const pubkey = secp256k1.getPublicKey(privateKey, true)
  return {
    p2wpkh: payments.p2wpkh({ pubkey, network }).address!,
    p2tr: payments.p2tr({ internalPubkey: pubkey.subarray(1), network }).address!,
    p2pkh: payments.p2pkh({ pubkey, network }).address!,
    p2pkhUncompressed: payments.p2pkh({ pubkey: secp256k1.getPublicKey(privateKey, false), network }).address!,
    p2shP2wpkh: payments.p2sh({ redeem: payments.p2wpkh({ pubkey, network }), network }).address!,
  }
}

describe('verifyBip322', () => {
  it.each(vectors)('accepts the BIP-322 vector: %s', (_name, message, address, signature) => {
    expect(verifyBip322({ message, address, signature })).toBe(true)
  })

  it.each(vectors)('refuses the vector %s for another message', (_name, message, address, signature) => {
    expect(verifyBip322({ message: `${message}.`, address, signature })).toBe(false)
  })

  it.each([
    ['the empty message’s signature for Hello World', 'Hello World', BIP_P2WPKH, EMPTY_LOW_R],
    ['another P2WPKH address', '', 'bc1qx3f9s3scavc92s3g2fhwzqzn7qucd37ez03jpf', EMPTY_LOW_R],
    ['another P2TR address', 'TPIZPITUIHEUHO5ACOL6W6MBVD', 'bc1pr72av8sh7qc2ssxs8w0hlj0cl82g2q2dvypngzgsrmd4plml84ksmfyv0q', vectors[7][3]],
    ['a P2WSH address', '', 'bc1qp0ahvfh83088w49k405szqgg4f3pptr7p2g06tdxfjcd40z4lh4q95lsz9', EMPTY_LOW_R],
    ['the full format with the smp prefix', 'YGIAANMREUXLFRI4HIEOCE4T23', 'bc1qkwzsslep5elkuat4608v7tpntpr3d9n7w5cwwq', `smp${vectors[9][3]}`],
    ['the simple format with the ful prefix', '', BIP_P2WPKH, `ful${EMPTY_LOW_R}`],
    ['an unknown prefix', '', BIP_P2WPKH, `foo${EMPTY_LOW_R}`],
    ['not base64', '', BIP_P2WPKH, 'not-valid-base64!!!'],
    ['an empty signature', '', BIP_P2WPKH, ''],
    ['an empty witness stack', '', BIP_P2WPKH, 'AA=='],
    ['a truncated signature', '', BIP_P2WPKH, base64.encode(base64.decode(EMPTY_LOW_R).subarray(0, 100))],
    ['a byte added to the witness', '', BIP_P2WPKH, base64.encode(Uint8Array.of(...base64.decode(EMPTY_LOW_R), 0))],
    ['a witness claiming 2^32 items', '', BIP_P2WPKH, base64.encode(Uint8Array.of(0xfe, 0xff, 0xff, 0xff, 0xff, 1, 2))],
    ['garbage', '', BIP_P2WPKH, base64.encode(Uint8Array.from({ length: 200 }, (_, i) => (i * 37) & 0xff))],
    ['a P2TR signature with an annex', 'No prefix fallback', 'bc1pss0zhytly75awhm6x2hhvd5lnzv3vssgrf9axfheq8ldyzn88ges79fler', base64.encode(Uint8Array.of(2, ...base64.decode(vectors[6][3]).subarray(1), 1, 0x50))],
    ['a P2TR signature with sighash byte 0', 'No prefix fallback', 'bc1pss0zhytly75awhm6x2hhvd5lnzv3vssgrf9axfheq8ldyzn88ges79fler', base64.encode(Uint8Array.of(1, 65, ...base64.decode(vectors[6][3]).subarray(2), 0))],
    ['a mixed-case address', '', 'bc1Q9vza2e8x573nczrlzms0wvx3gsqjx7vavgkx0l', EMPTY_LOW_R],
    ['no address', '', '', EMPTY_LOW_R],
  ])('refuses %s', (_name, message, address, signature) => {
    expect(verifyBip322({ message, address, signature })).toBe(false)
  })

  it('says nothing of the network: the same key’s testnet address verifies too (a sign-in message binds the chain)', () => {
    // The witness program, and so the output script that to_spend pays, is the same on every network.
    expect(verifyBip322({ message: '', address: 'tb1q9vza2e8x573nczrlzms0wvx3gsqjx7vaxwd45v', signature: EMPTY_LOW_R })).toBe(true)
  })

  it('refuses the high-S twin of a valid P2WPKH signature (not standard), and accepts the low-S original', () => {
    const witness = base64.decode(EMPTY_LOW_R)
    // [count 2][len 0x47][DER 70 bytes][sighash][len 33][key]
    const der = witness.subarray(2, 2 + 70)
    const signature = secp256k1.Signature.fromDER(der)
    const highS = new secp256k1.Signature(signature.r, secp256k1.CURVE.n - signature.s).toDERRawBytes()
    const twin = Uint8Array.of(2, highS.length + 1, ...highS, 1, ...witness.subarray(2 + 71))
    expect(verifyBip322({ message: '', address: BIP_P2WPKH, signature: base64.encode(twin) })).toBe(false)
    expect(verifyBip322({ message: '', address: BIP_P2WPKH, signature: base64.encode(witness) })).toBe(true)
  })

  it('never throws, and answers false, for hostile values', () => {
    const hostile = [undefined, null, 42, {}, [], 'x'.repeat(10_000_000), '\u0000', '\ud800']
    for (const value of hostile) {
      for (const parameters of [
        { message: value, address: BIP_P2WPKH, signature: EMPTY_LOW_R },
        { message: '', address: value, signature: EMPTY_LOW_R },
        { message: '', address: BIP_P2WPKH, signature: value },
      ]) {
        expect(verifyBip322(parameters as never)).toBe(false)
      }
    }
  })

  it('bounds its inputs: a signature longer than 2,048 characters or a message longer than 65,536 is refused unread', () => {
    const padded = `${EMPTY_LOW_R.replace(/=+$/, '')}${'A'.repeat(2_100)}`
    expect(verifyBip322({ message: '', address: BIP_P2WPKH, signature: padded })).toBe(false)
    const long = 'a'.repeat(BIP322_MAX_MESSAGE_LENGTH)
    const signature = signBip322({ message: long, address: BIP_P2WPKH, privateKey: BIP_KEY })
    expect(verifyBip322({ message: long, address: BIP_P2WPKH, signature })).toBe(true)
    expect(verifyBip322({ message: `${long}a`, address: BIP_P2WPKH, signature })).toBe(false)
  })

  describe('the legacy "Bitcoin Signed Message" signature', () => {
    const { p2pkh, p2pkhUncompressed, p2wpkh, p2shP2wpkh, p2tr } = addressesOf(keyA)
    it.each([
      ['P2PKH, compressed key (header 31–34)', p2pkh, 31],
      ['P2PKH, uncompressed key (header 27–30)', p2pkhUncompressed, 27],
      ['P2WPKH, BIP-137 header 39–42', p2wpkh, 39],
      ['P2WPKH, Electrum’s header 31–34', p2wpkh, 31],
      ['P2SH-P2WPKH, BIP-137 header 35–38', p2shP2wpkh, 35],
    ])('accepts %s', (_name, address, header) => {
      const signature = signLegacy('Sign in to Dapp', keyA, header)
      expect(verifyBip322({ message: 'Sign in to Dapp', address, signature })).toBe(true)
      expect(verifyBip322({ message: 'Sign in to Dapp!', address, signature })).toBe(false)
    })

    it.each([
      ['a compressed-key header for the uncompressed key’s P2PKH', p2pkhUncompressed, 31],
      ['an uncompressed-key header for the compressed key’s P2PKH', p2pkh, 27],
      ['a segwit header for a P2PKH address', p2pkh, 39],
      ['an uncompressed-key header for P2WPKH', p2wpkh, 27],
      ['a P2TR address (legacy signatures have no Schnorr form)', p2tr, 39],
      ['another key’s address', addressesOf(keyB).p2wpkh, 39],
    ])('refuses %s', (_name, address, header) => {
      expect(verifyBip322({ message: 'Sign in to Dapp', address, signature: signLegacy('Sign in to Dapp', keyA, header) })).toBe(false)
    })

    it('reads the message length as a CompactSize past 252 bytes', () => {
      const long = 'Sign in to Dapp. '.repeat(40)
      expect(verifyBip322({ message: long, address: p2wpkh, signature: signLegacy(long, keyA, 39) })).toBe(true)
    })

    it('refuses header bytes outside 27–42', () => {
      const valid = base64.decode(signLegacy('m', keyA, 39))
      for (const header of [0, 26, 43, 255]) {
        expect(verifyBip322({ message: 'm', address: p2wpkh, signature: base64.encode(Uint8Array.of(header, ...valid.subarray(1))) })).toBe(false)
      }
    })
  })
})

describe('signBip322', () => {
  it('signs as Bitcoin Core does: the BIP-322 P2WPKH vectors exactly (RFC 6979 with low-R grinding)', () => {
    expect(signBip322({ message: '', address: BIP_P2WPKH, privateKey: BIP_KEY })).toBe(EMPTY_LOW_R)
    expect(signBip322({ message: 'Hello World', address: BIP_P2WPKH, privateKey: BIP_KEY })).toBe(HELLO_LOW_R)
  })

  it.each([
    ['mainnet', networks.bitcoin],
    ['testnet and signet', networks.testnet],
    ['regtest', networks.regtest],
  ])('round-trips P2WPKH and P2TR on %s, for that address only', (_name, network) => {
    const mine = addressesOf(keyA, network)
    const theirs = addressesOf(keyB, network)
    for (const type of ['p2wpkh', 'p2tr'] as const) {
      for (const message of ['', 'Hello World', 'Connexion à Dapp ✓ 测试 😄', 'line one\nline two']) {
        const signature = signBip322({ message, address: mine[type], privateKey: keyA })
        expect(verifyBip322({ message, address: mine[type], signature })).toBe(true)
        expect(verifyBip322({ message: `${message} `, address: mine[type], signature })).toBe(false)
        expect(verifyBip322({ message, address: theirs[type], signature })).toBe(false)
      }
    }
  })

  it('makes a P2TR signature of 64 bytes (SIGHASH_DEFAULT) under the BIP key’s tweaked output key', () => {
    const address = 'bc1ppv609nr0vr25u07u95waq5lucwfm6tde4nydujnu8npg4q75mr5sxq8lt3'
    const signature = signBip322({ message: 'Hello World', address, privateKey: BIP_KEY })
    expect(base64.decode(signature).subarray(0, 2)).toEqual(Uint8Array.of(1, 64))
    expect(verifyBip322({ message: 'Hello World', address, signature })).toBe(true)
  })

  it.each([
    ['an address the key does not own', () => signBip322({ message: 'm', address: addressesOf(keyB).p2wpkh, privateKey: keyA })],
    ['a P2TR address the key does not own', () => signBip322({ message: 'm', address: addressesOf(keyB).p2tr, privateKey: keyA })],
    ['a P2PKH address', () => signBip322({ message: 'm', address: addressesOf(keyA).p2pkh, privateKey: keyA })],
    ['a P2SH address', () => signBip322({ message: 'm', address: addressesOf(keyA).p2shP2wpkh, privateKey: keyA })],
    ['no address', () => signBip322({ message: 'm', address: 'nope', privateKey: keyA })],
    ['a zero key', () => signBip322({ message: 'm', address: addressesOf(keyA).p2wpkh, privateKey: new Uint8Array(32) })],
  ])('refuses %s with INVALID_ADDRESS', (_name, sign) => {
    expect(sign).toThrow(expect.objectContaining({ code: 'INVALID_ADDRESS', field: 'address' }))
  })

  it('refuses a message over the bound with INVALID_MESSAGE', () => {
    const sign = () => signBip322({ message: 'a'.repeat(BIP322_MAX_MESSAGE_LENGTH + 1), address: addressesOf(keyA).p2wpkh, privateKey: keyA })
    expect(sign).toThrow(expect.objectContaining({ code: 'INVALID_MESSAGE', field: 'message' }))
  })
})
