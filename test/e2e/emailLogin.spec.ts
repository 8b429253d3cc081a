import type { Page } from '@playwright/test'
import { createPublicClient, createWalletClient, http, parseEther, toHex, verifyMessage, type Address, type Hash } from 'viem'
import { expect, test } from '../fixtures'
import type { StackManifest } from '../../services/stack/manifest'

type Mail = { subject: string; text: string; receivedAt: string }
type DemoWindow = { widget: { getState: () => { address?: string; status: string }; walletRequest: (args: { method: string; params?: unknown }) => Promise<unknown> } }

/** The newest mail to `to` whose subject matches, from the local SMTP capture's inbox (the auth service's mails land there). */
async function waitForMail(stack: StackManifest, to: string, subject: RegExp, after = 0): Promise<Mail> {
  let found: Mail | undefined
  await expect
    .poll(
      async () => {
        const response = await fetch(`${stack.auth!.inboxUrl}/messages?to=${encodeURIComponent(to)}`)
        const { messages } = (await response.json()) as { messages: Mail[] }
        found = messages.find((mail) => subject.test(mail.subject) && Date.parse(mail.receivedAt) >= after)
        return found !== undefined
      },
      { timeout: 20_000, message: `a mail to ${to} matching ${subject}` },
    )
    .toBe(true)
  return found!
}

/** Starts an e-mail login on the demo and approves this (new) browser as a device from the mailed link; resolves to the mailed code. */
async function startEmailLogin(page: Page, stack: StackManifest, email: string) {
  const startedAt = Date.now() - 1_000
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  const connect = page.getByRole('dialog', { name: 'Connect Wallet' })
  await connect.getByLabel('E-mail address').fill(email)
  await connect.getByRole('button', { name: 'Continue', exact: true }).click()
  // A browser the service has never seen: it asks to approve the device by e-mail first.
  await expect(page.getByRole('dialog', { name: 'Approve this device' })).toBeVisible()
  const approval = await waitForMail(stack, email, /Approve sign-in on a new device/, startedAt)
  const link = /https?:\/\/\S+/.exec(approval.text)![0]
  const mailTab = await page.context().newPage()
  await mailTab.goto(link)
  await mailTab.getByRole('button', { name: 'Approve this device' }).click()
  await mailTab.close()
  const codeMail = await waitForMail(stack, email, /is your sign-in code$/, startedAt)
  await expect(page.getByRole('dialog', { name: 'Enter your code' })).toBeVisible({ timeout: 30_000 })
  return /^(\d{6})/.exec(codeMail.subject)![1]!
}

/** The secure frame, once it shows itself over the page. */
const secureFrame = (page: Page) => page.frameLocator('iframe[data-tessera-frame]')
const accountButton = (page: Page, address: string) => page.getByRole('button', { name: new RegExp(`${address.slice(-6)}$`, 'i') })

test('e-mail login: the code from the inbox opens an embedded wallet that signs and sends after approval in the frame, and stays after a reload', async ({ page, stack }) => {
  test.setTimeout(150_000)
  const email = `e2e-${Date.now()}@tessera.test`
  const chain = stack.chains[0]!
  await page.goto(`${stack.demo!.url}/?families=eip155`)
  const code = await startEmailLogin(page, stack, email)
  const codeView = page.getByRole('dialog', { name: 'Enter your code' })
  await codeView.getByLabel('Code').fill(code)
  await codeView.getByRole('button', { name: 'Continue', exact: true }).click()

  // A new account: the frame asks for the recovery password of its new wallet (a share of the key is kept under it).
  const frame = secureFrame(page)
  await frame.getByRole('textbox', { name: 'Recovery password' }).fill('a long recovery password 1')
  await frame.getByRole('textbox', { name: 'Type it again' }).fill('a long recovery password 1')
  await frame.getByRole('button', { name: 'Create my wallet' }).click()
  await expect.poll(() => page.evaluate(() => (window as unknown as DemoWindow).widget.getState().status), { timeout: 30_000 }).toBe('connected')
  const address = (await page.evaluate(() => (window as unknown as DemoWindow).widget.getState().address)) as Address
  await expect(accountButton(page, address)).toBeVisible()
  expect(await page.evaluate(() => localStorage.getItem('tessera:v1:email'))).toBe(JSON.stringify(email))

  // A signature: the frame shows the message, and answers once approved.
  const message = 'Hello from the e-mail wallet'
  const signing = page.evaluate(([text, account]) => (window as unknown as DemoWindow).widget.walletRequest({ method: 'personal_sign', params: [text, account] }), [toHex(message), address] as const)
  await expect(frame.getByText(message)).toBeVisible()
  await frame.getByRole('button', { name: 'Sign' }).click()
  const signature = (await signing) as Hash
  expect(await verifyMessage({ address, message, signature })).toBe(true)
  await expect(page.locator('iframe[data-tessera-frame]')).toHaveCSS('visibility', 'hidden')

  // A transaction: the new account is funded from a dev account first, then sends on anvil after approval.
  const funder = createWalletClient({ account: stack.devAccounts[0]!, transport: http(chain.rpcUrl) })
  const reader = createPublicClient({ transport: http(chain.rpcUrl) })
  await reader.waitForTransactionReceipt({ hash: await funder.sendTransaction({ chain: null, to: address, value: parseEther('1') }) })
  const receiver = stack.devAccounts[1]!
  const before = await reader.getBalance({ address: receiver })
  const sending = page.evaluate(([from, to]) => (window as unknown as DemoWindow).widget.walletRequest({ method: 'eth_sendTransaction', params: [{ from, to, value: '0x2386f26fc10000' }] }), [address, receiver] as const)
  await frame.getByRole('button', { name: 'Send' }).click()
  const hash = (await sending) as Hash
  const receipt = await reader.waitForTransactionReceipt({ hash })
  expect(receipt.status).toBe('success')
  expect(receipt.from.toLowerCase()).toBe(address.toLowerCase())
  expect((await reader.getBalance({ address: receiver })) - before).toBe(parseEther('0.01'))

  // A reload keeps the login: the frame's session and this device's key share open the same wallet without a password.
  await page.reload()
  await expect(accountButton(page, address)).toBeVisible({ timeout: 30_000 })
  expect(await page.evaluate(() => (window as unknown as DemoWindow).widget.getState().address)).toBe(address)
})

