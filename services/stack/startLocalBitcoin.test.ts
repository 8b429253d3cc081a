import { describe, expect, it } from 'vitest'
import { freePorts } from './ports'
import { startLocalBitcoin } from './startLocalBitcoin'

type AddressInfo = { chain_stats: { funded_txo_sum: number; spent_txo_sum: number } }

describe('startLocalBitcoin', () => {
  it('writes the manifest entry of a regtest chain whose dev accounts hold coins, then frees its port', async () => {
    const ports = await freePorts()
    const bitcoin = await startLocalBitcoin({ port: ports.bitcoin, blockTimeSeconds: 0 })
    try {
      const { manifest } = bitcoin
      const key = (address: RegExp, publicKeyHexLength: number) => ({
        address: expect.stringMatching(address),
        publicKey: expect.stringMatching(new RegExp(`^[0-9a-f]{${publicKeyHexLength}}$`)),
        privateKey: expect.stringMatching(/^[0-9a-f]{64}$/),
        wif: expect.stringMatching(/^c[1-9A-HJ-NP-Za-km-z]{51}$/), // compressed-key WIF of a test network
        derivationPath: expect.stringMatching(/^m\/8[46]'\/1'\/0'\/0\/\d$/),
      })
      expect(manifest).toEqual({
        caipNetworkId: 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328',
        apiUrl: `http://127.0.0.1:${ports.bitcoin}`,
        blockTimeSeconds: null,
        mnemonic: 'test test test test test test test test test test test junk',
        devAccounts: expect.arrayContaining([{ payment: key(/^bcrt1q[02-9ac-hj-np-z]{38}$/, 66), ordinals: key(/^bcrt1p[02-9ac-hj-np-z]{58}$/, 64) }]),
      })
      expect(manifest.devAccounts).toHaveLength(10)

      expect(Number(await (await fetch(`${manifest.apiUrl}/blocks/tip/height`)).text())).toBe(450)
      for (const { payment } of manifest.devAccounts) {
        const { chain_stats } = (await (await fetch(`${manifest.apiUrl}/address/${payment.address}`)).json()) as AddressInfo
        expect(chain_stats.funded_txo_sum - chain_stats.spent_txo_sum).toBeGreaterThan(1_000 * 1e8) // over 1,000 BTC each
      }
      expect(await bitcoin.mine(2)).toHaveLength(2)
      expect(Number(await (await fetch(`${manifest.apiUrl}/blocks/tip/height`)).text())).toBe(452)
    } finally {
      await bitcoin.stop()
    }
    await expect(fetch(`http://127.0.0.1:${ports.bitcoin}`)).rejects.toThrow()
  })
})
