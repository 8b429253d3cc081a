import { createPublicClient, createWalletClient, http, parseEther, toHex, type Address, type Hash } from 'viem'
import { chainReader, expect, test } from '../fixtures'
import { accountButton, createWalletInFrame, enterCode, secureFrame, socialLogin, startEmailLogin, widgetState, type DemoWindow } from '../support/emailLogin'
import { confirmReview, reviewDialog } from './review'

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
  await createWalletInFrame(page, 'a long recovery password 1')
  await expect.poll(() => page.evaluate(() => (window as unknown as DemoWindow).widget.getState().status), { timeout: 30_000 }).toBe('connected')
  const address = (await page.evaluate(() => (window as unknown as DemoWindow).widget.getState().address)) as Address
  await expect(accountButton(page, address)).toBeVisible()
  expect(await page.evaluate(() => localStorage.getItem('tessera:v1:email'))).toBe(JSON.stringify(email))

  // A signature: the review shows the message first (as for any wallet), then the frame shows it and answers once approved.
  const message = 'Hello from the e-mail wallet'
  const signing = page.evaluate(([text, account]) => (window as unknown as DemoWindow).widget.walletRequest({ method: 'personal_sign', params: [text, account] }), [toHex(message), address] as const)
  await expect(reviewDialog(page).getByLabel('Message', { exact: true })).toHaveText(message)
  await confirmReview(page)
  await expect(frame.getByText(message)).toBeVisible()
  await frame.getByRole('button', { name: 'Sign' }).click()
  const signature = (await signing) as Hash
  // The wallet's smart account (the default) signs: the chain verifies it (ERC-6492 until the account is deployed).
  const reader = chainReader(chain)
  expect(await reader.verifyMessage({ address, message, signature })).toBe(true)
  await expect(page.locator('iframe[data-tessera-frame]')).toHaveCSS('visibility', 'hidden')

  // A transaction: the new account is funded from a dev account first, then sends on anvil after approval.
  const funder = createWalletClient({ account: stack.devAccounts[0]!, transport: http(chain.rpcUrl) })
  await reader.waitForTransactionReceipt({ hash: await funder.sendTransaction({ chain: null, to: address, value: parseEther('1') }) })
  const receiver = stack.devAccounts[1]!
  const before = await reader.getBalance({ address: receiver })
  const sending = page.evaluate(([from, to]) => (window as unknown as DemoWindow).widget.walletRequest({ method: 'eth_sendTransaction', params: [{ from, to, value: '0x2386f26fc10000' }] }), [address, receiver] as const)
  await confirmReview(page)
  await frame.getByRole('button', { name: 'Send' }).click()
  const hash = (await sending) as Hash
  const receipt = await reader.waitForTransactionReceipt({ hash })
  expect(receipt.status).toBe('success')
  expect((await reader.getBalance({ address: receiver })) - before).toBe(parseEther('0.01'))
  // Sponsored: the account paid the 0.01 and no fee.
  expect(await reader.getBalance({ address })).toBe(parseEther('0.99'))

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
  // The account may be new (a first run) or known from an earlier run on this stack.
  await socialLogin(page, 'GitHub', user, 'a long recovery password 2')
  await expect.poll(() => page.evaluate(() => (window as unknown as DemoWindow).widget.getState().status), { timeout: 30_000 }).toBe('connected')
  const address = (await page.evaluate(() => (window as unknown as DemoWindow).widget.getState().address)) as Address
  await expect(accountButton(page, address)).toBeVisible()
  expect(await page.evaluate(() => localStorage.getItem('tessera:v1:connectedSocialProvider'))).toBe('"github"')
})

test('a second browser profile logs in with the same e-mail, is refused a wrong recovery password, and opens the same address with the right one', async ({ page, browser, stack }) => {
  test.setTimeout(90_000)
  const email = `e2e-second-${Date.now()}@tessera.test`
  const password = 'a long recovery password 3'
  await page.goto(`${stack.demo!.url}/?families=eip155`)
  await enterCode(page, await startEmailLogin(page, stack, email))
  await createWalletInFrame(page, password)
  await expect.poll(() => widgetState(page).then((state) => state.status), { timeout: 30_000 }).toBe('connected')
  const address = (await widgetState(page)).address as Address

  // A second profile: a new browser context, so no device share, no session and no stored e-mail. The service allows one
  // code e-mail per address per 30 s (SPEC §9): the local stack's test-only route ends that wait now.
  const second = await browser.newContext()
  try {
    const other = await second.newPage()
    await other.goto(`${stack.demo!.url}/?families=eip155`)
    const cooldown = await fetch(`${stack.auth!.url}/testing/end-email-cooldown`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) })
    expect(await cooldown.json()).toEqual({ ended: 1 })
    await enterCode(other, await startEmailLogin(other, stack, email))

    // This device has no share: the frame asks for the recovery password (no "Type it again": it opens, not creates).
    const otherFrame = secureFrame(other)
    const passwordField = otherFrame.getByRole('textbox', { name: 'Recovery password' })
    await expect(otherFrame.getByRole('button', { name: 'Open my wallet' })).toBeVisible({ timeout: 30_000 })
    await expect(otherFrame.getByRole('textbox', { name: 'Type it again' })).toHaveCount(0)
    await passwordField.fill('not the recovery password')
    await otherFrame.getByRole('button', { name: 'Open my wallet' }).click()
    await expect(otherFrame.getByRole('alert')).toHaveText('The recovery password is not correct', { timeout: 30_000 })
    // Nothing is unlocked: the prompt stays, the widget has no account, and the page was told no address.
    await expect(otherFrame.getByRole('button', { name: 'Open my wallet' })).toBeEnabled()
    const refused = await widgetState(other)
    expect(refused.status).not.toBe('connected')
    expect(refused.address).toBeUndefined()
    await expect(accountButton(other, address)).toHaveCount(0)

    await passwordField.fill(password)
    await otherFrame.getByRole('button', { name: 'Open my wallet' }).click()
    await expect.poll(() => widgetState(other).then((state) => state.status), { timeout: 30_000 }).toBe('connected')
    expect((await widgetState(other)).address).toBe(address)
    await expect(accountButton(other, address)).toBeVisible()

    // The recovered profile signs for the same address.
    const message = 'Signed on the second profile'
    const signing = other.evaluate(([text, account]) => (window as unknown as DemoWindow).widget.walletRequest({ method: 'personal_sign', params: [text, account] }), [toHex(message), address] as const)
    await confirmReview(other)
    await expect(otherFrame.getByText(message)).toBeVisible()
    await otherFrame.getByRole('button', { name: 'Sign' }).click()
    expect(await createPublicClient({ transport: http(stack.chains[0]!.rpcUrl) }).verifyMessage({ address, message, signature: (await signing) as Hash })).toBe(true)
  } finally {
    await second.close()
  }
})
