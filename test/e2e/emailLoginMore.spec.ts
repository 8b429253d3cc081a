import type { Browser, Page } from '@playwright/test'
import type { StackManifest } from '../../services/stack/manifest'
import { expect, test } from '../fixtures'
import { accountButton, createOrOpenWalletInFrame, enterCode, startEmailLogin, waitForMail, widgetState, type DemoWindow } from '../support/emailLogin'

/**
 * The frame's recovery-password prompt after a login: a new account chooses its password, a known one (an earlier run on
 * this stack, in another browser) enters it. Resolves once the widget is connected, to its address.
 */
async function openWallet(page: Page, password: string) {
  await createOrOpenWalletInFrame(page, password)
  await expect.poll(() => widgetState(page).then((state) => state.status), { timeout: 30_000 }).toBe('connected')
  return (await widgetState(page)).address!
}

/**
 * Signs in with Farcaster from the demo's Connect view: the QR code's URI is opened by the "phone" (a browser context of
 * its own, on the local relay's dev Farcaster client), which signs the Sign In With Farcaster message with the dev
 * account's custody key, the one the local verifier accepts for its fid.
 */
async function loginWithFarcaster(page: Page, browser: Browser, stack: StackManifest, account: { username: string }, password: string) {
  await page.goto(`${stack.demo!.url}/?families=eip155`)
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  await page.getByRole('dialog', { name: 'Connect Wallet' }).getByRole('button', { name: 'Continue with Farcaster' }).click()
  const view = page.getByRole('dialog', { name: 'Farcaster' })
  await expect(view.getByText('Scan this QR code with your phone.')).toBeVisible({ timeout: 20_000 })
  await expect(view.getByRole('img', { name: 'QR code to sign in with Farcaster' })).toBeVisible()
  await expect(view.getByRole('status')).toHaveText('Waiting for your approval in Farcaster…')
  const uri = new URL((await view.getByRole('link', { name: 'Open in Farcaster on this device' }).getAttribute('href'))!)
  expect(`${uri.origin}${uri.pathname}`).toBe(`${stack.auth!.farcasterRelayUrl}/connect`)

  const phone = await browser.newContext()
  try {
    const phonePage = await phone.newPage()
    await phonePage.goto(uri.href)
    await phonePage.getByRole('button', { name: `Sign in as @${account.username}` }).click()
    await expect(phonePage.getByText(`Signed in as @${account.username}.`)).toBeVisible()
  } finally {
    await phone.close()
  }
  return openWallet(page, password)
}

test('Farcaster login: the QR code, approved on the "phone" by the local relay’s dev client, connects the embedded wallet', async ({ page, browser, stack }) => {
  test.setTimeout(90_000)
  const account = stack.auth!.devFarcasterAccounts[0]!
  const address = await loginWithFarcaster(page, browser, stack, account, 'a long recovery password 4')
  expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/)
  await expect(accountButton(page, address)).toBeVisible()
  // The frame's wallet answers with the same account, and the login is remembered as Farcaster's, with its username.
  expect(await page.evaluate(() => (window as unknown as DemoWindow).widget.walletRequest({ method: 'eth_accounts' }))).toEqual([address])
  expect(await page.evaluate(() => localStorage.getItem('tessera:v1:connectedSocialProvider'))).toBe('"farcaster"')
  expect(await page.evaluate(() => localStorage.getItem('tessera:v1:connectedSocialUsername'))).toBe(JSON.stringify(account.username))
})

