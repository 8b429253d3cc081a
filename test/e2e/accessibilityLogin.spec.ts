// axe on the login views of the secure frame's sign-ins (accessibility.spec's are reached with the dev wallets): the
// Farcaster QR view, and the e-mail change of an e-mail account, in both themes, each saved as a screenshot.
import AxeBuilder from '@axe-core/playwright'
import type { Page, TestInfo } from '@playwright/test'
import { expect, test } from '../fixtures'
import { accountButton, createWalletInFrame, enterCode, startEmailLogin, widgetState } from '../support/emailLogin'

// axe judges contrast as the page is at that moment: the modal's 160 ms fade-in, caught half-way on a loaded machine, read
// as a contrast failure. With reduced motion (which the widget honours) every view is checked as it rests.
test.use({ reducedMotion: 'reduce' })

/** Checks the page with axe, then saves its screenshot. */
const shooter = (page: Page, testInfo: TestInfo, themeMode: 'dark' | 'light') => async (view: string) => {
  const results = await new AxeBuilder({ page }).analyze()
  const violations = results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
  expect(violations, `${view} (${themeMode})`).toEqual([])
  await page.screenshot({ path: testInfo.outputPath(`${view}-${themeMode}.png`) })
}

/** The demo with e-mail and social login (the stack's secure frame), in `themeMode`. */
async function openThemed(page: Page, url: string, themeMode: 'dark' | 'light') {
  await page.goto(`${url}/?families=eip155`)
  await page.evaluate((mode) => (window as unknown as { widget: { setThemeMode: (m: string) => void } }).widget.setThemeMode(mode), themeMode)
}

for (const themeMode of ['dark', 'light'] as const) {
  test(`the Farcaster login view passes axe in ${themeMode} mode, and is saved as a screenshot`, async ({ page, stack }, testInfo) => {
    test.setTimeout(90_000)
    const shoot = shooter(page, testInfo, themeMode)
    await openThemed(page, stack.demo!.url, themeMode)
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    await page.getByRole('dialog', { name: 'Connect Wallet' }).getByRole('button', { name: 'Continue with Farcaster' }).click()
    const view = page.getByRole('dialog', { name: 'Farcaster' })
    await expect(view.getByRole('img', { name: 'QR code to sign in with Farcaster' })).toBeVisible({ timeout: 20_000 })
    await expect(view.getByRole('status')).toHaveText('Waiting for your approval in Farcaster…')
    await shoot('FarcasterLogin')
  })

  test(`the e-mail change view of an e-mail account passes axe in ${themeMode} mode, at each step, and is saved as screenshots`, async ({ page, stack }, testInfo) => {
    test.setTimeout(90_000)
    const shoot = shooter(page, testInfo, themeMode)
    const email = `e2e-axe-${themeMode}-${Date.now()}@tessera.test`
    await openThemed(page, stack.demo!.url, themeMode)
    await enterCode(page, await startEmailLogin(page, stack, email))
    await createWalletInFrame(page, 'a long recovery password 7')
    await expect.poll(() => widgetState(page).then((state) => state.status), { timeout: 30_000 }).toBe('connected')
    await accountButton(page, (await widgetState(page)).address!).click()
    await page.getByRole('dialog', { name: 'Account' }).getByRole('button', { name: 'Change e-mail' }).click()
    const change = page.getByRole('dialog', { name: 'Change e-mail' })
    await expect(change.getByLabel('New e-mail address')).toBeVisible()
    await shoot('EmailChange')
    // A value that is no e-mail address: the field is marked invalid and the view says why.
    await change.getByLabel('New e-mail address').fill('not an address')
    await change.getByRole('button', { name: 'Continue', exact: true }).click()
    await expect(change.getByRole('alert')).toBeVisible()
    await shoot('EmailChange-invalid')
    // The code sent to the current address.
    await change.getByLabel('New e-mail address').fill(`e2e-axe-new-${themeMode}-${Date.now()}@tessera.test`)
    await change.getByRole('button', { name: 'Continue', exact: true }).click()
    await expect(change.getByLabel('Code')).toBeVisible({ timeout: 20_000 })
    await shoot('EmailChange-code')
  })
}
