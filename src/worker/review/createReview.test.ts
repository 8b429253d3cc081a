import {
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  erc20Abi,
  http,
  maxUint160,
  maxUint256,
  multicall3Abi,
  parseAbi,
  parseEther,
  parseUnits,
  type Address,
} from 'viem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAnvil, type Anvil } from '../../../services/chain/anvil'
import { seedChain, type SeededChain } from '../../../services/chain/seedChain'
import { freePorts } from '../../../services/stack/ports'
import { createEip155Client } from '../families/eip155/eip155'
import { rpcError, startFaultServer, type FaultHandler, type FaultServer } from '../rpc-transport/faultServer'
import { reviewCalls, reviewTransaction, reviewTypedData, reviewTypedDataOnChain } from './createReview'

const transfer = (to: Address, amount: bigint) => encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] })
const approve = (spender: Address, amount: bigint) => encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [spender, amount] })
// Not 31337: should a concurrent test run's anvil hold the same port, this file's anvil fails to start rather than the
// two runs sharing one chain.
const CHAIN_ID = 36_036
const routerAbi = parseAbi(['function swapExactETHForTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline) payable'])

describe('reviewing transactions on anvil', () => {
  let anvil: Anvil
  let seeded: SeededChain
  let faultServer: FaultServer
  beforeAll(async () => {
    anvil = await startAnvil({ port: (await freePorts()).anvil, chainId: CHAIN_ID })
    seeded = await seedChain({ rpcUrl: anvil.rpcUrl })
  })
  afterAll(async () => {
    await faultServer?.close()
    await anvil.stop()
  })
  const clientOf = (url = anvil.rpcUrl) => createEip155Client({ chainId: CHAIN_ID, rpcUrls: [url], rank: false })
  const review = (request: Parameters<typeof reviewTransaction>[0]['request'], descriptors?: unknown[]) =>
    reviewTransaction({ client: clientOf(), chainId: CHAIN_ID, request, descriptors })
  const tusd = () => ({ address: seeded.tokens[0]!.address, symbol: 'TUSD', decimals: 6 })
  const tsr = () => ({ address: seeded.tokens[1]!.address, symbol: 'TSR', decimals: 18 })
  const chain = () => createPublicClient({ transport: http(anvil.rpcUrl) })
  const tokenBalance = (token: Address, owner: Address) => chain().readContract({ address: token, abi: erc20Abi, functionName: 'balanceOf', args: [owner] })

  it('decodes an unlimited ERC-20 approval to token and spender, warns of it, and simulates no balance change', async () => {
    const [from] = seeded.devAccounts
    const spender = seeded.uniswapV2.router
    const result = await review({ from: from!, to: tusd().address, data: approve(spender, maxUint256) })
    expect(result).toMatchObject({ kind: 'transaction', network: `eip155:${CHAIN_ID}`, from, nativeCurrency: { symbol: 'ETH', decimals: 18 } })
    expect(result.call).toEqual({
      kind: 'function',
      to: tusd().address,
      value: 0n,
      standard: 'erc20',
      functionName: 'approve',
      signature: 'approve(address,uint256)',
      args: [
        { path: 'spender', value: { kind: 'address', address: spender } },
        { path: 'amount', value: { kind: 'tokenAmount', token: tusd(), amount: maxUint256, isUnlimited: true } },
      ],
    })
    expect(result.warnings).toEqual([{ kind: 'unlimitedApproval', via: 'erc20', token: tusd(), spender, amount: maxUint256 }])
    expect(result.balanceChanges).toEqual([])
    expect(result.fee!.gas).toBeGreaterThan(21_000n)
    expect(result.fee!.amount).toBe(result.fee!.gas * result.fee!.gasPrice)
  })

  it.each([
    ['2^255', 2n ** 255n, 'unlimitedApproval'],
    ['2^255 − 1', 2n ** 255n - 1n, 'approval'],
    ['1,000 TUSD', parseUnits('1000', 6), 'approval'],
  ])('calls an approval of %s %s', async (_, amount, kind) => {
    const spender = seeded.devAccounts[9]!
    const result = await review({ from: seeded.devAccounts[0]!, to: tusd().address, data: approve(spender, amount) })
    expect(result.warnings).toEqual([{ kind, via: 'erc20', token: tusd(), spender, amount }])
  })

  it('warns of no approval when one is revoked (approve 0)', async () => {
    const result = await review({ from: seeded.devAccounts[0]!, to: tusd().address, data: approve(seeded.devAccounts[9]!, 0n) })
    expect(result.warnings).toEqual([])
  })

  it('shows an ERC-20 transfer as −amount of the token, symbol and decimals read from the chain, and sends nothing', async () => {
    const [, from, to] = seeded.devAccounts
    const before = await tokenBalance(tusd().address, from!)
    const result = await review({ from: from!, to: tusd().address, data: transfer(to!, parseUnits('12.5', 6)) })
    expect(result.balanceChanges).toEqual([{ asset: { kind: 'erc20', ...tusd() }, amount: -parseUnits('12.5', 6) }])
    expect(result.warnings).toEqual([])
    expect(await tokenBalance(tusd().address, from!)).toBe(before)
  })

  it('shows a native transfer as −value, and its fee as 21,000 gas at the node’s price', async () => {
    const [, from, to] = seeded.devAccounts
    const result = await review({ from: from!, to: to!, value: parseEther('1.5') })
    expect(result.call).toEqual({ kind: 'nativeTransfer', to, value: parseEther('1.5') })
    expect(result.balanceChanges).toEqual([{ asset: { kind: 'native' }, amount: -parseEther('1.5') }])
    const gasPrice = await chain().getGasPrice()
    expect(result.fee).toEqual({ gas: 21_000n, gasPrice, amount: 21_000n * gasPrice })
  })

  it('shows a Uniswap V2 swap’s route as tokens named by the chain, and its two balance changes, equal to what the chain does when it is sent', async () => {
    const trader = seeded.devAccounts[5]!
    const request = {
      from: trader,
      to: seeded.uniswapV2.router,
      data: encodeFunctionData({ abi: routerAbi, args: [1n, [seeded.uniswapV2.weth, tusd().address], trader, BigInt(Math.floor(Date.now() / 1_000) + 600)] }),
      value: parseEther('0.1'),
    }
    const result = await review(request)
    expect(result.call).toMatchObject({
      standard: 'uniswapV2Router',
      functionName: 'swapExactETHForTokens',
      args: [{ path: 'amountOutMin', value: { kind: 'tokenAmount', token: tusd(), amount: 1n } }, { path: 'path.[0]', value: { kind: 'token', token: { address: seeded.uniswapV2.weth, symbol: 'WETH', decimals: 18 } } },
        { path: 'path.[1]', value: { kind: 'token', token: tusd() } },
        { path: 'to', value: { kind: 'address', address: trader } },
        { path: 'deadline', value: { kind: 'date' } },
      ],
    })
    const [native, received] = result.balanceChanges!
    expect(native).toEqual({ asset: { kind: 'native' }, amount: -parseEther('0.1') })
    expect(received).toMatchObject({ asset: { kind: 'erc20', ...tusd() } })
    expect(received!.amount).toBeGreaterThan(parseUnits('290', 6))

    const [ethBefore, tusdBefore] = [await chain().getBalance({ address: trader }), await tokenBalance(tusd().address, trader)]
    // A gas limit of its own: an estimate made within the pool's last second misses the price accumulators' update,
    // which the mined block (a second later) pays for.
    const hash = await createWalletClient({ account: trader, transport: http(anvil.rpcUrl) }).sendTransaction({ chain: null, ...request, gas: 300_000n })
    const receipt = await chain().waitForTransactionReceipt({ hash })
    expect(receipt.status).toBe('success')
    expect((await tokenBalance(tusd().address, trader)) - tusdBefore).toBe(received!.amount)
    // The fee is shown apart from the balance changes.
    expect((await chain().getBalance({ address: trader })) - ethBefore + receipt.gasUsed * receipt.effectiveGasPrice).toBe(native!.amount)
  })

  it('says a transfer of more than the balance would revert, with the token’s reason', async () => {
    const [, from, to] = seeded.devAccounts
    const result = await review({ from: from!, to: tusd().address, data: transfer(to!, parseUnits('2000000', 6)) })
    expect(result.warnings).toEqual([{ kind: 'wouldRevert', callIndex: 0, reason: { kind: 'error', message: 'DemoToken: transfer amount exceeds balance' } }])
    expect(result.balanceChanges).toEqual([])
  })

  it('decodes both transfers of a Multicall3 aggregate3, their tokens read from the chain', async () => {
    const [to] = seeded.devAccounts
    const data = encodeFunctionData({
      abi: multicall3Abi,
      functionName: 'aggregate3',
      args: [[{ target: tusd().address, allowFailure: true, callData: transfer(to!, 5n) }, { target: tsr().address, allowFailure: true, callData: transfer(to!, 7n) }]],
    })
    const result = await review({ from: seeded.devAccounts[3]!, to: seeded.multicall3, data })
    const inner = result.call.kind === 'function' ? result.call.args.filter((row) => row.path.endsWith('callData')).map((row) => row.value) : []
    expect(inner).toMatchObject([
      { kind: 'calls', calls: [{ functionName: 'transfer', to: tusd().address, args: [{ value: { address: to } }, { value: { kind: 'tokenAmount', token: tusd(), amount: 5n } }] }] },
      { kind: 'calls', calls: [{ functionName: 'transfer', to: tsr().address, args: [{ value: { address: to } }, { value: { kind: 'tokenAmount', token: tsr(), amount: 7n } }] }] },
    ])
  })

  it('labels a call by the site’s ERC-7730 descriptor, and refuses an invalid one naming the bad field', async () => {
    const descriptor = {
      context: { contract: { deployments: [{ chainId: CHAIN_ID, address: tusd().address }] } },
      display: {
        formats: {
          'transfer(address to,uint256 value)': {
            intent: 'Pay',
            fields: [
              { path: '#.value', label: 'Amount', format: 'tokenAmount', params: { tokenPath: '@.to' } },
              { path: '#.to', label: 'Payee', format: 'addressName' },
            ],
          },
        },
      },
    }
    const [, from, to] = seeded.devAccounts
    const request = { from: from!, to: tusd().address, data: transfer(to!, 3n) }
    expect((await review(request, [descriptor])).call).toMatchObject({
      intent: 'Pay',
      args: [
        { path: 'value', label: 'Amount', value: { kind: 'tokenAmount', token: tusd(), amount: 3n } },
        { path: 'to', label: 'Payee', value: { kind: 'address', address: to } },
      ],
    })
    const invalid = structuredClone(descriptor)
    invalid.display.formats['transfer(address to,uint256 value)'].fields[1]!.format = 'nftName'
    await expect(review(request, [invalid])).rejects.toMatchObject({ code: 'INVALID_MESSAGE', field: 'display.formats.transfer(address to,uint256 value).fields.1.format' })
  })

  it('simulates a wallet_sendCalls batch as one, in order: a call that only fails after the one before is named', async () => {
    const [, , from, to] = seeded.devAccounts
    const all = await tokenBalance(tusd().address, from!)
    const result = await reviewCalls({
      client: clientOf(),
      chainId: CHAIN_ID,
      from: from!,
      calls: [
        { to: tusd().address, data: transfer(to!, all) },
        { to: tusd().address, data: transfer(to!, 1n) },
        { to: to!, value: 5n },
      ],
    })
    expect(result.kind).toBe('calls')
    expect(result.calls.map((call) => (call.kind === 'function' ? call.functionName : call.kind))).toEqual(['transfer', 'transfer', 'nativeTransfer'])
    expect(result.warnings).toEqual([{ kind: 'wouldRevert', callIndex: 1, reason: { kind: 'error', message: 'DemoToken: transfer amount exceeds balance' } }])
    expect(result.balanceChanges).toEqual([
      { asset: { kind: 'erc20', ...tusd() }, amount: -all },
      { asset: { kind: 'native' }, amount: -5n },
    ])
  })

  it('does not simulate a deployment, and says so', async () => {
    const result = await review({ from: seeded.devAccounts[0]!, data: '0x6080604052' })
    expect(result.call).toEqual({ kind: 'deployment', value: 0n, dataBytes: 5 })
    expect(result.warnings).toEqual([{ kind: 'notSimulated', why: 'deployment' }])
    expect(result).not.toHaveProperty('balanceChanges')
  })

  /** anvil behind a proxy that has no eth_simulateV1. */
  const withoutSimulate: FaultHandler = async (body, res) => {
    const answer = async (request: { id: number; method: string }) =>
      request.method === 'eth_simulateV1'
        ? { jsonrpc: '2.0', id: request.id, error: { code: -32601, message: 'the method eth_simulateV1 does not exist/is not available' } }
        : (await fetch(anvil.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(request) })).json()
    const replies = await Promise.all((Array.isArray(body) ? body : [body]).map(answer))
    res.setHeader('content-type', 'application/json')
    res.end(JSON.stringify(Array.isArray(body) ? replies : replies[0]))
  }

  it('on a node without eth_simulateV1, says what it could not check and still decodes', async () => {
    faultServer = await startFaultServer(withoutSimulate)
    const [, from, to] = seeded.devAccounts
    const request = { from: from!, to: tusd().address, data: transfer(to!, 1n) }
    const result = await reviewTransaction({ client: clientOf(faultServer.url), chainId: CHAIN_ID, request })
    expect(result.warnings).toEqual([{ kind: 'notSimulated', why: 'unsupported', errorCode: 'METHOD_NOT_FOUND' }])
    expect(result).not.toHaveProperty('balanceChanges')
    expect(result).not.toHaveProperty('fee')
    expect(result.call).toMatchObject({ functionName: 'transfer', args: [{}, { value: { token: tusd(), amount: 1n } }] })
    expect(faultServer.calls().filter((call) => call.method === 'eth_simulateV1')).toHaveLength(1)

    const withGas = await reviewTransaction({ client: clientOf(faultServer.url), chainId: CHAIN_ID, request: { ...request, gas: 60_000n, gasPrice: 2n } })
    expect(withGas.fee).toEqual({ gas: 60_000n, gasPrice: 2n, amount: 120_000n })
  })

  it('on a node that fails every request, still decodes the call and says the simulation failed', async () => {
    faultServer.setHandlers(rpcError(-32603, 'internal error'))
    const [, from, to] = seeded.devAccounts
    const result = await reviewTransaction({ client: clientOf(faultServer.url), chainId: CHAIN_ID, request: { from: from!, to: tusd().address, data: transfer(to!, 1n) } })
    expect(result.warnings).toEqual([{ kind: 'notSimulated', why: 'failed', errorCode: 'INTERNAL_ERROR' }])
    expect(result.call).toMatchObject({ functionName: 'transfer', args: [{}, { value: { token: { address: tusd().address }, amount: 1n } }] })
  })

  it('names the tokens of typed data from its chain (a Permit2 permit: symbol and decimals in the row and the warning); a node that does not answer leaves addresses', async () => {
    const permit2: Address = '0x000000000022D473030F116dDEE9F6B43aC78BA3'
    const [, spender] = seeded.devAccounts
    const typedData = {
      domain: { name: 'Permit2', chainId: CHAIN_ID, verifyingContract: permit2 },
      types: {
        PermitSingle: [{ name: 'details', type: 'PermitDetails' }, { name: 'spender', type: 'address' }, { name: 'sigDeadline', type: 'uint256' }],
        PermitDetails: [{ name: 'token', type: 'address' }, { name: 'amount', type: 'uint160' }, { name: 'expiration', type: 'uint48' }, { name: 'nonce', type: 'uint48' }],
      },
      primaryType: 'PermitSingle',
      message: { details: { token: tusd().address, amount: '2500000', expiration: '1900000000', nonce: '0' }, spender: spender!, sigDeadline: '1800000000' },
    }
    const review = await reviewTypedDataOnChain({ typedData, chainId: CHAIN_ID, client: clientOf() })
    expect(review.message[1]).toEqual({ path: 'details.amount', value: { kind: 'tokenAmount', token: tusd(), amount: 2_500_000n, isUnlimited: false } })
    expect(review.warnings).toEqual([expect.objectContaining({ kind: 'approval', token: tusd(), amount: 2_500_000n })])

    faultServer.setHandlers(rpcError(-32603, 'internal error'))
    const unread = await reviewTypedDataOnChain({ typedData, client: clientOf(faultServer.url) })
    expect(unread.message[1]?.value).toMatchObject({ token: { address: tusd().address } })
    expect(unread.message[1]?.value).not.toHaveProperty('token.symbol')
  })
})

