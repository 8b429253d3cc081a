// `npm run bench:review`: the time from `core.reviewTransaction(...)` to its answer in Chromium, through the real core
// worker, against the local anvil: an ERC-20 transfer, an unlimited approval and a Uniswap V2 swap through the router;
// then the same requests as a site makes them (the widget's EIP-1193 provider) until the review is on screen.
// Each kind gets a warm-up review, then RUNS timed ones. Prints JSON (p50/p95/max in ms, the page's long tasks) and the
// goal of issue #36 (a review within 300 ms); exits 1 if it is missed.
import { fileURLToPath } from 'node:url'
import { chromium } from '@playwright/test'
import { encodeFunctionData, erc20Abi, maxUint256, parseAbi, parseEther, parseUnits, toHex, type Address, type Hex } from 'viem'
import { startAnvil } from '../../services/chain/anvil'
import { seedChain } from '../../services/chain/seedChain'
import { freePorts } from '../../services/stack/ports'
import { serveViteApp } from '../../services/stack/startStack'
import type { StackManifest } from '../../services/stack/manifest'
import { chromiumArgs, chromiumPath } from '../../playwright.config'

const RUNS = Number(process.env.BENCH_RUNS ?? 20)
const GOAL_MS = 300
const CHAIN_ID = 31_337
const routerAbi = parseAbi(['function swapExactETHForTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline) payable'])

/** A transaction to review, its value as hex: page.evaluate carries JSON. */
type Scenario = { name: string; request: { from: Address; to: Address; data: Hex; value?: Hex } }
/** What the page measured of one kind, and what its last review said (to check it reviewed what it should). */
type Measured = { name: string; warmUpMs: number; durationsMs: number[]; warnings: string[]; balanceChanges: number }

/** The nearest-rank percentile. @example percentile([1, 2, 3, 4], 50) // 2 */
const percentile = (values: readonly number[], p: number) => [...values].sort((a, b) => a - b)[Math.max(0, Math.ceil((p / 100) * values.length) - 1)]!
const round = (ms: number) => Math.round(ms * 10) / 10

