import { describe, expect, it } from 'vitest'
import { loadFrameConfig, parseFrameConfig, type FrameConfig } from './frameConfig'
import { isParentAllowed, readFrameParams, toCaipNetworkId } from './readFrameParams'

const config: FrameConfig = {
  projects: [{ id: 'demo', allowedOrigins: ['http://127.0.0.1:5173', 'https://app.example'] }],
  authUrl: 'http://127.0.0.1:8791',
  networks: { eip155: [{ chainId: 31337, name: 'Local', rpcUrl: 'http://127.0.0.1:8545', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 } }] },
}

describe('parseFrameConfig', () => {
  it('accepts a config and refuses one whose origins are not bare origins, naming the field', () => {
    expect(parseFrameConfig(config)).toEqual(config)
    for (const bad of ['https://app.example/', 'https://app.example/path', 'javascript:alert(1)', '*', 'app.example']) {
      expect(() => parseFrameConfig({ ...config, projects: [{ id: 'demo', allowedOrigins: [bad] }] })).toThrow(expect.objectContaining({ code: 'INVALID_MESSAGE', field: 'projects.0.allowedOrigins.0' }))
    }
    expect(() => parseFrameConfig({ ...config, authUrl: 'ftp://x' })).toThrow(expect.objectContaining({ field: 'authUrl' }))
  })

  it('loads /frame-config.json without the cache, and fails on an HTTP error', async () => {
    const seen: RequestInit[] = []
    const ok = (async (_url: URL, init: RequestInit) => {
      seen.push(init)
      return new Response(JSON.stringify(config))
    }) as typeof fetch
    expect(await loadFrameConfig(new URL('http://frame.test/frame-config.json'), ok)).toEqual(config)
    expect(seen[0]).toMatchObject({ cache: 'no-store', credentials: 'omit' })
    const missing = (async () => new Response('no', { status: 404 })) as typeof fetch
    await expect(loadFrameConfig(new URL('http://frame.test/frame-config.json'), missing)).rejects.toThrow('/frame-config.json: HTTP 404')
  })
})

describe('readFrameParams', () => {
  it('reads projectId, origin, chainId, version and enableLogger', () => {
    expect(readFrameParams(new URL('http://frame.test/?projectId=demo&origin=https%3A%2F%2Fapp.example&chainId=31337&version=react-wagmi-0.2.0&enableLogger=true'))).toEqual({
      projectId: 'demo',
      parentOrigin: 'https://app.example',
      caipNetworkId: 'eip155:31337',
      version: 'react-wagmi-0.2.0',
      isLoggerEnabled: true,
    })
    expect(readFrameParams(new URL('http://frame.test/?projectId=demo'))).toBeUndefined()
    expect(readFrameParams(new URL('http://frame.test/?origin=https%3A%2F%2Fapp.example'))).toBeUndefined()
  })

  it.each([
    [1, 'eip155:1'],
    ['31337', 'eip155:31337'],
    ['eip155:10', 'eip155:10'],
    ['solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp', 'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp'],
    ['bip122:000000000019d6689c085ae165831e93', undefined],
    [0, undefined],
    [1.5, undefined],
    ['0x1', undefined],
    ['', undefined],
    [null, undefined],
  ] as const)('reads chain id %j as %j', (input, expected) => {
    expect(toCaipNetworkId(input)).toBe(expected)
  })
})

describe('isParentAllowed', () => {
  it("allows only the project's exact origins, and only when the embedding page has that origin", () => {
    expect(isParentAllowed(config, { projectId: 'demo', parentOrigin: 'https://app.example' }, undefined)).toBe(true)
    expect(isParentAllowed(config, { projectId: 'demo', parentOrigin: 'https://app.example' }, 'https://app.example')).toBe(true)
    expect(isParentAllowed(config, { projectId: 'demo', parentOrigin: 'https://app.example' }, 'https://evil.example')).toBe(false)
    expect(isParentAllowed(config, { projectId: 'demo', parentOrigin: 'https://evil.example' }, undefined)).toBe(false)
    expect(isParentAllowed(config, { projectId: 'demo', parentOrigin: 'https://app.example.evil.example' }, undefined)).toBe(false)
    expect(isParentAllowed(config, { projectId: 'other', parentOrigin: 'https://app.example' }, undefined)).toBe(false)
    expect(isParentAllowed(config, { projectId: 'demo', parentOrigin: '*' }, undefined)).toBe(false)
  })
})
