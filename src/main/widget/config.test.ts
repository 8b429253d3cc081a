import { describe, expect, it } from 'vitest'
import { defaultFeatures, parseWidgetConfig } from './config'

const local = {
  chainNamespace: 'eip155' as const,
  caipNetworkId: 'eip155:31337',
  id: 31337,
  name: 'Tessera Local',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } },
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
})