async function main() {
  const ports = await freePorts()
  const anvil = await startAnvil({ port: ports.anvil, chainId: CHAIN_ID })
  const stops: (() => Promise<void>)[] = [anvil.stop]
  try {
    const seeded = await seedChain({ rpcUrl: anvil.rpcUrl })
    const [owner, recipient, trader] = [seeded.devAccounts[1]!, seeded.devAccounts[2]!, seeded.devAccounts[5]!]
    const tusd = seeded.tokens[0]!.address
    const { router, weth } = seeded.uniswapV2
    const scenarios: Scenario[] = [
      { name: 'erc20Transfer', request: { from: owner, to: tusd, data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [recipient, parseUnits('12.5', 6)] }) } },
      { name: 'unlimitedApproval', request: { from: owner, to: tusd, data: encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [router, maxUint256] }) } },
      {
        name: 'uniswapV2Swap',
        request: {
          from: trader,
          to: router,
          data: encodeFunctionData({ abi: routerAbi, args: [1n, [weth, tusd], trader, BigInt(Math.floor(Date.now() / 1_000) + 3_600)] }),
          value: toHex(parseEther('0.1')),
        },
      },
    ]

    const manifest: StackManifest = { version: 1, chains: [], devAccounts: [], services: { api: '', projectId: '', relay: '' }, demo: null }
    const root = fileURLToPath(new URL('../../test/harness', import.meta.url))
    stops.push(await serveViteApp({ root, mode: 'preview', host: '127.0.0.1', port: ports.demo, manifest }))
    const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs })
    stops.push(() => browser.close())
    const page = await browser.newPage()
    await page.goto(`http://127.0.0.1:${ports.demo}/`)
    await page.locator('#status').getByText('ready').waitFor()

    const measured = await page.evaluate(
      async ({ chain, scenarios, runs }) => {
        const longTasks: number[] = []
        const observer = new PerformanceObserver((list) => list.getEntries().forEach((entry) => longTasks.push(entry.duration)))
        observer.observe({ type: 'longtask' })
        const core = window.tessera.createCore({ chains: [chain] })
        const caipNetworkId = `eip155:${chain.chainId}`
        // No named functions in here: tsx's names for them (__name) do not exist in the page.
        const requests = scenarios.map(({ request: { value, ...request } }) => ({ ...request, ...(value !== undefined && { value: BigInt(value) }) }))
        // The worker's start, then the first review alone: it loads the review engine's module.
        await core.ping()
        let started = performance.now()
        await core.reviewTransaction({ caipNetworkId, request: requests[0]! })
        const firstReviewMs = performance.now() - started
        const kinds: Measured[] = []
        for (const [k, request] of requests.entries()) {
          // The first is the warm-up.
          const durationsMs: number[] = []
          let review: Awaited<ReturnType<typeof core.reviewTransaction>> | undefined
          for (let i = 0; i <= runs; i++) {
            started = performance.now()
            review = await core.reviewTransaction({ caipNetworkId, request })
            durationsMs.push(performance.now() - started)
          }
          const warmUpMs = durationsMs.shift()!
          kinds.push({ name: scenarios[k]!.name, warmUpMs, durationsMs, warnings: review!.warnings.map((w) => w.kind), balanceChanges: review!.balanceChanges?.length ?? -1 })
        }
        longTasks.push(...observer.takeRecords().map((entry) => entry.duration))
        observer.disconnect()
        core.destroy()
        return { firstReviewMs, kinds, longTasks }
      },
      { chain: { chainId: CHAIN_ID, rpcUrls: [anvil.rpcUrl], multicall3: seeded.multicall3 }, scenarios, runs: RUNS },
    )

    // The visitor's view of it: from a site's eth_sendTransaction through the widget's provider until the review is on
    // screen with its Continue button enabled (the view's chunk, the worker's review, React's commit), each then rejected.
    const reviewPage = async () => {
      const uiPage = await browser.newPage()
      await uiPage.goto(`http://127.0.0.1:${ports.demo}/review.html?${new URLSearchParams({ rpc: anvil.rpcUrl, chainId: String(CHAIN_ID), account: owner })}`)
      await uiPage.waitForFunction(() => 'reviewBench' in window)
      return uiPage
    }
    // A string, not a function: nothing of tsx's output (its __name helper) reaches the page. `idleMs`: how long the
    // visitor stays connected before the site's first request (the widget loads the review's code once idle).
    const pageCode = (runs: number, idleMs: number) => `(async () => {
      const { widget, provider } = window.reviewBench
      const scenarios = ${JSON.stringify(scenarios)}
      const runs = ${runs}
      await widget.whenStarted()
      await widget.ready()
      await widget.connect('bench.review.wallet')
      await new Promise((resolve) => setTimeout(resolve, ${idleMs}))
      const longTasks = []
      const observer = new PerformanceObserver((list) => list.getEntries().forEach((entry) => longTasks.push(entry.duration)))
      observer.observe({ type: 'longtask' })
      const continueButton = () => {
        for (const host of document.querySelectorAll('[data-tessera]')) {
          const button = [...(host.shadowRoot ? host.shadowRoot.querySelectorAll('button') : [])].find((b) => b.textContent === 'Continue in wallet')
          if (button) return button
        }
      }
      const measure = (request) => new Promise((resolve, reject) => {
        const started = performance.now()
        const answer = provider.request({ method: 'eth_sendTransaction', params: [request] }).catch((error) => error)
        const check = () => {
          const button = continueButton()
          if (button && !button.disabled) {
            const ms = performance.now() - started
            widget.decideReview(false)
            answer.then(() => resolve(ms))
          } else if (performance.now() - started > 10000) reject(new Error('the review was not on screen within 10 s'))
          else requestAnimationFrame(check)
        }
        requestAnimationFrame(check)
      })
      const first = await measure(scenarios[0].request)
      const kinds = []
      for (const scenario of scenarios) {
        const durationsMs = []
        for (let i = 0; i <= runs; i++) durationsMs.push(await measure(scenario.request))
        durationsMs.shift()
        kinds.push({ name: scenario.name, durationsMs })
      }
      longTasks.push(...observer.takeRecords().map((entry) => entry.duration))
      observer.disconnect()
      return { firstMs: first, kinds, longTasks }
    })()`
    type OnScreen = { firstMs: number; kinds: { name: string; durationsMs: number[] }[]; longTasks: number[] }
    const onScreen = (await (await reviewPage()).evaluate(pageCode(RUNS, 0))) as OnScreen
    const afterIdle = (await (await reviewPage()).evaluate(pageCode(0, 3_000))) as OnScreen

    // Each kind reviewed as it should be: a timing of a failed review would mean nothing.
    const expected: Record<string, { warnings: string[]; balanceChanges: number }> = {
      erc20Transfer: { warnings: [], balanceChanges: 1 },
      unlimitedApproval: { warnings: ['unlimitedApproval'], balanceChanges: 0 },
      uniswapV2Swap: { warnings: [], balanceChanges: 2 },
    }
    for (const { name, warnings, balanceChanges } of measured.kinds) {
      if (JSON.stringify({ warnings, balanceChanges }) !== JSON.stringify(expected[name])) throw new Error(`${name} was reviewed as ${JSON.stringify({ warnings, balanceChanges })}`)
    }
    const rows = Object.fromEntries(
      measured.kinds.map(({ name, warmUpMs, durationsMs }) => [
        name,
        { p50Ms: round(percentile(durationsMs, 50)), p95Ms: round(percentile(durationsMs, 95)), maxMs: round(Math.max(...durationsMs)), warmUpMs: round(warmUpMs) },
      ]),
    )
    const worstP95Ms = Math.max(...Object.values(rows).map((row) => row.p95Ms))
    const onScreenRows = Object.fromEntries(onScreen.kinds.map(({ name, durationsMs }) => [name, { p50Ms: round(percentile(durationsMs, 50)), p95Ms: round(percentile(durationsMs, 95)), maxMs: round(Math.max(...durationsMs)) }]))
    const worstOnScreenP95Ms = Math.max(...Object.values(onScreenRows).map((row) => row.p95Ms))
    console.log(
      JSON.stringify(
        {
          ...rows,
          firstReviewMs: round(measured.firstReviewMs),
          pageLongTasks: measured.longTasks.length,
          onScreen: { ...onScreenRows, firstMs: round(onScreen.firstMs), firstAfterIdleMs: round(afterIdle.firstMs), pageLongTasks: onScreen.longTasks.length, longestTaskMs: round(Math.max(0, ...onScreen.longTasks)) },
          goals: {
            reviewMs: { goal: `p95 <= ${GOAL_MS}`, worstP95Ms, isMet: worstP95Ms <= GOAL_MS },
            onScreenMs: { goal: `p95 <= ${GOAL_MS}, from the site's request to the review on screen`, worstP95Ms: worstOnScreenP95Ms, isMet: worstOnScreenP95Ms <= GOAL_MS },
          },
          runs: RUNS,
          setting: 'Chromium, the core in its Web Worker, anvil on localhost; the first review loads the review engine’s module',
        },
        null,
        2,
      ),
    )
    if (worstP95Ms > GOAL_MS || worstOnScreenP95Ms > GOAL_MS) process.exitCode = 1
  } finally {
    for (const stop of stops.reverse()) await stop().catch(() => {})
  }
}

await main()
