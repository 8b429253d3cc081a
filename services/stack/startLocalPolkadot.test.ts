import { ApiPromise, WsProvider } from '@polkadot/api'
import { describe, expect, it } from 'vitest'
import { freePorts } from './ports'
import { startLocalPolkadot } from './startLocalPolkadot'
import { isProcessRunning } from './testing/isProcessRunning'


describe('startLocalPolkadot', () => {
  it('writes the manifest entry of a chopsticks chain whose six dev accounts hold funds, then ends its process and frees its port', async () => {
    const ports = await freePorts()
    const polkadot = await startLocalPolkadot({ port: ports.polkadot })
    try {
      const { manifest } = polkadot
      expect(manifest).toEqual({
        // chopsticks gives a chain built from a genesis spec the hash 0x4545…45.
        caipNetworkId: 'polkadot:45454545454545454545454545454545',
        rpcUrl: `ws://127.0.0.1:${ports.polkadot}`,
        httpUrl: `http://127.0.0.1:${ports.polkadot}`,
        genesisHash: `0x${'45'.repeat(32)}`,
        chainName: 'asset-hub-rococo', // chopsticks answers system_chain with the spec's id
        ss58Prefix: 2,
        token: { symbol: 'ROC', decimals: 12 },
        existentialDeposit: '3333333',
        blockBuildMode: 'instant',
        devAccounts: ['Alice', 'Bob', 'Charlie', 'Dave', 'Eve', 'Ferdie'].map((name) => ({
          name,
          uri: `//${name}`,
          address: expect.stringMatching(/^[C-HJ][1-9A-HJ-NP-Za-km-z]{46}$/), // SS58 prefix 2
          publicKey: expect.stringMatching(/^0x[0-9a-f]{64}$/),
        })),
        fundedPlanck: '1000000000000000000',
      })
      // //Alice's well-known sr25519 key, in the chain's format.
      expect(manifest.devAccounts[0]).toMatchObject({ address: 'HNZata7iMYWmk5RvZRTiAsSDhV8366zq2YGb3tLH5Upf74F', publicKey: '0xd43593c715fdd31c61141abd04a99fd6822c8558854ccde39a5684e7a56da27d' })

      // What the chain itself says, over WebSocket and HTTP.
      const api = await ApiPromise.create({ provider: new WsProvider(manifest.rpcUrl), noInitWarn: true })
      try {
        expect(api.genesisHash.toHex()).toBe(manifest.genesisHash)
        for (const { address } of manifest.devAccounts) {
          const account = (await api.query.system!.account!(address)) as unknown as { data: { free: { toString(): string } } }
          expect(account.data.free.toString()).toBe(manifest.fundedPlanck)
        }
      } finally {
        await api.disconnect()
      }
      const response = await fetch(manifest.httpUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'system_properties', params: [] }),
      })
      expect(await response.json()).toMatchObject({ result: { tokenSymbol: 'ROC', tokenDecimals: 12 } })
      expect(isProcessRunning(polkadot.pid)).toBe(true)
    } finally {
      await polkadot.stop()
    }
    expect(isProcessRunning(polkadot.pid)).toBe(false)
    await expect(fetch(`http://127.0.0.1:${ports.polkadot}`, { method: 'POST' })).rejects.toThrow()
  }, 120_000)
})
