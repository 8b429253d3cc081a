import { expose, transferHandlers } from 'comlink'
import { beforeAll, describe, expect, it } from 'vitest'
import { installErrorTransferHandler } from '../../shared/protocol/errors'
import type { CoreConfig } from '../../shared/protocol/core/coreApi'
import { createWorkerApi } from '../../worker/api'
import { createCore } from './createCore'

const BITCOIN = 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328'
const POLKADOT = 'polkadot:45454545454545454545454545454545'

/** `api` behind a MessageChannel, as createCore's worker. */
function channelWorker(api: object) {
  return () => {
    const { port1, port2 } = new MessageChannel()
    expose(api, port2)
    return Object.assign(port1, { terminate: () => (port1.close(), port2.close()) }) as unknown as Worker
  }
}

type Recorded = { configs: CoreConfig[]; familyCalls: unknown[] }

/** The real worker API, its configs and family calls recorded; every family call answers 'answered'. */
function recordingWorker(record: Recorded) {
  const api = createWorkerApi()
  return channelWorker({
    ...api,
    configure: (config: CoreConfig) => (record.configs.push(config), api.configure(config)),
    familyCall: (call: unknown) => (record.familyCalls.push(call), 'answered'),
  })
}

describe("createCore's family members", () => {
  beforeAll(() => installErrorTransferHandler(transferHandlers))

  it('makes each call of core.<family> in the worker by namespace, a call that waits on the chain with its default wait', async () => {
    const record: Recorded = { configs: [], familyCalls: [] }
    const core = createCore({ chains: [], familyModules: {}, createWorker: recordingWorker(record) })
    try {
      const submission = { hash: '0x01', fromBlock: 1, validUntilBlock: 64 } as const
      expect(await core.bitcoin.getFeeRates({ caipNetworkId: BITCOIN })).toBe('answered')
      await core.polkadot.waitForTransaction({ caipNetworkId: POLKADOT, submission })
      await core.polkadot.waitForTransaction({ caipNetworkId: POLKADOT, submission, maxWaitMs: 1_000 })
      expect(record.familyCalls).toEqual([
        { namespace: 'bip122', method: 'getFeeRates', args: { caipNetworkId: BITCOIN } },
        { namespace: 'polkadot', method: 'waitForTransaction', args: { caipNetworkId: POLKADOT, submission, maxWaitMs: 600_000 } },
        { namespace: 'polkadot', method: 'waitForTransaction', args: { caipNetworkId: POLKADOT, submission, maxWaitMs: 1_000 } },
      ])
      expect(Object.keys(core.solana).sort()).toEqual(['buildTransfer', 'estimateFee', 'getBalance', 'getTokenBalances', 'reviewTransaction', 'sendTransaction', 'waitForConfirmation'])
    } finally {
      core.destroy()
    }
  })

  it('takes the networks of `bitcoinChains` (before familyChains) as familyChains.bip122; familyChains wins where both name a family', async () => {
    const record: Recorded = { configs: [], familyCalls: [] }
    const legacy = [{ caipNetworkId: BITCOIN, apiUrl: 'http://127.0.0.1:9' }]
    const polkadot = [{ caipNetworkId: POLKADOT, rpcUrl: 'ws://127.0.0.1:9' }]
    const core = createCore({
      chains: [],
      bitcoinChains: legacy,
      polkadotChains: [{ caipNetworkId: POLKADOT, rpcUrl: 'ws://127.0.0.1:8' }],
      familyChains: { polkadot },
      familyModules: {},
      createWorker: recordingWorker(record),
    })
    try {
      await core.ping()
      expect(record.configs[0]).toMatchObject({ familyChains: { bip122: legacy, polkadot } })
      expect(record.configs[0]).not.toHaveProperty('bitcoinChains')
    } finally {
      core.destroy()
    }
  })

  it('says which family has no network configured when the worker is real', async () => {
    const core = createCore({ chains: [], createWorker: channelWorker(createWorkerApi()) })
    try {
      await expect(core.bitcoin.getFeeRates({ caipNetworkId: BITCOIN })).rejects.toMatchObject({ code: 'NETWORK_NOT_FOUND', details: 'no Bitcoin network is configured in the core' })
      await expect(core.getBalance({ caipNetworkId: POLKADOT, address: '5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY' })).rejects.toMatchObject({ code: 'NETWORK_NOT_FOUND', details: 'no Polkadot network is configured in the core' })
    } finally {
      core.destroy()
    }
  })
})
