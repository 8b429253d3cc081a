import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Page } from '@playwright/test'
import { expect, test } from '../fixtures'
import type { StackManifest } from '../../services/stack/manifest'

// Playwright fulfils the harness's documents here, so Chromium cannot tell they came from loopback and asks the Local
// Network Access permission before they reach the stack's loopback URLs; a site served from loopback would not ask.
test.use({ permissions: ['local-network-access'] })

/** A URL no policy here allows: fetched on purpose, it proves that violations in that context reach the test. */
const CANARY_URL = 'https://csp-canary.invalid/'

/** The strict policy of a careful site: no 'unsafe-inline', no 'unsafe-eval', nothing from elsewhere but the stack. */
function strictPolicy(stack: StackManifest, reportUrl: string) {
  const stackUrls = [...stack.chains.map((c) => c.rpcUrl), stack.services.api, stack.services.relay, ...(stack.solana ? [stack.solana.rpcUrl, stack.solana.wsUrl] : [])]
  return [
    "default-src 'self'",
    "script-src 'self'",
    "worker-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    `connect-src 'self' ${[...new Set(stackUrls.map((url) => new URL(url).origin))].join(' ')}`,
    // Reporting loosens nothing; it is how violations inside the workers (whose events the page cannot see) reach us.
    `report-uri ${reportUrl}`,
  ].join('; ')
}

/**
 * Serves the harness under the strict policy (documents and worker scripts alike) and collects every violation: the
 * page's `securitypolicyviolation` events, CSP errors on its console, and the reports of the page and its workers.
 */
async function serveUnderStrictPolicy(page: Page, stack: StackManifest) {
  const reports: string[] = []
  const reportServer = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk: Buffer) => (body += chunk.toString()))
    request.on('end', () => {
      const report = (JSON.parse(body) as { 'csp-report': Record<string, string> })['csp-report']
      reports.push(`${report['effective-directive']} blocked ${report['blocked-uri']} in ${report['document-uri']} (${report['source-file'] ?? ''})`)
      response.end()
    })
  })
  await new Promise<void>((resolve) => reportServer.listen(0, '127.0.0.1', resolve))
  const policy = strictPolicy(stack, `http://127.0.0.1:${(reportServer.address() as AddressInfo).port}/`)
  await page.route(`${stack.harness!.url}/**`, async (route) => {
    const response = await route.fetch()
    await route.fulfill({ response, headers: { ...response.headers(), 'content-security-policy': policy } })
  })
  await page.addInitScript(() => {
    const events: string[] = []
    Object.assign(window, { cspEvents: events })
    addEventListener('securitypolicyviolation', (e) => events.push(`${e.effectiveDirective} blocked ${e.blockedURI} (${e.sourceFile}:${e.lineNumber})`), true)
  })
  const consoleErrors: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) consoleErrors.push(message.text())
  })
  return {
    /**
     * Every violation so far, the canaries aside. Each worker and the page first fetch the canary URL, and its
     * reports must arrive: that proves each context runs under the policy and that its violations reach us.
     */
    async violations() {
      const workers = page.workers()
      for (const worker of workers) await worker.evaluate((url) => fetch(url).catch(() => {}), CANARY_URL)
      await page.evaluate((url) => fetch(url).catch(() => {}), CANARY_URL)
      await expect.poll(() => reports.filter((r) => r.includes(CANARY_URL)).length).toBe(workers.length + 1)
      const events = await page.evaluate(() => (window as unknown as { cspEvents: string[] }).cspEvents)
      expect(events.filter((e) => e.includes(CANARY_URL))).toHaveLength(1)
      const isCanary = (text: string) => text.includes(CANARY_URL)
      return { events: events.filter((e) => !isCanary(e)), console: consoleErrors.filter((e) => !isCanary(e)), reports: reports.filter((r) => !isCanary(r)) }
    },
    // The page is still open here, and Chromium keeps its connection to the report server (or is sending a report):
    // close() alone waits for that connection, which once ran past the test's timeout on a loaded machine.
    close: () =>
      new Promise((resolve) => {
        reportServer.close(resolve)
        reportServer.closeAllConnections()
      }),
  }
}

const cspTest = test.extend<{ csp: Awaited<ReturnType<typeof serveUnderStrictPolicy>> }>({
  csp: async ({ page, stack }, use) => {
    const csp = await serveUnderStrictPolicy(page, stack)
    await use(csp)
    await csp.close()
  },
})

const none = { events: [], console: [], reports: [] }

cspTest.describe('under a strict Content Security Policy', () => {
  cspTest('the core worker answers with a block number, with no violation', async ({ page, stack, csp }) => {
    await page.goto(stack.harness!.url)
    await expect(page.locator('#status')).toHaveText('ready')
    const chain = stack.chains[0]!
    const blockNumber = await page.evaluate(async (chain) => {
      const core = window.tessera.createCore({ chains: [{ chainId: chain.chainId, rpcUrls: [chain.rpcUrl] }] })
      return (await core.getBlockNumber({ chainId: chain.chainId })).toString()
    }, chain)
    expect(BigInt(blockNumber)).toBeGreaterThan(0n)
    expect(page.workers()).toHaveLength(1)
    expect(await csp.violations()).toEqual(none)
  })

  cspTest('the modal opens with its styles and the WalletConnect QR code renders, with no violation', async ({ page, stack, csp }) => {
    await page.goto(`${stack.harness!.url}/mount.html?relay=${encodeURIComponent(stack.services.relay)}`)
    await page.locator('#wallet').getByRole('button', { name: 'Connect Wallet' }).click()
    const connect = page.getByRole('dialog', { name: 'Connect Wallet' })
    await expect(connect).toBeVisible()
    // The stylesheet reached the shadow root: the dialog has the theme's background, not the default transparent one.
    expect(await connect.evaluate((dialog) => getComputedStyle(dialog).backgroundColor)).toBe('rgb(22, 24, 29)')
    await connect.getByRole('button', { name: /^WalletConnect/ }).click()
    await expect(page.getByRole('dialog', { name: 'WalletConnect' }).getByRole('img', { name: 'WalletConnect QR code' })).toBeVisible()
    expect(page.workers()).toHaveLength(2) // the core's and WalletConnect's, each checked by violations()
    expect(await csp.violations()).toEqual(none)
  })
})