test("a wrong code and a second code request within 30 s are refused in the spec's sentences", async ({ page, stack }) => {
  test.setTimeout(90_000)
  const email = `e2e-wrong-${Date.now()}@tessera.test`
  await page.goto(`${stack.demo!.url}/?families=eip155`)
  const code = await startEmailLogin(page, stack, email)
  const codeView = page.getByRole('dialog', { name: 'Enter your code' })
  await codeView.getByLabel('Code').fill(code === '000000' ? '111111' : '000000')
  await codeView.getByRole('button', { name: 'Continue', exact: true }).click()
  await expect(codeView.getByRole('alert')).toHaveText('The code is not correct. Please check it and try again')

  await codeView.getByRole('button', { name: 'Use another e-mail address' }).click()
  const connect = page.getByRole('dialog', { name: 'Connect Wallet' })
  await connect.getByLabel('E-mail address').fill(email)
  await connect.getByRole('button', { name: 'Continue', exact: true }).click()
  await expect(connect.getByRole('alert')).toHaveText(/^Please try again after ([1-9]|[12]\d|30) seconds$/)
})

test('social login: the local GitHub provider signs in through its popup, and the frame opens a new wallet', async ({ page, stack }) => {
  test.setTimeout(90_000)
  const user = stack.auth!.devUsers[0]!
  await page.goto(`${stack.demo!.url}/?families=eip155`)
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  const popupOpened = page.waitForEvent('popup')
  await page.getByRole('dialog', { name: 'Connect Wallet' }).getByRole('button', { name: 'Continue with GitHub' }).click()
  const popup = await popupOpened
  await popup.getByLabel('E-mail').fill(user.email)
  await popup.getByLabel('Password').fill(user.password)
  await popup.getByRole('button', { name: 'Sign in' }).click()
  await popup.getByRole('button', { name: 'Allow' }).click()

  // The account may be new (a first run) or known from an earlier run on this stack: a new one chooses its recovery
  // password; a known one on this new browser enters it.
  const frame = secureFrame(page)
  const password = 'a long recovery password 2'
  const created = frame.getByRole('button', { name: 'Create my wallet' })
  await expect(created.or(frame.getByRole('button', { name: 'Open my wallet' }))).toBeVisible({ timeout: 30_000 })
  if (await created.isVisible()) {
    await frame.getByRole('textbox', { name: 'Recovery password' }).fill(password)
    await frame.getByRole('textbox', { name: 'Type it again' }).fill(password)
    await created.click()
  } else {
    await frame.getByRole('textbox', { name: 'Recovery password' }).fill(password)
    await frame.getByRole('button', { name: 'Open my wallet' }).click()
  }
  await expect.poll(() => page.evaluate(() => (window as unknown as DemoWindow).widget.getState().status), { timeout: 30_000 }).toBe('connected')
  const address = (await page.evaluate(() => (window as unknown as DemoWindow).widget.getState().address)) as Address
  await expect(accountButton(page, address)).toBeVisible()
  expect(await page.evaluate(() => localStorage.getItem('tessera:v1:connectedSocialProvider'))).toBe('"github"')
})
