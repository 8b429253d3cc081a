// `npm run bench:frame`: the secure frame and the widget's page listener under 100,000 hostile messages each
// (test/support/frameHostile.ts says who sends what and what counts as accepted), on the local stack and Debian's
// Chromium. Prints JSON: messages, accepted (goal 0), the frame's INVALID_MESSAGE refusals (goal: exactly the
// well-enveloped malformed ones), uncaught errors (goal 0), whether the frame and the page still answer afterwards
// (goal: yes), and the time to post and to drain. BENCH_FRAME_MESSAGES changes the count. Exits 1 when a goal is missed.
import { chromium, expect, type Page } from '@playwright/test'
import { freePorts } from '../../services/stack/ports'
import { startStack } from '../../services/stack/startStack'
import { chromiumArgs, chromiumPath } from '../../playwright.config'
import { approveDeviceFromMail, submitEmail } from '../../test/support/emailLogin'
import { readRecord, recordMessages, runFrameFlood, runPageFlood, secureFrameOf, startForeignOrigin } from '../../test/support/frameHostile'

const MESSAGES = Number(process.env.BENCH_FRAME_MESSAGES ?? 100_000)

const ports = await freePorts()
const stack = await startStack({ ports, demo: 'preview', solana: false, bitcoin: false, polkadot: false })
const foreign = await startForeignOrigin()
const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs })
try {
  const frameOrigin = stack.manifest.auth!.frameOrigin
  const demoUrl = `${stack.manifest.demo!.url}/?families=eip155`

  /** A fresh profile on the demo, recorders installed in every window, console errors collected. */
  const openPage = async () => {
    const context = await browser.newContext()
    // tsx keeps function names with a helper, __name, that the functions this passes to the page then call.
    await context.addInitScript({ content: 'globalThis.__name = (fn) => fn' })
    await context.addInitScript(recordMessages, { frameOrigin })
    const page = await context.newPage()
    const consoleErrors: string[] = []
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text().slice(0, 300))
    })
    await page.goto(demoUrl)
    return { page, consoleErrors }
  }
  const waitFor = async (page: Page, check: () => Promise<boolean>) => {
    for (let i = 0; i < 600 && !(await check()); i++) await page.waitForTimeout(50)
  }

  // (a) To the frame: the Connect view loads it; wait for the widget's own first requests to be answered.
  const toFrame = await openPage()
  await toFrame.page.getByRole('button', { name: 'Connect Wallet' }).click()
  await waitFor(toFrame.page, async () => (await readRecord(toFrame.page)).fromFrame.some((reply) => reply.type === 'FRAME_SYNC_DAPP_DATA_SUCCESS'))
  const frame = await runFrameFlood(toFrame.page, { frameOrigin, foreignUrl: foreign.url, total: MESSAGES })
  await toFrame.page.context().close()

  // (b) To the page: an e-mail login waits for its device approval (APP_CONNECT_DEVICE pending) while the flood runs;
  // then the real approval must still reach the widget.
  const toPage = await openPage()
  const email = `bench-frame-${Date.now()}@tessera.test`
  const startedAt = await submitEmail(toPage.page, email)
  await waitFor(toPage.page, async () => (await readRecord(secureFrameOf(toPage.page, frameOrigin))).requestsSeen.some((request) => request.type === 'APP_CONNECT_DEVICE'))
  const pageFlood = await runPageFlood(toPage.page, { frameOrigin, foreignUrl: foreign.url, total: MESSAGES })
  const approveDialogStill = await toPage.page.getByRole('dialog', { name: 'Approve this device' }).isVisible()
  const codeViewBefore = await toPage.page.getByRole('dialog', { name: 'Enter your code' }).count()
  const alertsInApproveView = await toPage.page.getByRole('dialog', { name: 'Approve this device' }).getByRole('alert').count()
  let realReplyAfter = true
  try {
    await approveDeviceFromMail(toPage.page, stack.manifest, email, startedAt)
    await expect(toPage.page.getByRole('dialog', { name: 'Enter your code' })).toBeVisible()
  } catch {
    realReplyAfter = false
  }
  await toPage.page.context().close()

  const goals = {
    frameAccepted0: frame.accepted === 0 && frame.markersMissing.length === 0,
    frameRefusedExactly: frame.refused === frame.expectedRefused,
    frameStillAnswers: frame.probe.answered && frame.probe.isConnected === false,
    frameStateUnchanged: frame.themeAfter === frame.themeBefore,
    pageAccepted0: pageFlood.markersMissing.length === 0 && pageFlood.timesFrameShown === 0 && pageFlood.isFrameHidden && pageFlood.statusAfter === pageFlood.statusBefore && approveDialogStill && codeViewBefore === 0 && alertsInApproveView === 0,
    pageStillTakesRealReplies: realReplyAfter,
    uncaughtErrors0: frame.errors.length + pageFlood.errors.length + toFrame.consoleErrors.length + toPage.consoleErrors.length === 0,
  }
  console.log(
    JSON.stringify(
      {
        toFrame: { ...frame, consoleErrors: toFrame.consoleErrors.slice(0, 5) },
        toPage: { ...pageFlood, approveDialogStill, alertsInApproveView, codeViewShownBySpoof: codeViewBefore > 0, realReplyAfter, consoleErrors: toPage.consoleErrors.slice(0, 5) },
        goals,
      },
      null,
      2,
    ),
  )
  process.exitCode = Object.values(goals).every(Boolean) ? 0 : 1
} finally {
  await browser.close()
  await foreign.stop()
  await stack.stop()
}
