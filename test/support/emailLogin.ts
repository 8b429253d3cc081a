import { expect, type Page } from '@playwright/test'
import type { StackManifest } from '../../services/stack/manifest'

export type Mail = { subject: string; text: string; receivedAt: string }
export type DemoWindow = { widget: { getState: () => { address?: string; status: string }; walletRequest: (args: { method: string; params?: unknown }) => Promise<unknown> } }

/** The newest mail to `to` whose subject matches, from the local SMTP capture's inbox (the auth service's mails land there). */
export async function waitForMail(stack: StackManifest, to: string, subject: RegExp, after = 0): Promise<Mail> {
  let found: Mail | undefined
  await expect
    .poll(
      async () => {
        // Each look is bounded: a request that hangs (a stale keep-alive socket) becomes a retry, not a stuck test.
        const response = await fetch(`${stack.auth!.inboxUrl}/messages?to=${encodeURIComponent(to)}`, { signal: AbortSignal.timeout(5_000) }).catch(() => undefined)
        if (!response?.ok) return false
        const { messages } = (await response.json()) as { messages: Mail[] }
        found = messages.find((mail) => subject.test(mail.subject) && Date.parse(mail.receivedAt) >= after)
        return found !== undefined
      },
      { timeout: 20_000, message: `a mail to ${to} matching ${subject}` },
    )
    .toBe(true)
  return found!
}

/** Submits `email` in the demo's Connect view; on a browser the service has never seen, the device approval view shows. Resolves to when it started. */
export async function submitEmail(page: Page, email: string) {
  const startedAt = Date.now() - 1_000
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  const connect = page.getByRole('dialog', { name: 'Connect Wallet' })
  await connect.getByLabel('E-mail address').fill(email)
  await connect.getByRole('button', { name: 'Continue', exact: true }).click()
  await expect(page.getByRole('dialog', { name: 'Approve this device' })).toBeVisible()
  return startedAt
}

/** Approves the device from the mailed link (in a tab of the same browser) and resolves to the mailed code once the code view shows. */
export async function approveDeviceFromMail(page: Page, stack: StackManifest, email: string, startedAt: number) {
  const approval = await waitForMail(stack, email, /Approve sign-in on a new device/, startedAt)
  const link = /https?:\/\/\S+/.exec(approval.text)![0]
  const mailTab = await page.context().newPage()
  await mailTab.goto(link)
  await mailTab.getByRole('button', { name: 'Approve this device' }).click()
  // Closed once the approval's answer has loaded: closing the tab in the middle of the form's navigation hung Chromium.
  await expect(mailTab.getByRole('heading', { name: 'Device approved' })).toBeVisible()
  await mailTab.close()
  const codeMail = await waitForMail(stack, email, /is your sign-in code$/, startedAt)
  await expect(page.getByRole('dialog', { name: 'Enter your code' })).toBeVisible({ timeout: 30_000 })
  return /^(\d{6})/.exec(codeMail.subject)![1]!
}

/** Starts an e-mail login on the demo and approves this (new) browser as a device from the mailed link; resolves to the mailed code. */
export async function startEmailLogin(page: Page, stack: StackManifest, email: string) {
  const startedAt = await submitEmail(page, email)
  return approveDeviceFromMail(page, stack, email, startedAt)
}

/** Types the mailed code in the code view. */
export async function enterCode(page: Page, code: string) {
  const codeView = page.getByRole('dialog', { name: 'Enter your code' })
  await codeView.getByLabel('Code').fill(code)
  await codeView.getByRole('button', { name: 'Continue', exact: true }).click()
}

/** The secure frame, once it shows itself over the page. */
export const secureFrame = (page: Page) => page.frameLocator('iframe[data-tessera-frame]')
export const accountButton = (page: Page, address: string) => page.getByRole('button', { name: new RegExp(`${address.slice(-6)}$`, 'i') })
export const widgetState = (page: Page) => page.evaluate(() => (window as unknown as DemoWindow).widget.getState())

/** A new account's first login: chooses the recovery password of its new wallet in the frame (a share of the key is kept under it). */
export async function createWalletInFrame(page: Page, password: string) {
  const frame = secureFrame(page)
  await frame.getByRole('textbox', { name: 'Recovery password' }).fill(password)
  await frame.getByRole('textbox', { name: 'Type it again' }).fill(password)
  await frame.getByRole('button', { name: 'Create my wallet' }).click()
}

/** Each chain family's connection as the widget holds it (status, address, network). */
export const familyStates = (page: Page) =>
  page.evaluate(() => {
    const { namespaces } = (window as unknown as { widget: { getState: () => { namespaces: Record<string, { status: string; address?: string; activeCaipNetworkId: string }> } } }).widget.getState()
    return Object.fromEntries(Object.entries(namespaces).map(([ns, s]) => [ns, { status: s.status, address: s.address, activeCaipNetworkId: s.activeCaipNetworkId }]))
  })

/**
 * A social login through the local identity provider's popup (its login and consent pages), then the frame's wallet:
 * new on a first run (made with `password`), or known from an earlier run on this stack (opened with it on this browser).
 */
export async function socialLogin(page: Page, provider: string, user: { email: string; password: string }, password: string) {
  const popupOpened = page.waitForEvent('popup')
  await page.getByRole('dialog', { name: 'Connect Wallet' }).getByRole('button', { name: `Continue with ${provider}` }).click()
  const popup = await popupOpened
  await popup.getByLabel('E-mail').fill(user.email)
  await popup.getByLabel('Password').fill(user.password)
  await popup.getByRole('button', { name: 'Sign in' }).click()
  await popup.getByRole('button', { name: 'Allow' }).click()
  await createOrOpenWalletInFrame(page, password)
}

/** The frame's wallet with `password`: made for a new account, or opened on this browser for one known from an earlier run. */
export async function createOrOpenWalletInFrame(page: Page, password: string) {
  const frame = secureFrame(page)
  const created = frame.getByRole('button', { name: 'Create my wallet' })
  await expect(created.or(frame.getByRole('button', { name: 'Open my wallet' }))).toBeVisible({ timeout: 30_000 })
  if (await created.isVisible()) return createWalletInFrame(page, password)
  await frame.getByRole('textbox', { name: 'Recovery password' }).fill(password)
  await frame.getByRole('button', { name: 'Open my wallet' }).click()
}
