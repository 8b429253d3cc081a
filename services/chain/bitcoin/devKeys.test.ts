import { networks, payments } from 'bitcoinjs-lib'
import { ECPairFactory } from 'ecpair'
import * as ecc from 'tiny-secp256k1'
import { describe, expect, it } from 'vitest'
import { BITCOIN_DEV_ACCOUNT_COUNT, bitcoinMinerAddress, deriveBitcoinAccounts } from './devKeys'

const ecpair = ECPairFactory(ecc)
const abandonMnemonic = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about'

describe('deriveBitcoinAccounts', () => {
  it('follows the BIP84 and BIP86 test vectors (mainnet, "abandon … about")', () => {
    const [first, second] = deriveBitcoinAccounts({ mnemonic: abandonMnemonic, count: 2, coinType: 0, network: networks.bitcoin })
    // https://github.com/bitcoin/bips/blob/master/bip-0084.mediawiki#test-vectors
    expect(first?.payment).toMatchObject({
      address: 'bc1qcr8te4kr609gcawutmrza0j4xv80jy8z306fyu',
      publicKey: '0330d54fd0dd420a6e5f8d3624f5f3482cae350f79d5f0753bf5beef9c2d91af3c',
      wif: 'KyZpNDKnfs94vbrwhJneDi77V6jF64PWPF8x5cdJb8ifgg2DUc9d',
      derivationPath: "m/84'/0'/0'/0/0",
    })
    expect(second?.payment.address).toBe('bc1qnjg0jd8228aq7egyzacy8cys3knf9xvrerkf9g')
    // https://github.com/bitcoin/bips/blob/master/bip-0086.mediawiki#test-vectors
    expect(first?.ordinals).toMatchObject({
      address: 'bc1p5cyxnuxmeuwuvkwfem96lqzszd02n6xdcjrs20cac6yqjjwudpxqkedrcr',
      publicKey: 'cc8a4bc64d897bddc5fbc2f670f7a8ba0b386779106cf1223c6fc5d7cd6fc115',
      derivationPath: "m/86'/0'/0'/0/0",
    })
    expect(second?.ordinals.address).toBe('bc1p4qhjn9zdvkux4e44uhx8tc55attvtyu358kutcqkudyccelu0was9fqzwh')
  })

  it('gives the ten regtest dev accounts of the dev phrase, the same on every run', () => {
    const accounts = deriveBitcoinAccounts()
    expect(accounts).toHaveLength(BITCOIN_DEV_ACCOUNT_COUNT)
    // Pinned: checked against @scure/bip32 + @scure/bip39 when written; a change here moves every dev wallet.
    expect([accounts[0]?.payment.address, accounts[0]?.ordinals.address]).toEqual([
      'bcrt1qquv9lg5g2r4jkr0ahun0ddfg5xntxjelwjpnuw',
      'bcrt1pfewlxm8meyyvgjydfu7v8j4ej64symj6ut8sf66h9germp94qgzs92e5zv',
    ])
    expect([accounts[9]?.payment.address, accounts[9]?.ordinals.address]).toEqual([
      'bcrt1qkf7j3rkd7qd4j0kf23g6x0mmczaykvtwywskqn',
      'bcrt1p79jyvehx53w09csltcyg6p23s9uc07f80f57w7yj7lzytp6c2zjsht5acr',
    ])
    const addresses = accounts.flatMap(({ payment, ordinals }) => [payment.address, ordinals.address])
    expect(new Set(addresses).size).toBe(20)
    expect(addresses).not.toContain(bitcoinMinerAddress())
  })

  it('gives keys that sign for their own addresses: WIF, private key and public key agree', () => {
    for (const { payment, ordinals } of deriveBitcoinAccounts()) {
      const paymentKey = ecpair.fromWIF(payment.wif, networks.regtest)
      expect(Buffer.from(paymentKey.privateKey!).toString('hex')).toBe(payment.privateKey)
      expect(payments.p2wpkh({ pubkey: paymentKey.publicKey, network: networks.regtest }).address).toBe(payment.address)

      const ordinalsKey = ecpair.fromWIF(ordinals.wif, networks.regtest)
      expect(Buffer.from(ordinalsKey.privateKey!).toString('hex')).toBe(ordinals.privateKey)
      expect(Buffer.from(ordinalsKey.publicKey.subarray(1)).toString('hex')).toBe(ordinals.publicKey)
      expect(payments.p2tr({ internalPubkey: ordinalsKey.publicKey.subarray(1), network: networks.regtest }).address).toBe(ordinals.address)
    }
  })
})
