import { createPublicClient, erc20Abi, http, parseAbiItem } from 'viem'
import type { Page } from '@playwright/test'
import { expect, test } from '../fixtures'
import type { StackManifest } from '../../services/stack/manifest'

async function openHarness(page: Page, stack: StackManifest) {
  await page.goto(stack.harness!.url)
  await expect(page.locator('#status')).toHaveText('ready')
}

test.describe('the core in a real worker', () => {
  test.beforeEach(async ({ page, stack }) => openHarness(page, stack))

  test('answers over comlink with values decoded in the worker', async ({ page, stack }) => {
    const chain = stack.chains[0]!
    const token = chain.tokens[0]!
    const owner = stack.devAccounts[0]!
    const result = await page.evaluate(
      async ({ chain, token, owner, abi }) => {
        const core = window.tessera.createCore({ chains: [{ chainId: chain.chainId, rpcUrls: [chain.rpcUrl] }] })
        const ping = await core.ping()
        const balance = await core.getBalance({ chainId: chain.chainId, address: owner, token: token.address })
        const [decimals] = await core.multicall({ chainId: chain.chainId, contracts: [{ address: token.address, abi, functionName: 'decimals' }] })
        return { isWorker: ping.isWorker, balance, balanceType: typeof balance, decimals }
      },
      { chain, token, owner, abi: erc20Abi },
    )
    const onChain = await createPublicClient({ transport: http(chain.rpcUrl) }).readContract({
      address: token.address, abi: erc20Abi, functionName: 'balanceOf', args: [owner],
    })
    expect(result).toEqual({ isWorker: true, balance: onChain, balanceType: 'bigint', decimals: { status: 'success', result: 6 } })
  })

  test('keeps queried logs in the worker, and reads slices of them decoded as getLogs gives them', async ({ page, stack }) => {
    const chain = stack.chains[0]!
    const result = await page.evaluate(
      async ({ chain, token, event }) => {
        const core = window.tessera.createCore({ chains: [{ chainId: chain.chainId, rpcUrls: [chain.rpcUrl] }] })
        const filter = { chainId: chain.chainId, address: token, abi: [event], eventName: 'Transfer', fromBlock: 0n }
        const all = await core.getLogs(filter)
        const set = await core.queryLogs(filter)
        const slice = await core.readLogs(set, { offset: 1, limit: 2 })
        const paged = []
        for await (const page of core.iterateLogs(set, { pageSize: 2 })) paged.push(...page)
        const released = await core.releaseLogs(set)
        const afterRelease = await core.readLogs(set).then(() => 'read', (e: Error & { code?: string }) => e.code)
        core.destroy()
        const text = (logs: unknown) => JSON.stringify(logs, (_, v: unknown) => (typeof v === 'bigint' ? `${v}n` : v))
        return {
          count: set.count,
          total: all.length,
          isSliceEqual: text(slice) === text(all.slice(1, 3)),
          valueType: typeof (slice[0]?.args as { value?: unknown } | undefined)?.value,
          pagedCount: paged.length,
          released,
          afterRelease,
        }
      },
      { chain, token: chain.tokens[0]!.address, event: parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)') },
    )
    expect(result.total).toBeGreaterThan(2)
    expect(result).toEqual({ count: result.total, total: result.total, isSliceEqual: true, valueType: 'bigint', pagedCount: result.total, released: true, afterRelease: 'RESOURCE_NOT_FOUND' })
  })

  test('keeps error codes across the worker boundary', async ({ page, stack }) => {
    const chain = stack.chains[0]!
    const error = await page.evaluate(async (chain) => {
      const core = window.tessera.createCore({ chains: [{ chainId: chain.chainId, rpcUrls: [chain.rpcUrl] }] })
      try {
        await core.request({ chainId: chain.chainId, method: 'eth_noSuchMethod' })
        return null
      } catch (e) {
        const error = e as Error & { code?: string; rpcCode?: number; shortMessage?: string; details?: string }
        return { name: error.name, code: error.code, rpcCode: error.rpcCode, shortMessage: error.shortMessage, details: error.details }
      }
    }, chain)
    expect(error).toEqual({
      name: 'RpcError',
      code: 'METHOD_NOT_FOUND',
      rpcCode: -32601,
      shortMessage: 'The method does not exist / is not available.',
      details: 'Method not found',
    })
  })

  test('mirrors the worker store: watched block numbers arrive on the main thread', async ({ page, stack }) => {
    const chain = stack.chains[0]!
    const seen = await page.evaluate(async (chain) => {
      const core = window.tessera.createCore({ chains: [{ chainId: chain.chainId, rpcUrls: [chain.rpcUrl] }], blockPollingIntervalMs: 200 })
      const blocks: string[] = []
      const unwatch = core.watchBlockNumber({ chainId: chain.chainId }, (n) => blocks.push(n.toString()))
      await new Promise((resolve) => setTimeout(resolve, 4_500))
      unwatch()
      return { blocks, mirrored: core.store.getState().blockNumbers[chain.chainId]?.toString() }
    }, chain)
    // anvil mines every 2 s: in 4.5 s the page saw at least two distinct, increasing block numbers.
    expect(seen.blocks.length).toBeGreaterThanOrEqual(2)
    expect(seen.blocks.map(BigInt)).toEqual([...seen.blocks.map(BigInt)].sort((a, b) => (a < b ? -1 : 1)))
    expect(new Set(seen.blocks).size).toBe(seen.blocks.length)
    expect(seen.mirrored).toBe(seen.blocks.at(-1))
  })

  test('times out a call the worker never answers', async ({ page }) => {
    const error = await page.evaluate(async () => {
      const silent = () => new Worker(URL.createObjectURL(new Blob([''], { type: 'text/javascript' })))
      const core = window.tessera.createCore({ chains: [], createWorker: silent, callTimeoutMs: 300 })
      return core.ping().then(() => null, (e: Error & { code?: string }) => ({ code: e.code, message: e.message }))
    })
    expect(error).toEqual({ code: 'CORE_TIMEOUT', message: 'The core did not answer in time\n\nDetails: no answer within 300 ms' })
  })

  test('rejects pending calls when the worker dies, then serves calls from a fresh worker', async ({ page, stack }) => {
    const chain = stack.chains[0]!
    const result = await page.evaluate(async (chain) => {
      const workers: Worker[] = []
      const core = window.tessera.createCore({
        chains: [{ chainId: chain.chainId, rpcUrls: [chain.rpcUrl] }],
        createWorker: () => {
          const worker = window.tessera.startWorker()
          workers.push(worker)
          return worker
        },
      })
      await core.ping()
      const receipt = core.waitForTransactionReceipt({ chainId: chain.chainId, hash: `0x${'1'.repeat(64)}` }).then(
        () => 'resolved',
        (e: Error & { code?: string }) => e.code,
      )
      workers[0]!.dispatchEvent(new ErrorEvent('error', { message: 'worker crashed' }))
      const pendingOutcome = await receipt
      const blockNumber = await core.getBlockNumber({ chainId: chain.chainId })
      return { pendingOutcome, workers: workers.length, restarts: core.getRestartCount(), blockNumber: blockNumber > 0n }
    }, chain)
    expect(result).toEqual({ pendingOutcome: 'CORE_WORKER_DIED', workers: 2, restarts: 1, blockNumber: true })
  })

  test("aborts a request that isn't a safe read, never a safe read", async ({ page, stack }) => {
    const chain = stack.chains[0]!
    const owner = stack.devAccounts[0]!
    const result = await page.evaluate(async ({ chain, owner }) => {
      const core = window.tessera.createCore({ chains: [{ chainId: chain.chainId, rpcUrls: [chain.rpcUrl] }] })
      const controller = new AbortController()
      const send = core.request({
        chainId: chain.chainId,
        method: 'eth_sendTransaction',
        params: [{ from: owner, to: owner, value: '0x1' }],
        signal: controller.signal,
      })
      const read = core.request({ chainId: chain.chainId, method: 'eth_chainId', signal: controller.signal })
      controller.abort()
      const sendOutcome = await send.then(() => 'sent', (e: Error & { code?: string }) => `${e.code}: ${e.message}`)
      return { sendOutcome, chainId: await read }
    }, { chain, owner })
    expect(result).toEqual({ sendOutcome: 'REQUEST_ABORTED: Request was aborted', chainId: `0x${chain.chainId.toString(16)}` })
  })

  test('a reload starts warm: balances come from the worker’s IndexedDB cache without a request', async ({ page, stack }) => {
    const chain = stack.chains[0]!
    const token = chain.tokens[1]!
    const owner = stack.devAccounts[2]!
    const read = (args: { chain: typeof chain; token: typeof token; owner: string }) =>
      page.evaluate(async ({ chain, token, owner }) => {
        const core = window.tessera.createCore({ chains: [{ chainId: chain.chainId, rpcUrls: [chain.rpcUrl] }] })
        const balance = await core.getBalance({ chainId: chain.chainId, address: owner as `0x${string}`, token: token.address })
        await new Promise((resolve) => setTimeout(resolve, 300))
        core.destroy()
        return balance.toString()
      }, args)
    let rpcRequests = 0
    page.on('request', (request) => {
      if (request.url().startsWith(chain.rpcUrl)) rpcRequests++
    })
    const first = await read({ chain, token, owner })
    expect(rpcRequests).toBeGreaterThan(0)
    await page.reload()
    await expect(page.locator('#status')).toHaveText('ready')
    rpcRequests = 0
    expect(await read({ chain, token, owner })).toBe(first)
    expect(rpcRequests).toBe(0)
  })

  test('two cores on one page share nothing', async ({ page, stack }) => {
    const [a, b] = stack.chains
    const workers: string[] = []
    page.on('worker', (w) => workers.push(w.url()))
    const result = await page.evaluate(async ({ a, b }) => {
      const coreA = window.tessera.createCore({ chains: [{ chainId: a.chainId, rpcUrls: [a.rpcUrl] }] })
      const coreB = window.tessera.createCore({ chains: [{ chainId: b.chainId, rpcUrls: [b.rpcUrl] }] })
      const stop = coreA.watchBlockNumber({ chainId: a.chainId }, () => {})
      await coreA.getBlockNumber({ chainId: a.chainId })
      const bOnA = await coreB.getBlockNumber({ chainId: a.chainId }).then(() => 'answered', (e: Error & { code?: string }) => e.code)
      stop()
      return {
        aBlocks: Object.keys(coreA.store.getState().blockNumbers),
        bBlocks: Object.keys(coreB.store.getState().blockNumbers),
        bOnA,
      }
    }, { a: a!, b: b! })
    expect(result).toEqual({
      aBlocks: [String(a!.chainId)],
      bBlocks: [],
      bOnA: 'NETWORK_NOT_FOUND',
    })
    expect(workers).toHaveLength(2)
  })
})

