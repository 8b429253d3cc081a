import { describe, expect, it } from 'vitest'
import { deriveSolanaDevKey } from '../chain/solana/devKeys'
import { base58 } from '@scure/base'
import { defaultOnrampSandboxLimits, digestApiKey, OnrampSandboxConfigError, parseOnrampSandboxConfig } from './config'

const EVM_KEY = '0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80'
const solanaKey = deriveSolanaDevKey('onramp-config-test')
const SOLANA = 'solana:CmpNeggWJ4JaWJeJ8YKN1Zypmk7uvQq3'
const partner = { apiKey: 'sandbox-key-a', name: 'Sandbox A', feePercent: 1.5, webhookUrl: 'http://127.0.0.1:8787/v1/onramp/webhooks/sandbox-a', webhookSecret: 'whsec-0123456789abcdef' }
const eth = { network: 'eip155:31337', symbol: 'ETH', name: 'Ether', decimals: 18, rpcUrl: 'http://127.0.0.1:8545' }
const tusd = { ...eth, symbol: 'TUSD', name: 'Tessera Dollar', decimals: 6, address: '0x5fbdb2315678afecb367f032d93f642f64180aa3' }
const sol = { network: SOLANA, symbol: 'SOL', name: 'Solana', decimals: 9, rpcUrl: 'http://127.0.0.1:8899' }
const valid = {
  partners: [partner],
  prices: { ETH: { USD: 3000, EUR: '2760.5' }, TUSD: { USD: 1, EUR: 0.92 }, SOL: { USD: 150, EUR: 138 } },
  assets: [eth, tusd, sol],
  treasuries: { 'eip155:31337': EVM_KEY, [SOLANA]: Array.from(solanaKey.secretKey) },
}

const issuesOf = (input: unknown) => {
  try {
    parseOnrampSandboxConfig(input)
  } catch (error) {
    expect(error).toBeInstanceOf(OnrampSandboxConfigError)
    return (error as OnrampSandboxConfigError).message
  }
  throw new Error('accepted')
}

