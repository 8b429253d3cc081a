import { createWalletClient, custom, parseEther } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { erc7715Actions } from 'viem/experimental'
import { describe, expect, it } from 'vitest'
import { MAX_PERMISSION_CHARS, MAX_PERMISSION_REQUESTS, MAX_PERMISSION_ROWS, readPermissionRequest } from './readPermissionRequest'

const account = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const sessionKey = '0x016562aA41A8697720ce0943F003141f5dEAe006'
const usdc = '0x5FbDB2315678afecb367f032d93F642f64180aa3'

const refusal = (method: 'wallet_grantPermissions' | 'wallet_requestExecutionPermissions', params: unknown) => {
  try {
    readPermissionRequest(method, params)
    return 'accepted'
  } catch (error) {
    return { code: (error as { code: number }).code, message: (error as Error).message }
  }
}

describe('an ERC-7715 permission request read for review', () => {
  it("reads the ERC's draft (wallet_grantPermissions): account, expiry, signer, the permission and its policies", () => {
    const review = readPermissionRequest('wallet_grantPermissions', [
      {
        chainId: '0x7a69',
        address: account,
        expiry: 1_900_000_000,
        signer: { type: 'account', data: { address: sessionKey } },
        permission: { type: 'native-token-transfer', data: { allowance: '0x1DCD6500' } },
        policies: [
          { type: 'gas-limit', data: { limit: '0x1DCD6500' } },
          { type: 'rate-limit', data: { count: 5, interval: 3600 } },
        ],
      },
    ])
    expect(review).toEqual({
      kind: 'permissions',
      grants: [
        {
          caipNetworkId: 'eip155:31337',
          account,
          expiry: 1_900_000_000n,
          signer: { type: 'account', rows: [{ path: 'address', value: { kind: 'address', address: sessionKey } }] },
          permissions: [{ type: 'native-token-transfer', rows: [{ path: 'allowance', value: { kind: 'nativeAmount', amount: 500_000_000n } }] }],
          limits: [
            { type: 'gas-limit', rows: [{ path: 'limit', value: { kind: 'number', value: 500_000_000n } }] },
            {
              type: 'rate-limit',
              rows: [
                { path: 'count', value: { kind: 'number', value: 5n } },
                { path: 'interval', value: { kind: 'number', value: 3600n } },
              ],
            },
          ],
        },
      ],
    })
  })

  it("reads the revision (wallet_requestExecutionPermissions): the expiry from its rule, a token's amount by the token's address", () => {
    const review = readPermissionRequest('wallet_requestExecutionPermissions', [
      {
        chainId: '0x7a69',
        signer: { type: 'account', data: { address: sessionKey } },
        permission: { type: 'erc20-token-periodic', isAdjustmentAllowed: false, data: { tokenAddress: usdc, periodAmount: '0xf4240', periodDuration: 86_400, startTime: 1_800_000_000, justification: 'Daily top-up' } },
        rules: [{ type: 'expiry', data: { timestamp: 1_900_000_000 } }],
      },
    ])
    expect(review.grants[0]).toEqual({
      caipNetworkId: 'eip155:31337',
      expiry: 1_900_000_000n,
      signer: { type: 'account', rows: [{ path: 'address', value: { kind: 'address', address: sessionKey } }] },
      permissions: [
        {
          type: 'erc20-token-periodic',
          rows: [
            { path: 'tokenAddress', value: { kind: 'address', address: usdc } },
            { path: 'periodAmount', value: { kind: 'tokenAmount', token: { address: usdc }, amount: 1_000_000n, isUnlimited: false } },
            { path: 'periodDuration', value: { kind: 'number', value: 86_400n } },
            { path: 'startTime', value: { kind: 'date', timestamp: 1_800_000_000n } },
            { path: 'justification', value: { kind: 'text', value: 'Daily top-up' } },
          ],
        },
      ],
      limits: [],
    })
  })

  it("reads viem's shape: a list of permissions, each with its own policies; an unlimited allowance and nested data", () => {
    const review = readPermissionRequest('wallet_grantPermissions', [
      {
        chainId: 31337,
        expiry: 1_900_000_000,
        permissions: [
          { type: 'erc20-token-transfer', data: { address: usdc, allowance: `0x${'f'.repeat(64)}` }, policies: [{ type: 'call-limit', data: { count: 3 } }, { type: 'token-allowance', data: { allowance: '0xf4240' } }], required: true },
          { type: 'erc1155-token-transfer', data: { address: usdc, allowances: { '7': '0x2' } } },
        ],
      },
    ])
    const [grant] = review.grants
    expect(grant!.signer).toBeUndefined()
    expect(grant!.permissions.map((p) => p.rows)).toEqual([
      [
        { path: 'address', value: { kind: 'address', address: usdc } },
        { path: 'allowance', value: { kind: 'tokenAmount', token: { address: usdc }, amount: 2n ** 256n - 1n, isUnlimited: true } },
      ],
      [
        { path: 'address', value: { kind: 'address', address: usdc } },
        { path: 'allowances.7', value: { kind: 'tokenAmount', token: { address: usdc }, amount: 2n, isUnlimited: false } },
      ],
    ])
    expect(grant!.limits).toEqual([
      { type: 'call-limit', rows: [{ path: 'count', value: { kind: 'number', value: 3n } }] },
      // The policy of an ERC-20 permission: its allowance in the permission's token.
      { type: 'token-allowance', rows: [{ path: 'allowance', value: { kind: 'tokenAmount', token: { address: usdc }, amount: 1_000_000n, isUnlimited: false } }] },
    ])
  })

  it("reads what viem's grantPermissions sends (no chain: the wallet's; a local account as the signer, by its id)", async () => {
    const sent: unknown[] = []
    const client = createWalletClient({
      transport: custom({
        request: async ({ params }: { params?: unknown }) => {
          sent.push(params)
          return { expiry: 1_900_000_000, grantedPermissions: [], signerData: {}, permissionsContext: '0x01' }
        },
      }),
    }).extend(erc7715Actions())
    const session = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d')
    await client.grantPermissions({
      account: session,
      expiry: 1_900_000_000,
      permissions: [{ type: 'native-token-transfer', data: { ticker: 'ETH' }, policies: [{ type: 'token-allowance', data: { allowance: parseEther('1') } }], required: true }],
    })
    const review = readPermissionRequest('wallet_grantPermissions', sent[0])
    expect(review).toEqual({
      kind: 'permissions',
      grants: [
        {
          expiry: 1_900_000_000n,
          signer: { type: 'account', rows: [{ path: 'id', value: { kind: 'address', address: session.address } }] },
          permissions: [{ type: 'native-token-transfer', rows: [{ path: 'ticker', value: { kind: 'text', value: 'ETH' } }] }],
          // The policy of a native-token permission: its allowance in the network's currency.
          limits: [{ type: 'token-allowance', rows: [{ path: 'allowance', value: { kind: 'nativeAmount', amount: 10n ** 18n } }] }],
        },
      ],
    })
  })

  it('refuses a malformed request before anything shows, naming the field (-32602)', () => {
    const method = 'wallet_grantPermissions'
    const good = { chainId: '0x1', permission: { type: 'native-token-transfer', data: { allowance: '0x1' } } }
    for (const [params, message] of [
      [{ chainId: '0x1' }, 'wallet_grantPermissions takes a list of permission requests.'],
      [[], 'wallet_grantPermissions takes a list of permission requests.'],
      [Array.from({ length: MAX_PERMISSION_REQUESTS + 1 }, () => good), 'wallet_grantPermissions: 11 permission requests; at most 10 are reviewed.'],
      [['x'], 'wallet_grantPermissions: requests[0] must be a permission request object.'],
      [[{ ...good, chainId: 'mainnet' }], 'wallet_grantPermissions: requests[0].chainId must be a chain id (a hex quantity such as 0x1, or a number).'],
      [[{ ...good, chainId: null }], 'wallet_grantPermissions: requests[0].chainId must be a chain id (a hex quantity such as 0x1, or a number).'],
      [[{ ...good, chainId: '0x0' }], 'wallet_grantPermissions: requests[0].chainId must be a chain id (a hex quantity such as 0x1, or a number).'],
      [[good, { ...good, address: '0x12' }], 'wallet_grantPermissions: requests[1].address must be a 20-byte hex address.'],
      [[{ chainId: '0x1' }], 'wallet_grantPermissions: requests[0] asks for no permission: it needs "permission" or "permissions".'],
      [[{ ...good, permission: { data: {} } }], 'wallet_grantPermissions: requests[0].permission must be { type, data } with the type as text.'],
      [[{ ...good, permission: { type: 'x', data: 'all' } }], 'wallet_grantPermissions: requests[0].permission.data must be an object.'],
      [[{ ...good, permissions: 'all' }], 'wallet_grantPermissions: requests[0].permissions must be a list.'],
      [[{ ...good, policies: [{ type: 7 }] }], 'wallet_grantPermissions: requests[0].policies[0] must be { type, data } with the type as text.'],
      [[{ ...good, expiry: 'tomorrow' }], 'wallet_grantPermissions: requests[0].expiry must be a Unix time in seconds.'],
      [[{ ...good, signer: { type: 'account', data: [sessionKey] } }], 'wallet_grantPermissions: requests[0].signer.data must be an object.'],
      [[{ ...good, permission: { type: 'x', data: Object.fromEntries(Array.from({ length: MAX_PERMISSION_ROWS + 1 }, (_, i) => [`k${i}`, i])) } }], 'wallet_grantPermissions: requests[0] has more than 100 values; at most 100 are reviewed.'],
      [[{ ...good, permission: { type: 'x', data: { note: 'x'.repeat(MAX_PERMISSION_CHARS) } } }], 'wallet_grantPermissions: the permission requests are 100,064 characters; at most 100,000 are reviewed.'],
    ] as const) {
      expect(refusal(method, params)).toEqual({ code: -32602, message })
    }
    const cyclic: Record<string, unknown> = { ...good }
    cyclic.self = cyclic
    expect(refusal('wallet_requestExecutionPermissions', [cyclic])).toEqual({ code: -32602, message: 'wallet_requestExecutionPermissions: the permission requests are not valid JSON.' })
  })
})
