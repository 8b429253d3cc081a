import { address as bitcoinAddress, networks } from 'bitcoinjs-lib'
import { describe, expect, it } from 'vitest'
import { parseRegtestAddress, parseTransactionHex, parseTxid } from './esploraInput'

// One public key (dev account 0's payment key) in every address type of each network.
const regtest = {
  p2pkh: 'mgAUDuJ2iEkP3V93FDzpWhe4Lp4BrYg7m9',
  p2sh: '2NCpaYJCvHQsiS6nj6FyTaaNCS2Gykn8Qw4',
  p2wpkh: 'bcrt1qquv9lg5g2r4jkr0ahun0ddfg5xntxjelwjpnuw',
  p2wsh: 'bcrt1q9tg6gj2p3epsspftt6hw5qy2mz75lcwevklk70ucvkp76n25fdjq22gfzf',
  p2tr: 'bcrt1pyl5zj379vk48fw22fx9r7h88v2rwksly972jnjuczkujkz48r6vs2cawcn',
}

describe('parseRegtestAddress', () => {
  it.each(Object.entries(regtest))('accepts a regtest %s address and answers its output script', (_type, address) => {
    expect(bitcoinAddress.fromOutputScript(parseRegtestAddress(address), networks.regtest)).toBe(address)
  })

  it('accepts an upper-case bech32 address, as BIP173 allows', () => {
    expect(parseRegtestAddress(regtest.p2wpkh.toUpperCase())).toEqual(parseRegtestAddress(regtest.p2wpkh))
  })

  it.each([
    ['1eWvrD3uDK8GNfRXf2SgnRjUpTUqPLPhJ', 'a Bitcoin mainnet'],
    ['3MGNUZGtfxNNEKABR8MaxdNwDg4p1nyd5u', 'a Bitcoin mainnet'],
    ['bc1qquv9lg5g2r4jkr0ahun0ddfg5xntxjelxards5', 'a Bitcoin mainnet'],
    ['bc1pyl5zj379vk48fw22fx9r7h88v2rwksly972jnjuczkujkz48r6vssfp8hx', 'a Bitcoin mainnet'],
    ['tb1qquv9lg5g2r4jkr0ahun0ddfg5xntxjelvmc7t8', 'a testnet'],
    ['tb1pyl5zj379vk48fw22fx9r7h88v2rwksly972jnjuczkujkz48r6vs8phgdf', 'a testnet'],
  ])('refuses %s and says it is %s address', (address, label) => {
    expect(() => parseRegtestAddress(address)).toThrow(
      expect.objectContaining({ status: 400, code: 'INVALID_ADDRESS', message: `${address} is ${label} address; this chain is regtest (bcrt1…, m…, n… or 2… addresses)` }),
    )
  })

  it.each([
    ['a wrong bech32 checksum', 'bcrt1qquv9lg5g2r4jkr0ahun0ddfg5xntxjelwjpnuq', 'Invalid Bitcoin address: bcrt1qquv9lg5g2r4jkr0ahun0ddfg5xntxjelwjpnuq'],
    ['a P2TR address in bech32 (not bech32m)', 'bcrt1pyl5zj379vk48fw22fx9r7h88v2rwksly972jnjuczkujkz48r6vslydza3', 'Invalid Bitcoin address: bcrt1pyl5zj379vk48fw22fx9r7h88v2rwksly972jnjuczkujkz48r6vslydza3'],
    ['a wrong base58 checksum', 'mgAUDuJ2iEkP3V93FDzpWhe4Lp4BrYg7m8', 'Invalid Bitcoin address: mgAUDuJ2iEkP3V93FDzpWhe4Lp4BrYg7m8'],
    ['punctuation', 'bcrt1q<script>', 'Invalid Bitcoin address: expected 1 to 90 letters and digits'],
    ['nothing', '', 'Invalid Bitcoin address: expected 1 to 90 letters and digits'],
    ['91 characters', 'b'.repeat(91), 'Invalid Bitcoin address: expected 1 to 90 letters and digits'],
  ])('refuses %s', (_case, address, message) => {
    expect(() => parseRegtestAddress(address)).toThrow(expect.objectContaining({ status: 400, code: 'INVALID_ADDRESS', message }))
  })
})

describe('parseTxid', () => {
  it('accepts 64 hex characters and lower-cases them', () => {
    expect(parseTxid('AB'.repeat(32))).toBe('ab'.repeat(32))
  })

  it.each([['ab'.repeat(31)], ['ab'.repeat(33)], ['g'.repeat(64)], [`${'ab'.repeat(31)}a `], ['']])('refuses %j', (txid) => {
    expect(() => parseTxid(txid)).toThrow(expect.objectContaining({ status: 400, code: 'INVALID_TXID', message: 'Invalid txid: expected 64 hex characters' }))
  })
})

describe('parseTransactionHex', () => {
  // A one-input, one-output legacy transaction (the first Bitcoin transfer, block 170).
  const block170Transfer =
    '0100000001c997a5e56e104102fa209c6a852dd90660a20b2d9c352423edce25857fcd3704000000004847304402204e45e16932b8af514961a1d3a1a25fdf3f4f7732e9d624c6c61548ab5fb8cd410220181522ec8eca07de4860a4acdd12909d831cc56cbbac4622082221a8768d1d0901ffffffff0200ca9a3b00000000434104ae1a62fe09c5f51b13905f07f06b99a2f7159b2225f374cd378d71302fa28414e7aab37397f554a7df5f142c21c1b7303b8a0626f1baded5c72a704f7e6cd84cac00286bee0000000043410411db93e1dcdb8a016b49840f8c53bc1eb68a382e97b1482ecad7b148a6909a5cb2e0eaddfb84ccf9744464f82e160bfa9b8b64f9d4c03f999b8643f656b412a3ac00000000'

  it('accepts a raw transaction in hex, whitespace around it ignored', () => {
    expect(Buffer.from(parseTransactionHex(`\n${block170Transfer}\n`)).toString('hex')).toBe(block170Transfer)
  })

  it.each([
    ['an empty body', '  ', 'Empty body: send the raw transaction as hex'],
    ['non-hex text', '{"tx":"00"}', 'The body must be the raw transaction as an even number of hex characters'],
    ['an odd number of hex characters', block170Transfer.slice(1), 'The body must be the raw transaction as an even number of hex characters'],
  ])('refuses %s', (_case, body, message) => {
    expect(() => parseTransactionHex(body)).toThrow(expect.objectContaining({ status: 400, code: 'INVALID_TRANSACTION', message }))
  })

  it.each([
    ['a truncated transaction', block170Transfer.slice(0, -8)],
    ['bytes after the transaction', `${block170Transfer}00`],
  ])('refuses %s in Bitcoin Core words, TX decode failed', (_case, body) => {
    expect(() => parseTransactionHex(body)).toThrow(
      expect.objectContaining({ status: 400, code: 'INVALID_TRANSACTION', reason: 'TX decode failed', message: expect.stringMatching(/^TX decode failed: /) }),
    )
  })
})
