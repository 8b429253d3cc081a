import { describe, expect, it } from 'vitest'
import { bitcoinNetworks } from '../../shared/families/bip122/address'
import { alwaysCheckedFields, bitcoinNetworkReferences, configFields, defaultFeatures, parseWidgetConfig } from './config'
import { safeParse } from '../../shared/protocol/schemas/parse'
import { polkadotRpcUrl, polkadotRpcUrls } from './polkadotRpcUrl'

const local = {
  chainNamespace: 'eip155' as const,
  caipNetworkId: 'eip155:31337',
  id: 31337,
  name: 'Tessera Local',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } },
}

const bitcoinLocal = {
  chainNamespace: 'bip122' as const,
  caipNetworkId: 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328',
  id: '0f9188f13cb7b2c71f2a335e3a4fc328',
  name: 'Bitcoin Local',
  nativeCurrency: { name: 'Bitcoin', symbol: 'BTC', decimals: 8 },
  rpcUrls: { default: { http: ['http://127.0.0.1:3002'] } },
}

describe('parseWidgetConfig', () => {
  it('fills in the defaults of SPEC §9', () => {
    const config = parseWidgetConfig({ projectId: 'demo', networks: [local] })
    expect(config).toMatchObject({ themeMode: 'dark', logLevel: 'error', enableNetworkSwitch: true, allowUnsupportedChain: false, features: defaultFeatures })
    expect(defaultFeatures).toEqual({
      swaps: true, onramp: true, receive: true, send: true, email: true, emailShowWallets: true, history: true, analytics: true, allWallets: true,
      legalCheckbox: false, smartSessions: false, collapseWallets: false,
    })
  })

  it('checks a field the config leaves out exactly when it is required or has a default', () => {
    // The schema is built from the fields a config has and these: a field missing from the list would lose its default.
    const leftOutIsFine = Object.entries(configFields).filter(([, build]) => {
      const parsed = safeParse(build(), undefined)
      return parsed.success && parsed.data === undefined
    })
    expect(Object.keys(configFields).filter((field) => !leftOutIsFine.some(([name]) => name === field))).toEqual([...alwaysCheckedFields])
    expect(() => parseWidgetConfig({ networks: [local] })).toThrow(/projectId/)
    // A field is read as zod reads it, inherited ones included.
    expect(parseWidgetConfig(Object.assign(Object.create({ locale: 'fr' }), { projectId: 'demo', networks: [local] })).locale).toBe('fr')
  })

  it('keeps a feature the host turned off', () => {
    expect(parseWidgetConfig({ projectId: 'demo', networks: [local], features: { swaps: false } }).features.swaps).toBe(false)
  })

  it('rejects siweConfig together with siwx, with the spec’s sentence', () => {
    expect(() => parseWidgetConfig({ projectId: 'demo', networks: [local], siwx: {}, siweConfig: {} })).toThrowErrorMatchingInlineSnapshot(
      `[ValidationError: Cannot set both \`siweConfig\` and \`siwx\` options]`,
    )
  })

  it.each([
    [{ networks: [local] }, 'projectId'],
    [{ projectId: '', networks: [local] }, 'projectId'],
    [{ projectId: 'demo', networks: [] }, 'networks'],
    [{ projectId: 'demo', networks: [{ ...local, rpcUrls: { default: { http: ['ftp://x'] } } }] }, 'networks.0.rpcUrls.default.http.0'],
    [{ projectId: 'demo', networks: [local], themeMode: 'blue' }, 'themeMode'],
    [{ projectId: 'demo', networks: [local], defaultNetwork: 'eip155:1' }, 'defaultNetwork'],
    [{ projectId: 'demo', networks: [local], themeVariables: { color: 'red' } }, 'themeVariables.color'],
    [{ projectId: 'demo', networks: [local], services: { relay: 'https://relay.example.org' } }, 'services.relay'],
    [{ projectId: 'demo', networks: [local], featuredWalletIds: [''] }, 'featuredWalletIds.0'],
    [{ projectId: 'demo', networks: [local], cspNonce: '' }, 'cspNonce'],
    [{ projectId: 'demo', networks: [{ ...local, blockTime: 0 }] }, 'networks.0.blockTime'],
    [{ projectId: 'demo', networks: [{ ...local, blockTime: 1.5 }] }, 'networks.0.blockTime'],
    [{ projectId: 'demo', networks: [{ ...local, blockTime: '2000' }] }, 'networks.0.blockTime'],
    [{ projectId: 'demo', networks: [{ ...local, blockTime: 3_600_001 }] }, 'networks.0.blockTime'],
    // A network of a known family is told what is wrong as a network of that family, not "networks.0: Invalid input".
    [{ projectId: 'demo', networks: [{ ...local, nativeCurrency: { ...local.nativeCurrency, decimals: '18' } }] }, 'networks.0.nativeCurrency.decimals'],
    [{ projectId: 'demo', networks: [{ ...bitcoinLocal, name: 5 }] }, 'networks.0.name'],
    // Bitcoin networks: the four whose address rules Tessera knows, named by the genesis hash's first 32 hex characters.
    [{ projectId: 'demo', networks: [{ ...bitcoinLocal, id: '0'.repeat(32), caipNetworkId: `bip122:${'0'.repeat(32)}` }] }, 'networks.0.id'],
    [{ projectId: 'demo', networks: [{ ...bitcoinLocal, caipNetworkId: 'bip122:0F9188F13CB7B2C71F2A335E3A4FC328' }] }, 'networks.0.caipNetworkId'],
    [{ projectId: 'demo', networks: [{ ...bitcoinLocal, caipNetworkId: 'bip122:000000000019d6689c085ae165831e93' }] }, 'networks.0.caipNetworkId'],
  ])('names the failing field: %o', (input, field) => {
    const error = (() => {
      try {
        parseWidgetConfig(input)
      } catch (e) {
        return e as { code: string; field: string; details: string }
      }
    })()
    expect(error).toMatchObject({ code: 'INVALID_CONFIG', field })
    expect(error?.details.startsWith(`${field}: `)).toBe(true)
  })

  it('takes an EVM network’s block time in milliseconds, as viem’s chains give it', () => {
    expect(parseWidgetConfig({ projectId: 'demo', networks: [{ ...local, blockTime: 2_000 }] }).networks[0]).toMatchObject({ blockTime: 2_000 })
  })

  it('takes a Bitcoin network (bip122) with the others', () => {
    const config = parseWidgetConfig({ projectId: 'demo', networks: [local, bitcoinLocal] })
    expect(config.networks.map((n) => n.caipNetworkId)).toEqual(['eip155:31337', 'bip122:0f9188f13cb7b2c71f2a335e3a4fc328'])
  })

  it('takes a Polkadot network, reached by its webSocket URL or its http one as ws; refuses a malformed reference or SS58 format', () => {
    const polkadotLocal = {
      chainNamespace: 'polkadot' as const,
      caipNetworkId: 'polkadot:45454545454545454545454545454545',
      id: '45454545454545454545454545454545',
      name: 'Polkadot Local',
      nativeCurrency: { name: 'Rococo', symbol: 'ROC', decimals: 12 },
      rpcUrls: { default: { http: ['http://127.0.0.1:9944'] } },
      ss58Prefix: 2,
    }
    const config = parseWidgetConfig({ projectId: 'demo', networks: [local, polkadotLocal] })
    expect(config.networks.map((n) => n.caipNetworkId)).toEqual(['eip155:31337', 'polkadot:45454545454545454545454545454545'])
    expect(polkadotRpcUrl(polkadotLocal)).toBe('ws://127.0.0.1:9944')
    expect(polkadotRpcUrl({ rpcUrls: { default: { http: ['https://rpc.polkadot.io'] } } })).toBe('wss://rpc.polkadot.io')
    expect(polkadotRpcUrl({ rpcUrls: { default: { http: ['https://a.test'], webSocket: ['wss://b.test'] } } })).toBe('wss://b.test')
    expect(polkadotRpcUrl({ rpcUrls: { default: { http: [] } } })).toBeUndefined()
    expect(polkadotRpcUrls({ rpcUrls: { default: { http: ['https://a.test', 'http://b.test'] } } })).toEqual(['wss://a.test', 'ws://b.test'])
    expect(polkadotRpcUrls({ rpcUrls: { default: { http: ['https://a.test'], webSocket: ['wss://b.test', 'wss://c.test'] } } })).toEqual(['wss://b.test', 'wss://c.test'])
    for (const bad of [{ caipNetworkId: 'polkadot:4545', id: '4545' }, { ss58Prefix: 16_384 }, { ss58Prefix: 1.5 }]) {
      expect(() => parseWidgetConfig({ projectId: 'demo', networks: [{ ...polkadotLocal, ...bad }] })).toThrow(expect.objectContaining({ code: 'INVALID_CONFIG' }))
    }
  })

  it('knows the same four Bitcoin networks as the address rules', () => {
    expect([...bitcoinNetworkReferences].sort()).toEqual(Object.values(bitcoinNetworks).map((n) => n.caipNetworkId.slice('bip122:'.length)).sort())
  })
})
