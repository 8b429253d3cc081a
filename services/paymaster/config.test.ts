import { describe, expect, it } from 'vitest'
import { defaultPaymasterLimits, parsePaymasterConfig, PaymasterConfigError } from './config'

const signerKey = '0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6'
const chain = { chainId: 31337, rpcUrl: 'http://127.0.0.1:8545', paymasterAddress: '0x1111111111111111111111111111111111111111', entryPointAddress: '0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108' }
const project = { id: 'site', allowedOrigins: ['http://site.test'], chainIds: [31337], dailyGasPerAccount: 1_000_000 }
const valid = { signerKey, chains: [chain], projects: [project] }

const issuesOf = (input: unknown) => {
  try {
    parsePaymasterConfig(input)
  } catch (error) {
    expect(error).toBeInstanceOf(PaymasterConfigError)
    return (error as PaymasterConfigError).message
  }
  throw new Error('accepted')
}

describe('parsePaymasterConfig', () => {
  it('resolves a configuration: the signer, maps by id, gas defaults, limits over their defaults', () => {
    const config = parsePaymasterConfig({ ...valid, limits: { trackedAccounts: 5 }, chains: [{ ...chain, maxFeePerGasWei: '1000000000000000000000' }] })
    expect(config.signer.address).toBe('0xa0Ee7A142d267C1f36714E4a8F75612F20a79720')
    expect(config.chains.get(31337)).toMatchObject({ paymasterVerificationGasLimit: 60_000n, paymasterPostOpGasLimit: 0n, maxFeePerGasWei: 10n ** 21n })
    expect(config.projects.get('site')).toMatchObject({ dailyGasPerAccount: 1_000_000n, allowedOrigins: new Set(['http://site.test']) })
    expect(config.limits).toEqual({ ...defaultPaymasterLimits, trackedAccounts: 5 })
  })

  it.each([
    ['no signer key', { ...valid, signerKey: undefined }, 'signerKey must be a private key (0x and 64 hex digits)'],
    ['a short signer key', { ...valid, signerKey: signerKey.slice(0, 60) }, 'signerKey must be a private key'],
    ['a signer key that is no secp256k1 key', { ...valid, signerKey: `0x${'0'.repeat(64)}` }, 'signerKey is not a valid secp256k1 private key'],
    ['no chains', { ...valid, chains: [] }, 'chains must list at least one chain'],
    ['a malformed paymaster address', { ...valid, chains: [{ ...chain, paymasterAddress: '0x1234' }] }, 'chains[0].paymasterAddress must be an address'],
    ['an RPC URL that is not http', { ...valid, chains: [{ ...chain, rpcUrl: 'file:///etc/passwd' }] }, 'chains[0].rpcUrl must be an http(s) URL'],
    ['a chain listed twice', { ...valid, chains: [chain, chain] }, 'chains[1].chainId 31337 is listed twice'],
    ['a fractional chain id', { ...valid, chains: [{ ...chain, chainId: 1.5 }] }, 'chains[0].chainId must be an integer'],
    ['a fee cap that is not wei', { ...valid, chains: [{ ...chain, maxFeePerGasWei: '1e9' }] }, 'chains[0].maxFeePerGasWei must be'],
    ['an origin with a path', { ...valid, projects: [{ ...project, allowedOrigins: ['http://site.test/'] }] }, 'projects[0].allowedOrigins[0] must be an exact origin'],
    ['a negative allowance', { ...valid, projects: [{ ...project, dailyGasPerAccount: -1 }] }, 'projects[0].dailyGasPerAccount must be at least 0'],
    ['an allowance past 2^53', { ...valid, projects: [{ ...project, dailyGasPerAccount: 2 ** 60 }] }, 'projects[0].dailyGasPerAccount must be at most 2^53 - 1'],
    ['a malformed allowed contract', { ...valid, projects: [{ ...project, allowedContracts: ['nope'] }] }, 'projects[0].allowedContracts[0] must be an address'],
    ['a project listed twice', { ...valid, projects: [project, project] }, 'projects[1].id "site" is listed twice'],
    ['a limit of the wrong type', { ...valid, limits: { bodyBytes: '64k' } }, 'limits.bodyBytes must be a number'],
    ['a signature validity under a minute', { ...valid, limits: { signatureValiditySeconds: 5 } }, 'limits.signatureValiditySeconds must be at least 60'],
    ['not an object', [], 'config must be a JSON object'],
  ])('refuses %s, naming the field', (_, input, expected) => {
    const message = issuesOf(input)
    expect(message).toContain(expected)
    expect(message.toLowerCase()).not.toContain(signerKey.slice(2, 20))
  })
})