test('leaving the Farcaster view ends its wait in the frame: the phone approving afterwards opens no session, no prompt, no connection', async ({ page, browser, stack }) => {
  test.setTimeout(60_000)
  const account = stack.auth!.devFarcasterAccounts[0]!
  await page.goto(`${stack.demo!.url}/?families=eip155`)
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  await page.getByRole('dialog', { name: 'Connect Wallet' }).getByRole('button', { name: 'Continue with Farcaster' }).click()
  const view = page.getByRole('dialog', { name: 'Farcaster' })
  await expect(view.getByRole('status')).toHaveText('Waiting for your approval in Farcaster…', { timeout: 20_000 })
  const uri = (await view.getByRole('link', { name: 'Open in Farcaster on this device' }).getAttribute('href'))!

  // The frame's long poll for the phone's approval (the frame's requests are the page's too).
  const polls: { state: 'open' | 'ended' }[] = []
  page.on('request', (request) => {
    if (!request.url().includes('/v1/farcaster/complete')) return
    const poll = { state: 'open' as 'open' | 'ended' }
    polls.push(poll)
    void request.response().then(() => (poll.state = 'ended'), () => (poll.state = 'ended'))
  })
  page.on('requestfailed', (request) => {
    if (request.url().includes('/v1/farcaster/complete')) for (const poll of polls) poll.state = 'ended'
  })
  await view.getByRole('button', { name: 'Back' }).click()
  await expect(page.getByRole('dialog', { name: 'Connect Wallet' })).toBeVisible()
  await expect.poll(() => polls.filter((poll) => poll.state === 'open').length, { timeout: 10_000 }).toBe(0)

  const phone = await browser.newContext()
  try {
    const phonePage = await phone.newPage()
    await phonePage.goto(uri)
    await phonePage.getByRole('button', { name: `Sign in as @${account.username}` }).click()
    await expect(phonePage.getByText(`Signed in as @${account.username}.`)).toBeVisible()
  } finally {
    await phone.close()
  }
  // Nothing asked for the approval after the person left: no poll, no recovery-password prompt, no session, no login.
  expect(polls.filter((poll) => poll.state === 'open')).toEqual([])
  await expect(page.locator('iframe[data-tessera-frame]')).not.toBeVisible()
  const frames = page.frames().filter((frame) => frame.url().startsWith(`${stack.auth!.frameOrigin}/?`))
  for (const frame of frames) expect(await frame.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith('tessera-frame:session:')))).toEqual([])
  expect((await widgetState(page)).status).not.toBe('connected')
  expect(await page.evaluate(() => localStorage.getItem('tessera:v1:connectedSocialProvider'))).toBeNull()

  // Starting again works: a new wait, a new URI.
  await page.getByRole('dialog', { name: 'Connect Wallet' }).getByRole('button', { name: 'Continue with Farcaster' }).click()
  await expect(view.getByRole('status')).toHaveText('Waiting for your approval in Farcaster…', { timeout: 20_000 })
  expect(await view.getByRole('link', { name: 'Open in Farcaster on this device' }).getAttribute('href')).not.toBe(uri)
})

test('e-mail change: the code sent to the current address, then the one sent to the new address, change the account’s e-mail', async ({ page, stack }) => {
  test.setTimeout(90_000)
  const email = `e2e-change-${Date.now()}@tessera.test`
  const newEmail = `e2e-changed-${Date.now()}@tessera.test`
  await page.goto(`${stack.demo!.url}/?families=eip155`)
  await enterCode(page, await startEmailLogin(page, stack, email))
  const address = await openWallet(page, 'a long recovery password 5')

  await accountButton(page, address).click()
  const account = page.getByRole('dialog', { name: 'Account' })
  await expect(account.getByText(`Signed in as ${email}.`)).toBeVisible()
  await account.getByRole('button', { name: 'Change e-mail' }).click()
  const change = page.getByRole('dialog', { name: 'Change e-mail' })
  const askedAt = Date.now() - 1_000
  await change.getByLabel('New e-mail address').fill(newEmail)
  await change.getByRole('button', { name: 'Continue', exact: true }).click()

  // The primary code, to the current address: a wrong one first is refused in the spec's sentence, and the step stays.
  await expect(change.getByText(`Enter the 6-digit code we sent to ${email}, your current address.`)).toBeVisible()
  const primary = /^(\d{6})/.exec((await waitForMail(stack, email, /confirms your e-mail change$/, askedAt)).subject)![1]!
  await change.getByLabel('Code').fill(primary === '000000' ? '111111' : '000000')
  await change.getByRole('button', { name: 'Continue', exact: true }).click()
  await expect(change.getByRole('alert')).toHaveText('The code is not correct. Please check it and try again')
  await change.getByLabel('Code').fill(primary)
  await change.getByRole('button', { name: 'Continue', exact: true }).click()

  // The secondary code, to the new address.
  await expect(change.getByText(`Enter the 6-digit code we sent to ${newEmail}, your new address.`)).toBeVisible()
  const secondary = /^(\d{6})/.exec((await waitForMail(stack, newEmail, /confirms your new e-mail address$/, askedAt)).subject)![1]!
  await change.getByLabel('Code').fill(secondary)
  await change.getByRole('button', { name: 'Continue', exact: true }).click()
  await expect(change.getByRole('status')).toHaveText(`Your e-mail address is now ${newEmail}.`)
  await change.getByRole('button', { name: 'Back to my account' }).click()
  await expect(account.getByText(`Signed in as ${newEmail}.`)).toBeVisible()
  expect(await page.evaluate(() => localStorage.getItem('tessera:v1:email'))).toBe(JSON.stringify(newEmail))
})

