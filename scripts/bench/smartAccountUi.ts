// `npm run bench:aa:ui`: a smart-account send's time in Chromium, on the demo built and served by the local stack (anvil,
// Alto, our paymaster, the secure frame): from the site's eth_sendTransaction to the frame's approval (the operation
// prepared: the bundler's estimate and the paymaster's two answers), and from the click on Send to the receipt (the
// answer the site gets once the operation has landed). An e-mail login first; every send is sponsored. Prints JSON.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium } from '@playwright/test'
import { toHex } from 'viem'
import { freePorts } from '../../services/stack/ports'
import { startStack } from '../../services/stack/startStack'
import { chromiumArgs, chromiumPath } from '../../playwright.config'
import { createWalletInFrame, secureFrame, startEmailLogin } from '../../test/support/emailLogin'

const SAMPLES = Number(process.env.BENCH_SAMPLES ?? 20)

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]!

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-bench-aa-ui-'))
  const stack = await startStack({ ports: await freePorts(), demo: 'preview', solana: false, bitcoin: false, polkadot: false, dataDir, sponsoredGasPerAccountPerDay: 1_000_000_000 })
  const { manifest } = stack
  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs })
  try {
    // A context of its own: the device approval opens the mailed link in a second tab of it.
    const page = await (await browser.newContext()).newPage()
    await page.goto(`${manifest.demo!.url}/?families=eip155`)
    const code = await startEmailLogin(page, manifest, `bench-${Date.now()}@tessera.test`)
    const codeView = page.getByRole('dialog', { name: 'Enter your code' })
    await codeView.getByLabel('Code').fill(code)
    await codeView.getByRole('button', { name: 'Continue', exact: true }).click()
    await createWalletInFrame(page, 'a long recovery password for the benchmark')
    const address = await page.waitForFunction('window.widget.getState().status === "connected" && window.widget.getState().address').then((handle) => handle.jsonValue() as Promise<string>)
    const rpcUrl = manifest.chains[0]!.rpcUrl
    await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'anvil_setBalance', params: [address, toHex(10n ** 20n)] }) })

    const frame = secureFrame(page)
    const send = frame.getByRole('button', { name: 'Send' })
    const toApproval: number[] = []
    const clickToReceipt: number[] = []
    for (let i = 0; i < SAMPLES; i++) {
      const asked = performance.now()
      const sending = page.evaluate(`window.widget.walletRequest({ method: 'eth_sendTransaction', params: [{ from: ${JSON.stringify(address)}, to: ${JSON.stringify(manifest.devAccounts[1])}, value: '0x1' }] })`)
      await frame.getByText('Paid by the app').waitFor()
      toApproval.push(performance.now() - asked)
      // The frame arms Send a moment after it shows (a page cannot click it blind): the click counts from then.
      await send.click({ trial: true })
      const clicked = performance.now()
      await send.click()
      await sending
      clickToReceipt.push(performance.now() - clicked)
    }
    const round = (ms: number) => Math.round(ms)
    const figures = (values: number[]) => ({ p50: round(percentile(values, 50)), p99: round(percentile(values, 99)) })
    console.log(JSON.stringify({ samples: SAMPLES, requestToApprovalMs: figures(toApproval), clickToReceiptMs: figures(clickToReceipt) }, null, 2))
  } finally {
    await browser.close()
    await stack.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

await main()
