import { encodeAbiParameters, encodeFunctionData, encodePacked, erc20Abi, erc721Abi, maxUint256, multicall3Abi, parseAbi, parseEther, type Address } from 'viem'
import { entryPoint08Abi } from 'viem/account-abstraction'
import { describe, expect, it } from 'vitest'
import type { DecodedCall } from '../../shared/protocol/review'
import { decodeCall } from './decodeCall'
import { parseErc7730Descriptor } from './erc7730'

const token: Address = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
const other: Address = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512'
const alice: Address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const bob: Address = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
const transfer = (to: Address, amount: bigint) => encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] })
const approve = (spender: Address, amount: bigint) => encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, amount] })
const transferOf = (to: Address, recipient: Address, amount: bigint): DecodedCall => ({
  kind: 'function',
  to,
  value: 0n,
  standard: 'erc20',
  functionName: 'transfer',
  signature: 'transfer(address,uint256)',
  args: [
    { path: 'recipient', value: { kind: 'address', address: recipient } },
    { path: 'amount', value: { kind: 'tokenAmount', token: { address: to }, amount, isUnlimited: false } },
  ],
})
const rowsOf = (call: DecodedCall) => (call.kind === 'function' ? call.args : [])

describe('decodeCall', () => {
  it('returns an unknown selector raw, with the data length', () => {
    expect(decodeCall({ chainId: 1, call: { to: token, data: '0xdeadbeef00000000', value: 5n } }).call).toEqual({
      kind: 'unknown',
      to: token,
      value: 5n,
      selector: '0xdeadbeef',
      dataBytes: 8,
    })
  })

  it('tells a plain value transfer and a deployment from a call', () => {
    expect(decodeCall({ chainId: 1, call: { to: bob.toLowerCase() as Address, value: 7n } }).call).toEqual({ kind: 'nativeTransfer', to: bob, value: 7n })
    expect(decodeCall({ chainId: 1, call: { data: '0x6080604052', value: 0n } }).call).toEqual({ kind: 'deployment', value: 0n, dataBytes: 5 })
  })

  it('decodes an ERC-20 transfer with the amount as a token amount of the contract called', () => {
    expect(decodeCall({ chainId: 1, call: { to: token, data: transfer(bob, 1_000n) } })).toEqual({ call: transferOf(token, bob, 1_000n), approvals: [] })
  })

  it('flags an approval of maxUint256 as unlimited and reports it as an allowance of the token', () => {
    const { call, approvals } = decodeCall({ chainId: 1, call: { to: token, data: approve(bob, maxUint256) } })
    expect(rowsOf(call)[1]).toEqual({ path: 'amount', value: { kind: 'tokenAmount', token: { address: token }, amount: maxUint256, isUnlimited: true } })
    expect(approvals).toEqual([{ kind: 'allowance', via: 'erc20', token, spender: bob, amount: maxUint256, amountType: 'uint256' }])
  })

  it('reads approve as ERC-721 on a contract that says it is one', () => {
    const data = encodeFunctionData({ abi: erc721Abi, functionName: 'approve', args: [bob, 42n] })
    const asNft = decodeCall({ chainId: 1, call: { to: token, data }, standardOf: () => 'erc721' })
    expect(asNft.call).toMatchObject({ standard: 'erc721', args: [{ path: 'spender' }, { path: 'tokenId', value: { kind: 'number', value: 42n } }] })
    expect(asNft.approvals).toEqual([{ kind: 'nft', collection: token, spender: bob, tokenId: 42n }])
    expect(decodeCall({ chainId: 1, call: { to: token, data } }).call).toMatchObject({ standard: 'erc20' })
  })

  it('decodes both transfers inside a Multicall3 aggregate3, without counting their approvals as the account’s', () => {
    const data = encodeFunctionData({
      abi: multicall3Abi,
      functionName: 'aggregate3',
      args: [[
        { target: token, allowFailure: false, callData: transfer(bob, 1n) },
        { target: other, allowFailure: true, callData: transfer(alice, 2n) },
        { target: other, allowFailure: true, callData: approve(bob, maxUint256) },
      ]],
    })
    const { call, approvals } = decodeCall({ chainId: 1, call: { to: '0xcA11bde05977b3631167028862bE2a173976CA11', data } })
    expect(call).toMatchObject({ kind: 'function', standard: 'multicall3', functionName: 'aggregate3' })
    const inner = rowsOf(call).filter((row) => row.path.endsWith('callData'))
    expect(inner.map((row) => row.path)).toEqual(['calls.[0].callData', 'calls.[1].callData', 'calls.[2].callData'])
    expect(inner[0]!.value).toEqual({ kind: 'calls', calls: [transferOf(token, bob, 1n)] })
    expect(inner[1]!.value).toEqual({ kind: 'calls', calls: [transferOf(other, alice, 2n)] })
    expect(approvals).toEqual([])
  })

  it('decodes the calls of a user operation in handleOps, and the approvals an account makes count', () => {
    const account = alice
    const executeBatch = encodeFunctionData({
      abi: parseAbi(['function executeBatch((address target, uint256 value, bytes data)[] calls)']),
      args: [[{ target: token, value: 0n, data: approve(bob, 10n) }, { target: bob, value: parseEther('1'), data: '0x' }]],
    })
    const op = { sender: account, nonce: 0n, initCode: '0x', callData: executeBatch, accountGasLimits: `0x${'00'.repeat(32)}`, preVerificationGas: 0n, gasFees: `0x${'00'.repeat(32)}`, paymasterAndData: '0x', signature: '0x' } as const
    const data = encodeFunctionData({ abi: entryPoint08Abi, functionName: 'handleOps', args: [[op], bob] })
    const { call, approvals } = decodeCall({ chainId: 1, call: { to: '0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108', data } })
    const opCall = rowsOf(call).find((row) => row.path === 'ops.[0].callData')!.value
    expect(opCall).toMatchObject({ kind: 'calls', calls: [{ kind: 'function', to: account, standard: 'smartAccount', functionName: 'executeBatch' }] })
    const batch = opCall.kind === 'calls' ? rowsOf(opCall.calls[0]!) : []
    expect(batch.find((row) => row.path === 'calls.[1].value')!.value).toEqual({ kind: 'nativeAmount', amount: parseEther('1') })
    expect(batch.find((row) => row.path === 'calls.[0].data')!.value).toMatchObject({ kind: 'calls', calls: [{ functionName: 'approve', to: token }] })
    expect(batch.find((row) => row.path === 'calls.[1].data')!.value).toEqual({ kind: 'calls', calls: [{ kind: 'nativeTransfer', to: bob, value: parseEther('1') }] })
    expect(approvals).toEqual([{ kind: 'allowance', via: 'erc20', token, spender: bob, amount: 10n, amountType: 'uint256' }])
  })

  it('decodes an ERC-7579 execute in single and batch mode', () => {
    const abi = parseAbi(['function execute(bytes32 mode, bytes executionCalldata)'])
    const single = encodeFunctionData({ abi, args: [`0x${'00'.repeat(32)}`, encodePacked(['address', 'uint256', 'bytes'], [token, 0n, transfer(bob, 3n)])] })
    const batchData = encodeAbiParameters(parseAbi(['function f((address target, uint256 value, bytes callData)[] calls)'])[0].inputs, [[
      { target: token, value: 0n, callData: transfer(bob, 4n) },
      { target: other, value: 0n, callData: transfer(alice, 5n) },
    ]])
    const batch = encodeFunctionData({ abi, args: [`0x01${'00'.repeat(31)}`, batchData] })
    const innerOf = (data: `0x${string}`) => rowsOf(decodeCall({ chainId: 1, call: { to: alice, data } }).call).find((row) => row.path === 'executionCalldata')!.value
    expect(innerOf(single)).toEqual({ kind: 'calls', calls: [transferOf(token, bob, 3n)] })
    expect(innerOf(batch)).toEqual({ kind: 'calls', calls: [transferOf(token, bob, 4n), transferOf(other, alice, 5n)] })
  })

  it('shows a Uniswap V2 swap’s amounts as amounts of the path’s first and last tokens, its route as tokens, and its deadline as a date', () => {
    const data = encodeFunctionData({
      abi: parseAbi(['function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline)']),
      args: [100n, 90n, [token, alice, other], bob, 1_900_000_000n],
    })
    expect(rowsOf(decodeCall({ chainId: 1, call: { to: alice, data } }).call)).toEqual([
      { path: 'amountIn', value: { kind: 'tokenAmount', token: { address: token }, amount: 100n, isUnlimited: false } },
      { path: 'amountOutMin', value: { kind: 'tokenAmount', token: { address: other }, amount: 90n, isUnlimited: false } },
      { path: 'path.[0]', value: { kind: 'token', token: { address: token } } },
      { path: 'path.[1]', value: { kind: 'token', token: { address: alice } } },
      { path: 'path.[2]', value: { kind: 'token', token: { address: other } } },
      { path: 'to', value: { kind: 'address', address: bob } },
      { path: 'deadline', value: { kind: 'date', timestamp: 1_900_000_000n } },
    ])
  })
})

