// `npm run bench:swap:ui`: a swap quote's time from the amount typed to the figure shown, in Chromium, on the demo built
// and served by the local stack (Uniswap V2 on anvil, the data service's convert routes, the worker core). Each sample
// types a new amount into Account → Swap and waits for the quote's "You receive" figure; the view waits 300 ms after the
// last keystroke before it asks (its debounce), so the time after the debounce is given too. Prints JSON.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium } from '@playwright/test'
import { freePorts } from '../../services/stack/ports'
import { startStack } from '../../services/stack/startStack'
import { chromiumArgs, chromiumPath } from '../../playwright.config'
import { QUOTE_DELAY_MS as DEBOUNCE_MS } from '../../src/main/widget/createSwapController'

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 40)

/**
 * In the page: the keystroke's input event, then each frame until the quote's figure is on screen; resolves to the ms
 * between them. Sent as text: tsx's helpers (`__name`) do not exist in the page.
 */
const typeAndWait = `async (typed) => {
  const root = [...document.querySelectorAll('*')].map((element) => element.shadowRoot).find((shadow) => shadow && shadow.querySelector('.swap-form'))
  const input = root.querySelector('.swap-form .amount-input')
  const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set
  const started = performance.now()
  setValue.call(input, typed)
  input.dispatchEvent(new Event('input', { bubbles: true }))
  // The old quote goes as the amount changes; the new one is shown once its figure is there.
  await new Promise((resolve) => {
    const look = () => (root.querySelector('.swap-quote:not([aria-busy]) dd') ? resolve() : requestAnimationFrame(look))
    requestAnimationFrame(look)
  })
  return performance.now() - started
}`

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]!

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-bench-swap-'))
  const stack = await startStack({ ports: await freePorts(), demo: 'preview', solana: false, bitcoin: false, polkadot: false, auth: false, dataDir })
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs })
  try {
    const page = await browser.newPage()
    await page.goto(stack.manifest.demo!.url)
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    await page.getByRole('dialog', { name: 'Connect Wallet' }).getByRole('button', { name: /Tessera Dev Wallet/ }).click()
    const accountButton = page.getByRole('button', { name: /0xf3…b92266$/ })
    await accountButton.waitFor()
    const account = page.getByRole('dialog', { name: 'Account' })
    if (!(await account.isVisible())) await accountButton.click()
    await account.getByRole('button', { name: 'Swap' }).click()
    await page.getByRole('dialog', { name: 'Swap' }).getByLabel('Amount').waitFor()

    const totals: number[] = []
    for (let i = 0; i < SAMPLES; i++) {
      const amount = (0.01 + i * 0.001).toFixed(3)
      totals.push(await page.evaluate<number>(`(${typeAndWait})(${JSON.stringify(amount)})`))
    }
    const afterDebounce = totals.map((ms) => ms - DEBOUNCE_MS)
    const round = (ms: number) => Math.round(ms)
    console.log(
      JSON.stringify(
        {
          samples: SAMPLES,
          debounceMs: DEBOUNCE_MS,
          typedToShownMs: { p50: round(percentile(totals, 50)), p99: round(percentile(totals, 99)) },
          afterDebounceMs: { p50: round(percentile(afterDebounce, 50)), p99: round(percentile(afterDebounce, 99)) },
        },
        null,
        2,
      ),
    )
  } finally {
    await browser.close()
    await stack.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

await main()