describe('parseOnrampSandboxConfig', () => {
  it('resolves a configuration: the spec limits in USD and EUR by default, amounts in cents and prices in 10^-8, keys as accounts', () => {
    const config = parseOnrampSandboxConfig(valid)
    expect(config.publicUrl).toBeUndefined()
    expect(config.countries).toEqual([])
    expect(config.partners).toEqual([{ apiKeyDigest: digestApiKey('sandbox-key-a'), name: 'Sandbox A', feeBasisPoints: 150n, webhookUrl: partner.webhookUrl, webhookSecret: partner.webhookSecret }])
    expect([...config.fiat.values()]).toEqual([
      { id: 'USD', networkFeeCents: 50n, methods: new Map([['card', { minCents: 1_000n, maxCents: 750_000n }], ['bank', { minCents: 1_000n, maxCents: 2_500_000n }]]) },
      { id: 'EUR', networkFeeCents: 50n, methods: new Map([['card', { minCents: 1_000n, maxCents: 750_000n }], ['bank', { minCents: 1_000n, maxCents: 2_500_000n }]]) },
    ])
    expect(config.assets.map(({ symbol, namespace, address, prices }) => ({ symbol, namespace, address, prices }))).toEqual([
      { symbol: 'ETH', namespace: 'eip155', address: undefined, prices: new Map([['USD', 300_000_000_000n], ['EUR', 276_050_000_000n]]) },
      { symbol: 'TUSD', namespace: 'eip155', address: '0x5FbDB2315678afecb367f032d93F642f64180aa3', prices: new Map([['USD', 100_000_000n], ['EUR', 92_000_000n]]) },
      { symbol: 'SOL', namespace: 'solana', address: undefined, prices: new Map([['USD', 15_000_000_000n], ['EUR', 13_800_000_000n]]) },
    ])
    expect(config.treasuries.get('eip155:31337')).toMatchObject({ kind: 'evm', address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' })
    expect(config.treasuries.get(SOLANA)).toMatchObject({ kind: 'solana', address: solanaKey.address })
    expect(config.limits).toEqual(defaultOnrampSandboxLimits)
  })

  it('takes a base58 Solana key, its own fiat table, a public origin, countries and limits over their defaults', () => {
    const config = parseOnrampSandboxConfig({
      ...valid,
      publicUrl: 'https://onramp.example/',
      countries: ['US', 'FR'],
      fiat: { GBP: { networkFee: '0.4', card: { min: 5, max: '1000.50' } } },
      prices: { ETH: { GBP: 2400 }, TUSD: { GBP: 0.8 }, SOL: { GBP: 120 } },
      treasuries: { ...valid.treasuries, [SOLANA]: base58.encode(solanaKey.secretKey) },
      limits: { orders: 5 },
    })
    expect(config.publicUrl).toBe('https://onramp.example')
    expect(config.countries).toEqual(['US', 'FR'])
    expect([...config.fiat.values()]).toEqual([{ id: 'GBP', networkFeeCents: 40n, methods: new Map([['card', { minCents: 500n, maxCents: 100_050n }]]) }])
    expect(config.treasuries.get(SOLANA)).toMatchObject({ kind: 'solana', address: solanaKey.address })
    expect(config.limits).toEqual({ ...defaultOnrampSandboxLimits, orders: 5 })
  })

  const badSecretKey = Array.from(solanaKey.secretKey)
  badSecretKey[40] = (badSecretKey[40]! + 1) % 256
  it.each([
    ['no partners', { ...valid, partners: [] }, 'partners must list at least one partner'],
    ['a short API key', { ...valid, partners: [{ ...partner, apiKey: 'short' }] }, 'partners[0].apiKey must be at least 8 characters'],
    ['two partners with one key', { ...valid, partners: [partner, { ...partner, name: 'B' }] }, 'partners[1].apiKey is the key of an earlier partner'],
    ['a fee over 10 %', { ...valid, partners: [{ ...partner, feePercent: 10.5 }] }, 'partners[0].feePercent must be at most 10'],
    ['a negative fee', { ...valid, partners: [{ ...partner, feePercent: -1 }] }, 'partners[0].feePercent must be a percentage from 0 to 10'],
    ['a fee of 3 decimals', { ...valid, partners: [{ ...partner, feePercent: 1.125 }] }, 'partners[0].feePercent must be a percentage'],
    ['a webhook that is no http URL', { ...valid, partners: [{ ...partner, webhookUrl: 'file:///etc/passwd' }] }, 'partners[0].webhookUrl must be an http(s) URL'],
    ['a short webhook secret', { ...valid, partners: [{ ...partner, webhookSecret: 'secret' }] }, 'partners[0].webhookSecret must be at least 16 characters'],
    ['a public URL with a path', { ...valid, publicUrl: 'http://127.0.0.1:8794/onramp' }, 'publicUrl must be an origin'],
    ['a country that is no code', { ...valid, countries: ['usa'] }, 'countries[0] must be an ISO 3166-1 alpha-2 code'],
    ['a limit of 3 decimals', { ...valid, fiat: { USD: { networkFee: 0.5, card: { min: 10.005, max: 100 } } } }, 'fiat.USD.card.min must be an amount with at most 2 decimal places'],
    ['a minimum over the maximum', { ...valid, fiat: { USD: { networkFee: 0.5, card: { min: 100, max: 10 } } } }, 'fiat.USD.card must have 0 < min ≤ max'],
    ['a currency without methods', { ...valid, fiat: { USD: { networkFee: 0.5 } } }, 'fiat.USD must list card or bank (or both)'],
    ['no currency at all', { ...valid, fiat: {} }, 'fiat must list at least one currency'],
    ['an asset without a price in a currency', { ...valid, prices: { ...valid.prices, SOL: { USD: 150 } } }, 'prices.SOL.EUR is missing'],
    ['a price of 0', { ...valid, prices: { ...valid.prices, SOL: { USD: 0, EUR: 1 } } }, 'prices.SOL.USD must be above 0'],
    ['a network that is not CAIP-2', { ...valid, assets: [{ ...eth, network: '31337' }] }, 'assets[0].network must be a CAIP-2 id'],
    ['a Bitcoin network', { ...valid, assets: [{ ...eth, network: 'bip122:000000000019d6689c085ae165831e93' }] }, 'assets[0].network must be a CAIP-2 id of an EVM or Solana network'],
    ['ether of 6 decimals', { ...valid, assets: [{ ...eth, decimals: 6 }] }, 'assets[0].decimals must be 18 for the native currency of an EVM network'],
    ['SOL of 18 decimals', { ...valid, assets: [{ ...sol, decimals: 18 }] }, 'assets[0].decimals must be 9 for the native currency of a Solana network'],
    ['a token address that is no address', { ...valid, assets: [{ ...tusd, address: '0x1234' }] }, 'assets[0].address must be a token address of its network'],
    ['a Solana mint on an EVM network', { ...valid, assets: [{ ...tusd, address: solanaKey.address }] }, 'assets[0].address must be a token address of its network'],
    ['an asset listed twice', { ...valid, assets: [eth, eth] }, 'assets[1].symbol ETH is listed twice on eip155:31337'],
    ['two RPC URLs for one network', { ...valid, assets: [eth, { ...tusd, rpcUrl: 'http://127.0.0.1:9545' }] }, 'assets[1].rpcUrl must be the rpcUrl of the other assets on its network'],
    ['an asset without a treasury', { ...valid, treasuries: { 'eip155:31337': EVM_KEY } }, 'assets[2].network has no key in treasuries to pay from'],
    ['an EVM key that is no key', { ...valid, treasuries: { ...valid.treasuries, 'eip155:31337': `0x${'0'.repeat(64)}` } }, 'treasuries["eip155:31337"] must be a secp256k1 private key'],
    ['a Solana key whose halves do not match', { ...valid, treasuries: { ...valid.treasuries, [SOLANA]: badSecretKey } }, `treasuries["${SOLANA}"] must be a Solana secret key`],
    ['a Solana key of 32 bytes', { ...valid, treasuries: { ...valid.treasuries, [SOLANA]: base58.encode(solanaKey.privateKey) } }, `treasuries["${SOLANA}"] must be a Solana secret key`],
    ['a treasury of an unknown network', { ...valid, treasuries: { ...valid.treasuries, mainnet: EVM_KEY } }, 'treasuries["mainnet"] must be keyed by the CAIP-2 id'],
    ['a limit of the wrong type', { ...valid, limits: { orders: '10k' } }, 'limits.orders must be a number'],
    ['a body limit under 1 KiB', { ...valid, limits: { bodyBytes: 10 } }, 'limits.bodyBytes must be at least 1024'],
    ['not an object', [], 'config must be a JSON object'],
  ])('refuses %s, naming the field and never a secret', (_, input, expected) => {
    const message = issuesOf(input)
    expect(message).toContain(expected)
    for (const secret of [EVM_KEY.slice(2, 20), partner.apiKey, partner.webhookSecret, base58.encode(solanaKey.secretKey).slice(0, 16)]) expect(message).not.toContain(secret)
  })
})