test('a page without React mounts the widget with widget.mount(element), and the modal opens', async ({ page, stack }) => {
  await page.goto(`${stack.harness!.url}/mount.html`)
  await page.locator('#wallet').getByRole('button', { name: 'Connect Wallet' }).click()
  await expect(page.getByRole('dialog', { name: 'Connect Wallet' })).toBeVisible()
  await expect(page.getByRole('dialog', { name: 'Connect Wallet' }).getByText('No wallet was found in this browser.')).toBeVisible()
  // destroy() takes down what mount() rendered, the modal included.
  await page.evaluate(() => (window as unknown as { widget: { destroy: () => void } }).widget.destroy())
  await expect(page.locator('#wallet').getByRole('button')).toHaveCount(0)
  await expect(page.getByRole('dialog')).toHaveCount(0)
})

test('a relay that does not answer is named on the QR view, which offers to try again', async ({ page, stack }) => {
  test.setTimeout(40_000)
  await page.goto(`${stack.harness!.url}/mount.html?relay=ws://127.0.0.1:9`)
  await page.locator('#wallet').getByRole('button', { name: 'Connect Wallet' }).click()
  await page.getByRole('dialog', { name: 'Connect Wallet' }).getByRole('button', { name: /^WalletConnect/ }).click()
  const dialog = page.getByRole('dialog', { name: 'WalletConnect' })
  await expect(dialog.getByRole('status')).toHaveText('Preparing a QR code…')
  await expect(dialog.getByRole('alert')).toHaveText('Could not reach the WalletConnect relay', { timeout: 20_000 })
  await dialog.getByRole('button', { name: 'Try again' }).click()
  await expect(dialog.getByRole('status')).toHaveText('Preparing a QR code…')
})