describe('ERC-7730 descriptors', () => {
  const descriptor = (overrides: Record<string, unknown> = {}) => ({
    $schema: 'https://eips.ethereum.org/assets/eip-7730/erc7730-v1.schema.json',
    context: { $id: 'Tessera Dollar', contract: { deployments: [{ chainId: 31337, address: token }] } },
    metadata: { owner: 'Tessera', constants: { max: '0x8000000000000000000000000000000000000000000000000000000000000000' } },
    display: {
      formats: {
        'transfer(address to,uint256 value)': {
          intent: 'Send',
          fields: [
            { path: '#.value', label: 'Amount', format: 'tokenAmount', params: { tokenPath: '@.to', threshold: '$.metadata.constants.max' } },
            { path: '#.to', label: 'Recipient', format: 'addressName', params: { types: ['eoa'], sources: ['local', 'ens'] } },
          ],
          required: ['#.to', '#.value'],
        },
        'approve(address,uint256)': {
          intent: 'Allow spending',
          fields: [{ path: 'spender', label: 'Spender', format: 'raw' }],
        },
      },
    },
    ...overrides,
  })

  it('labels a call of the contract it is bound to: intent as title, fields in its order with its labels', () => {
    const { call } = decodeCall({ chainId: 31337, call: { to: token, data: transfer(bob, 5n) }, descriptors: [parseErc7730Descriptor(descriptor())] })
    expect(call).toEqual({
      kind: 'function',
      to: token,
      value: 0n,
      standard: 'erc20',
      functionName: 'transfer',
      signature: 'transfer(address,uint256)',
      intent: 'Send',
      args: [
        { path: 'value', label: 'Amount', value: { kind: 'tokenAmount', token: { address: token }, amount: 5n, isUnlimited: false } },
        { path: 'to', label: 'Recipient', value: { kind: 'address', address: bob } },
      ],
    })
  })

  it('shows an addressName field whose types include token as a token, and others as addresses', () => {
    const asToken = descriptor({
      display: { formats: { 'transfer(address to,uint256 value)': { intent: 'Send', fields: [{ path: '#.to', label: 'Asset', format: 'addressName', params: { types: ['token'] } }] } } },
    })
    const { call } = decodeCall({ chainId: 31337, call: { to: token, data: transfer(other, 5n) }, descriptors: [parseErc7730Descriptor(asToken)] })
    expect(rowsOf(call)[0]).toEqual({ path: 'to', label: 'Asset', value: { kind: 'token', token: { address: other } } })
  })

  it('keeps arguments a descriptor leaves out, after its fields, and still reports the approval', () => {
    const { call, approvals } = decodeCall({ chainId: 31337, call: { to: token, data: approve(bob, maxUint256) }, descriptors: [parseErc7730Descriptor(descriptor())] })
    expect(call).toMatchObject({
      intent: 'Allow spending',
      args: [
        { path: 'spender', label: 'Spender', value: { kind: 'address', address: bob } },
        { path: 'amount', value: { kind: 'tokenAmount', amount: maxUint256, isUnlimited: true } },
      ],
    })
    expect(approvals).toHaveLength(1)
  })

  it('applies only on its chain and contract', () => {
    const descriptors = [parseErc7730Descriptor(descriptor())]
    expect(decodeCall({ chainId: 1, call: { to: token, data: transfer(bob, 5n) }, descriptors }).call).toEqual(transferOf(token, bob, 5n))
    expect(decodeCall({ chainId: 31337, call: { to: other, data: transfer(bob, 5n) }, descriptors }).call).toEqual(transferOf(other, bob, 5n))
  })

  it('decodes a function no bundled ABI knows from the descriptor’s signature', () => {
    const abi = parseAbi(['function stake(uint256 amount, uint256 until)'])
    const staking = descriptor({
      display: {
        formats: {
          'stake(uint256 amount,uint256 until)': {
            intent: 'Stake',
            fields: [
              { path: 'until', label: 'Locked until', format: 'date', params: { encoding: 'timestamp' } },
              { path: 'amount', label: 'Amount', format: 'tokenAmount', params: { token: other } },
            ],
          },
        },
      },
    })
    const { call } = decodeCall({ chainId: 31337, call: { to: token, data: encodeFunctionData({ abi, args: [9n, 1_800_000_000n] }) }, descriptors: [parseErc7730Descriptor(staking)] })
    expect(call).toMatchObject({
      functionName: 'stake',
      intent: 'Stake',
      args: [
        { path: 'until', label: 'Locked until', value: { kind: 'date', timestamp: 1_800_000_000n } },
        { path: 'amount', label: 'Amount', value: { kind: 'tokenAmount', token: { address: other }, amount: 9n } },
      ],
    })
    expect(call).not.toHaveProperty('standard')
  })

  const transferFields = (fields: unknown[]) => ({
    display: { formats: { 'transfer(address to,uint256 value)': { intent: 'Send', fields } } },
  })
  const formatsPath = 'display.formats.transfer(address to,uint256 value).fields.0'
  it.each([
    ['an unsupported format', transferFields([{ path: '#.value', label: 'Amount', format: 'amount' }]), `${formatsPath}.format`, 'Expected a format of tokenAmount, addressName, date or raw'],
    ['a token amount without its token', transferFields([{ path: '#.value', label: 'Amount', format: 'tokenAmount', params: {} }]), `${formatsPath}.params`, 'Expected exactly one of token and tokenPath'],
    ['a date by block height', transferFields([{ path: '#.value', label: 'When', format: 'date', params: { encoding: 'blockheight' } }]), `${formatsPath}.params.encoding`, 'Only timestamp dates'],
    ['a nested field group', transferFields([{ path: '#.value', label: 'Amount', format: 'raw', fields: [] }]), formatsPath, 'Not supported: fields'],
    ['a path outside the arguments', transferFields([{ path: '@.value', label: 'Value', format: 'raw' }]), `${formatsPath}.path`, 'Expected a path into the arguments'],
    ['a key that is no function signature', { display: { formats: { '0xa9059cbb': { intent: 'Send', fields: [] } } } }, 'display.formats.0xa9059cbb', 'Expected a function signature'],
    ['no deployment', { context: { contract: { deployments: [] } } }, 'context.contract.deployments', 'Expected a deployment'],
    ['an EIP-712 context', { context: { eip712: { deployments: [] } } }, 'context.contract', 'Expected a contract context (EIP-712 descriptors are not supported)'],
    ['includes', { includes: 'common.json' }, '(root)', 'Not supported: includes'],
  ])('refuses %s, naming the field', (_, overrides, field, message) => {
    const refused = (() => {
      try {
        parseErc7730Descriptor(descriptor(overrides))
      } catch (error) {
        return error as { code: string; field?: string; details?: string }
      }
    })()
    expect(refused).toMatchObject({ code: 'INVALID_MESSAGE', field })
    expect(refused!.details).toContain(`${field}: ${message}`)
  })
})
