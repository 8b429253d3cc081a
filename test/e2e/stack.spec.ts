import { createPublicClient, erc20Abi, formatUnits, http } from 'viem'
import { expect, test } from '../fixtures'

test('the demo page reads the real chain through the worker core', async ({ page, stack }) => {
  const chain = stack.chains[0]!
  const token = chain.tokens[0]!
  const owner = stack.devAccounts[0]!
  const rpcBodies: string[] = []
  page.on('request', (request) => {
    if (request.url().startsWith(chain.rpcUrl)) rpcBodies.push(request.postData() ?? '')
  })

  await page.goto(stack.demo!.url)

  await expect(page.getByLabel('Core worker')).toHaveText('ready')

  // The block number shown is anvil's, and it moves on with anvil's 2 s block time.
  const node = createPublicClient({ transport: http(chain.rpcUrl) })
  await expect(page.getByLabel('Block number')).toHaveText(/^\d+$/)
  const firstShown = BigInt((await page.getByLabel('Block number').textContent())!)
  expect(firstShown).toBeGreaterThan(0n)
  expect(firstShown).toBeLessThanOrEqual(await node.getBlockNumber())
  await expect
    .poll(async () => BigInt((await page.getByLabel('Block number').textContent())!), { timeout: 8_000 })
    .toBeGreaterThan(firstShown)

  // The balance shown is the one on chain.
  const onChain = await node.readContract({ address: token.address, abi: erc20Abi, functionName: 'balanceOf', args: [owner] })
  expect(onChain).toBeGreaterThan(0n)
  await expect(page.getByLabel('Account')).toHaveText(owner)
  await expect(page.getByLabel('Token balance')).toHaveText(`${formatUnits(onChain, token.decimals)} ${token.symbol}`)

  // ... and it came from one Multicall3 call (symbol, decimals and balanceOf together), sent from the worker.
  const multicalls = rpcBodies.filter((body) => body.toLowerCase().includes(chain.multicall3.toLowerCase()))
  expect(multicalls).toHaveLength(1)
  const directTokenCalls = rpcBodies.filter((body) => body.toLowerCase().includes(`"to":"${token.address.toLowerCase()}"`))
  expect(directTokenCalls).toEqual([])
})

test('the core runs in a dedicated worker, not on the page', async ({ page, stack }) => {
  const workers: string[] = []
  page.on('worker', (worker) => workers.push(worker.url()))
  await page.goto(stack.demo!.url)
  await expect(page.getByLabel('Core worker')).toHaveText('ready')
  expect(workers).toHaveLength(1)
  expect(workers[0]).toMatch(/worker/)
})
