import { address, createSolanaRpc } from '@solana/kit'
import { describe, expect, it } from 'vitest'
import { knownNetworks } from '../../src/shared/protocol/networks'
import { freePorts } from './ports'
import { startLocalSolana } from './startLocalSolana'

describe('startLocalSolana', () => {
  it('writes the manifest entry of a seeded chain whose CAIP-2 id is the known Solana Local network, then frees its ports', async () => {
    const ports = await freePorts()
    const solana = await startLocalSolana({ port: ports.solana, wsPort: ports.solanaWs })
    try {
      const { manifest } = solana
      expect(manifest).toEqual({
        caipNetworkId: knownNetworks.find((n) => n.name === 'Solana Local')?.caipNetworkId,
        rpcUrl: `http://127.0.0.1:${ports.solana}`,
        wsUrl: `ws://127.0.0.1:${ports.solanaWs}`,
        devAccounts: expect.arrayContaining([expect.stringMatching(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/)]),
        mint: { address: expect.stringMatching(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/), symbol: 'TUSD', decimals: 6 },
      })
      expect(manifest.devAccounts).toHaveLength(10)

      const rpc = createSolanaRpc(manifest.rpcUrl)
      const genesisHash = await rpc.getGenesisHash().send()
      expect(manifest.caipNetworkId).toBe(`solana:${genesisHash.slice(0, 32)}`)
      expect((await rpc.getBalance(address(manifest.devAccounts[9]!)).send()).value).toBe(1_000_000_000_000n) // 1,000 SOL
      const { value: tokenAccounts } = await rpc
        .getTokenAccountsByOwner(address(manifest.devAccounts[9]!), { mint: address(manifest.mint.address) }, { encoding: 'jsonParsed' })
        .send()
      expect(tokenAccounts.map(({ account }) => account.data.parsed.info.tokenAmount)).toMatchObject([{ amount: '1000000000000', decimals: 6 }])
    } finally {
      await solana.stop()
    }
    await expect(fetch(`http://127.0.0.1:${ports.solana}`)).rejects.toThrow()
    await expect(fetch(`http://127.0.0.1:${ports.solanaWs}`)).rejects.toThrow()
  })
})