test('an expired code is refused in the spec’s sentence', async ({ page, stack }) => {
  test.setTimeout(90_000)
  const email = `e2e-expired-${Date.now()}@tessera.test`
  await page.goto(`${stack.demo!.url}/?families=eip155`)
  const code = await startEmailLogin(page, stack, email)
  // The local stack's test-only route makes the code expire now, as its 10 minutes would (services/auth/routes/testing.ts).
  const expired = await fetch(`${stack.auth!.url}/testing/expire-codes`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) })
  expect(await expired.json()).toEqual({ expired: 1 })
  await enterCode(page, code)
  const codeView = page.getByRole('dialog', { name: 'Enter your code' })
  await expect(codeView.getByRole('alert')).toHaveText('This code has expired. Please ask for a new one')
  expect((await widgetState(page)).status).not.toBe('connected')
})

test("a disallowed RPC call through the auth connector fails with 'Requested RPC call is not allowed', and the toast 'Action not allowed' follows after 300 ms", async ({ page, browser, stack }) => {
  test.setTimeout(90_000)
  await loginWithFarcaster(page, browser, stack, stack.auth!.devFarcasterAccounts[1]!, 'a long recovery password 6')
  const outcome = await page.evaluate(async () => {
    const toast = () =>
      [...document.querySelectorAll('*')]
        .map((element) => element.shadowRoot?.querySelector<HTMLElement>('.toast'))
        .find((found) => found)
    let error: { code?: string; shortMessage?: string } = {}
    try {
      await (window as unknown as DemoWindow).widget.walletRequest({ method: 'eth_signTransaction', params: [{}] })
    } catch (caught) {
      error = caught as typeof error
    }
    const failedAt = performance.now()
    const shownWhenFailed = toast() !== undefined
    while (!toast() && performance.now() - failedAt < 5_000) await new Promise((resolve) => setTimeout(resolve, 10))
    return { code: error.code, shortMessage: error.shortMessage, shownWhenFailed, afterMs: performance.now() - failedAt, text: toast()?.textContent }
  })
  expect(outcome).toMatchObject({ code: 'RPC_NOT_ALLOWED', shortMessage: 'Requested RPC call is not allowed', shownWhenFailed: false, text: 'Action not allowed' })
  // The timer starts as the call fails, a moment before the page sees it: the toast shows no sooner than about 300 ms.
  expect(outcome.afterMs).toBeGreaterThanOrEqual(250)
  await expect(page.getByRole('alert').filter({ hasText: 'Action not allowed' })).toBeVisible()
})

test("a secure frame whose script cannot load: Continue says 'Unable to load email login dependency' within the frame's ready wait, and works again once the frame loads", async ({ page, stack }) => {
  // 10 s of it is the frame's ready wait itself: room for a busy machine.
  test.setTimeout(60_000)
  // What a dev server answered on a first `npm start`: 504 for the frame's JavaScript.
  const frameScripts = `${stack.auth!.frameOrigin}/**/*.js`
  await page.route(frameScripts, (route) => route.fulfill({ status: 504, body: 'Outdated Optimize Dep' }))
  await page.goto(`${stack.demo!.url}/?families=eip155`)
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  const connect = page.getByRole('dialog', { name: 'Connect Wallet' })
  await connect.getByLabel('E-mail address').fill(`no-frame-${Date.now()}@tessera.test`)
  const continueButton = connect.getByRole('button', { name: 'Continue', exact: true })
  await continueButton.click()
  // The page waits 10 s after the frame's page loaded for its ready event (not the whole 30 s of the ready timeout).
  await expect(connect.getByRole('alert')).toHaveText('Unable to load email login dependency', { timeout: 20_000 })
  await expect(continueButton).toBeEnabled()
  await expect(page.locator('iframe[data-tessera-frame]')).toHaveCount(0)

  await page.unroute(frameScripts)
  await continueButton.click()
  await expect(page.getByRole('dialog', { name: 'Approve this device' })).toBeVisible({ timeout: 20_000 })
})