describe('reviewTypedData', () => {
  const permit2: Address = '0x000000000022D473030F116dDEE9F6B43aC78BA3'
  const token: Address = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
  const other: Address = '0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512'
  const spender: Address = '0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC'
  const owner: Address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
  /** An EIP-712 struct from Solidity-like fields: struct('address owner', …). */
  const struct = (...fields: string[]) => fields.map((field) => ({ type: field.split(' ')[0]!, name: field.split(' ')[1]! }))
  const permitDetails = struct('address token', 'uint160 amount', 'uint48 expiration', 'uint48 nonce')
  const permitSingle = (amount: bigint | string) => ({
    domain: { name: 'Permit2', chainId: 31337, verifyingContract: permit2 },
    types: {
      EIP712Domain: struct('string name', 'uint256 chainId', 'address verifyingContract'),
      PermitSingle: struct('PermitDetails details', 'address spender', 'uint256 sigDeadline'),
      PermitDetails: permitDetails,
    },
    primaryType: 'PermitSingle',
    message: { details: { token, amount: String(amount), expiration: '1900000000', nonce: '0' }, spender, sigDeadline: '1800000000' },
  })

  it('lays a Permit2 PermitSingle out field by field, with its domain, and calls it out as an approval', () => {
    expect(reviewTypedData({ typedData: permitSingle(1_000_000n), chainId: 31337 })).toEqual({
      kind: 'typedData',
      network: 'eip155:31337',
      primaryType: 'PermitSingle',
      domain: { name: 'Permit2', chainId: 31337, verifyingContract: permit2 },
      message: [
        { path: 'details.token', value: { kind: 'address', address: token } },
        { path: 'details.amount', value: { kind: 'tokenAmount', token: { address: token }, amount: 1_000_000n, isUnlimited: false } },
        { path: 'details.expiration', value: { kind: 'date', timestamp: 1_900_000_000n } },
        { path: 'details.nonce', value: { kind: 'number', value: 0n } },
        { path: 'spender', value: { kind: 'address', address: spender } },
        { path: 'sigDeadline', value: { kind: 'date', timestamp: 1_800_000_000n } },
      ],
      warnings: [{ kind: 'approval', via: 'permit2', token: { address: token }, spender, amount: 1_000_000n, expiration: 1_900_000_000n, deadline: 1_800_000_000n }],
    })
  })

  it('flags a PermitSingle of the largest uint160 as unlimited, from the JSON eth_signTypedData_v4 carries', () => {
    const review = reviewTypedData({ typedData: JSON.stringify(permitSingle(maxUint160)) })
    expect(review.warnings).toEqual([{ kind: 'unlimitedApproval', via: 'permit2', token: { address: token }, spender, amount: maxUint160, expiration: 1_900_000_000n, deadline: 1_800_000_000n }])
    expect(review.message[1]).toEqual({ path: 'details.amount', value: { kind: 'tokenAmount', token: { address: token }, amount: maxUint160, isUnlimited: true } })
  })

  it('calls out each token of a PermitBatch', () => {
    const batch = {
      ...permitSingle(0n),
      types: { PermitBatch: struct('PermitDetails[] details', 'address spender', 'uint256 sigDeadline'), PermitDetails: permitDetails },
      primaryType: 'PermitBatch',
      message: { details: [{ token, amount: 5, expiration: 0, nonce: 0 }, { token: other, amount: maxUint160.toString(), expiration: 0, nonce: 1 }], spender, sigDeadline: 9 },
    }
    const review = reviewTypedData({ typedData: batch })
    expect(review.warnings.map((w) => [w.kind, 'token' in w && w.token.address])).toEqual([['approval', token], ['unlimitedApproval', other]])
    expect(review.message.filter((row) => row.path.endsWith('amount'))).toEqual([
      { path: 'details.[0].amount', value: { kind: 'tokenAmount', token: { address: token }, amount: 5n, isUnlimited: false } },
      { path: 'details.[1].amount', value: { kind: 'tokenAmount', token: { address: other }, amount: maxUint160, isUnlimited: true } },
    ])
  })

  it('flags an EIP-2612 Permit of maxUint256 as unlimited, the token being the verifying contract', () => {
    const review = reviewTypedData({
      typedData: {
        domain: { name: 'Tessera Dollar', version: '1', chainId: 31337, verifyingContract: token },
        types: { Permit: struct('address owner', 'address spender', 'uint256 value', 'uint256 nonce', 'uint256 deadline') },
        primaryType: 'Permit',
        message: { owner, spender, value: maxUint256.toString(), nonce: 0, deadline: 1_800_000_000 },
      },
    })
    expect(review.domain).toEqual({ name: 'Tessera Dollar', version: '1', chainId: 31337, verifyingContract: token })
    expect(review.warnings).toEqual([{ kind: 'unlimitedApproval', via: 'eip2612', token: { address: token }, spender, amount: maxUint256, deadline: 1_800_000_000n }])
    expect(review.message[2]).toEqual({ path: 'value', value: { kind: 'tokenAmount', token: { address: token }, amount: maxUint256, isUnlimited: true } })
  })

  it('flattens nested structs to labelled rows, and calls out typed data for another chain', () => {
    const review = reviewTypedData({
      chainId: 1,
      typedData: {
        domain: { name: 'Ether Mail', version: '1', chainId: '31337' },
        types: { Person: struct('string name', 'address[] wallets'), Mail: struct('Person from', 'Person[] to', 'string contents') },
        primaryType: 'Mail',
        message: { from: { name: 'Cow', wallets: [owner] }, to: [{ name: 'Bob', wallets: [spender, other] }], contents: 'Hello, Bob!' },
      },
    })
    expect(review.network).toBe('eip155:31337')
    expect(review.message).toEqual([
      { path: 'from.name', value: { kind: 'text', value: 'Cow' } },
      { path: 'from.wallets.[0]', value: { kind: 'address', address: owner } },
      { path: 'to.[0].name', value: { kind: 'text', value: 'Bob' } },
      { path: 'to.[0].wallets.[0]', value: { kind: 'address', address: spender } },
      { path: 'to.[0].wallets.[1]', value: { kind: 'address', address: other } },
      { path: 'contents', value: { kind: 'text', value: 'Hello, Bob!' } },
    ])
    expect(review.warnings).toEqual([{ kind: 'chainMismatch', chainId: 1, domainChainId: 31337 }])
  })

  it.each([
    ['a primary type it does not define', { ...permitSingle(1n), primaryType: 'Permit' }, 'primaryType'],
    ['a message that is no object', { ...permitSingle(1n), message: 'hello' }, 'message'],
    ['a verifying contract that is no address', { ...permitSingle(1n), domain: { verifyingContract: '0x1234' } }, 'domain.verifyingContract'],
    ['a chain id that is no number', { ...permitSingle(1n), domain: { chainId: 'mainnet' } }, 'domain.chainId'],
    ['text that is no JSON', '{"primaryType":', undefined],
  ])('refuses typed data with %s, naming the field', (_, typedData, field) => {
    expect(() => reviewTypedData({ typedData: typedData as never })).toThrow(expect.objectContaining({ code: 'INVALID_MESSAGE', field }) as Error)
  })
})
