import { createPublicClient, erc20Abi, formatUnits, http, parseUnits } from 'viem'
import type { Page } from '@playwright/test'
import { expect, test } from '../fixtures'
import type { StackManifest } from '../../services/stack/manifest'

async function connectAndOpenAccount(page: Page, stack: StackManifest) {
  await page.goto(stack.demo!.url)
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  await page.getByRole('dialog', { name: 'Connect Wallet' }).getByRole('button', { name: /Tessera Dev Wallet/ }).click()
  await page.getByRole('button', { name: /0xf3…b92266$/ }).click()
  const account = page.getByRole('dialog', { name: 'Account' })
  await expect(account).toBeVisible()
  return account
}

test('a visitor sends 1.5 TSR to another dev account; it lands on chain and shows in the activity', async ({ page, stack }) => {
  test.setTimeout(60_000)
  const chain = stack.chains[0]!
  const tsr = chain.tokens.find((t) => t.symbol === 'TSR')!
  const recipient = stack.devAccounts[1]!
  const node = createPublicClient({ transport: http(chain.rpcUrl) })
  const balanceOf = () => node.readContract({ address: tsr.address, abi: erc20Abi, functionName: 'balanceOf', args: [recipient] })
  const before = await balanceOf()

  const account = await connectAndOpenAccount(page, stack)
  await account.getByRole('button', { name: 'Send' }).click()
  const send = page.getByRole('dialog', { name: 'Send' })
  await send.getByRole('combobox', { name: /^Token/ }).click()
  await send.getByRole('option', { name: /^TSR/ }).click()
  await expect(send.getByRole('combobox', { name: /^Token/ })).toContainText('TSR')
  await send.getByLabel('Amount').fill('1.5')
  await send.getByLabel('To (address or name)').fill(recipient)
  await send.getByRole('button', { name: 'Send' }).click()

  await expect(page.getByRole('status').filter({ hasText: 'Transaction started' })).toBeVisible()
  await expect(page.getByRole('dialog', { name: 'Account' })).toBeVisible()
  await expect(page.getByRole('dialog', { name: 'Account' }).getByRole('button', { name: 'Back' })).toHaveCount(0)
  await expect.poll(balanceOf, { timeout: 15_000 }).toBe(before + parseUnits('1.5', 18))
  expect(formatUnits((await balanceOf()) - before, 18)).toBe('1.5')

  await page.getByRole('dialog', { name: 'Account' }).getByRole('button', { name: 'Activity' }).click()
  const activity = page.getByRole('dialog', { name: 'Activity' })
  await expect
    .poll(
      async () => {
        await activity.getByRole('button', { name: 'Back' }).click()
        await page.getByRole('dialog', { name: 'Account' }).getByRole('button', { name: 'Activity' }).click()
        // The row: its direction, the amount (−1.5 TSR) and the receiver's short address.
        return activity.getByRole('listitem').filter({ hasText: 'Sent' }).filter({ hasText: '−1.5 TSR' }).filter({ hasText: `To ${recipient.slice(0, 4)}…${recipient.slice(-6)}` }).count()
      },
      { timeout: 20_000 },
    )
    .toBeGreaterThan(0)
})

/** Registers `name` for the anvil account `addressIndex` through the data service, as another visitor would meanwhile. */
async function registerElsewhere(stack: StackManifest, name: string, addressIndex: number) {
  const { mnemonicToAccount } = await import('viem/accounts')
  const { ANVIL_MNEMONIC } = await import('../../services/relay/testing/createNodeWallet')
  const owner = mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex })
  const message = JSON.stringify({ name, attributes: {}, timestamp: Math.floor(Date.now() / 1000), coinType: 60 })
  const response = await fetch(`${stack.services.api}/v1/profile/account?projectId=${stack.services.projectId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ coin_type: 60, address: owner.address, message, signature: await owner.signMessage({ message }) }),
  })
  expect(response.status).toBe(200)
}

test('a visitor registers a name picked from the suggestions, and the account shows it', async ({ page, stack }) => {
  const account = await connectAndOpenAccount(page, stack)
  // The last dev account, which no other journey names: the first one keeps showing its address in the tests after.
  const owner = stack.devAccounts.at(-1)!
  await page.evaluate((a) => (window as unknown as { devWallet: { switchAccount: (a: string) => void } }).devWallet.switchAccount(a), owner)
  await expect(account.getByText(`${owner.slice(0, 4)}…${owner.slice(-6)}`, { exact: true })).toBeVisible()
  await account.getByRole('button', { name: 'Register a name' }).click()
  const register = page.getByRole('dialog', { name: 'Choose a name' })
  await register.getByLabel('Name').fill('abc')
  await register.getByRole('button', { name: 'Register' }).click()
  await expect(register.getByRole('alert')).toHaveText('A name has at least 4 characters: letters, digits and hyphens')
  // The error goes as soon as the name changes.
  const base = `visitor-${Date.now().toString(36)}`
  await register.getByLabel('Name').fill(base)
  await expect(register.getByRole('alert')).toHaveCount(0)
  // The typed name in full, with the service's suffix, said free.
  await expect(register.getByRole('status')).toHaveText(`${base}.tessera.id is available`)
  // A suggestion is a button that fills the field.
  await register.getByRole('list', { name: 'Suggestions' }).getByRole('button', { name: `${base}-1.tessera.id` }).click()
  await expect(register.getByLabel('Name')).toHaveValue(`${base}-1`)
  await register.getByRole('button', { name: 'Register' }).click()
  const success = page.getByRole('dialog', { name: 'Name registered' })
  await expect(success.getByRole('status')).toHaveText(`${base}-1 is now yours.`)
  await success.getByRole('button', { name: 'Back to account' }).click()
  await expect(page.getByRole('dialog', { name: 'Account' }).getByText(`${base}-1`, { exact: true })).toBeVisible()

  // The data service resolves it.
  const profile = await (await fetch(`${stack.services.api}/v1/profile/account/${base}-1?projectId=${stack.services.projectId}`)).json()
  expect(profile.addresses['60'].address).toBe(owner)
})

test('a name the service says is taken cannot be submitted; one taken meanwhile comes back with the server’s reason', async ({ page, stack }) => {
  const switchTo = (address: string) =>
    page.evaluate((a) => (window as unknown as { devWallet: { switchAccount: (a: string) => void } }).devWallet.switchAccount(a), address)
  await connectAndOpenAccount(page, stack)
  // An account without a name (the first one may have got one in the test before).
  await switchTo(stack.devAccounts[2]!)
  await page.getByRole('dialog', { name: 'Account' }).getByRole('button', { name: 'Register a name' }).click()
  const register = page.getByRole('dialog', { name: 'Choose a name' })
  const registerButton = register.getByRole('button', { name: 'Register' })

  // Taken before the visitor types it: said as soon as the suggestions come, and the form will not submit it.
  const taken = `taken-${Date.now().toString(36)}`
  await registerElsewhere(stack, taken, 7)
  await register.getByLabel('Name').fill(taken)
  await expect(register.getByRole('alert')).toHaveText(`${taken}.tessera.id is already registered`)
  await expect(register.getByRole('status')).toHaveCount(0)
  await expect(registerButton).toBeDisabled()
  await expect(register.getByRole('list', { name: 'Suggestions' })).toContainText(`${taken}-1.tessera.id`)
  // Another name: the error goes, and the form submits again.
  await register.getByLabel('Name').fill(`${taken}-x`)
  await expect(register.getByRole('alert')).toHaveCount(0)
  await expect(registerButton).toBeEnabled()

  // Free when the suggestions came, taken by someone else before the visitor submits: the server's reason.
  const raced = `raced-${Date.now().toString(36)}`
  await register.getByLabel('Name').fill(raced)
  await expect(register.getByRole('list', { name: 'Suggestions' }).getByRole('button', { name: `${raced}-1.tessera.id` })).toBeVisible()
  await registerElsewhere(stack, raced, 8)
  await registerButton.click()
  await expect(register.getByRole('alert')).toHaveText(`Error registering name ${raced}: ${raced}.tessera.id is already registered`)
  await register.getByLabel('Name').fill(`${raced}-x`)
  await expect(register.getByRole('alert')).toHaveCount(0)
})

test('sign in with the wallet: the session lands in the data service; declining says so; cancel disconnects when required', async ({ page, stack }) => {
  await page.goto(`${stack.demo!.url}/?siwx=required`)
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  await page.evaluate(() => (window as unknown as { devWallet: { rejectNext: (m: string) => void } }).devWallet.rejectNext('personal_sign'))
  await page.getByRole('dialog', { name: 'Connect Wallet' }).getByRole('button', { name: /Tessera Dev Wallet/ }).click()
  const signIn = page.getByRole('dialog', { name: 'Sign in' })
  await expect(signIn).toBeVisible()
  await signIn.getByRole('button', { name: 'Sign' }).click()
  await expect(signIn.getByRole('alert')).toHaveText('Signature declined')

  await signIn.getByRole('button', { name: 'Sign' }).click()
  await expect(page.getByRole('dialog')).toHaveCount(0)
  const sessions = await page.evaluate(() => JSON.parse(localStorage.getItem('tessera:v1:siwxSessions') ?? '[]') as { id: string; message: string; signature: string }[])
  expect(sessions).toHaveLength(1)
  expect(sessions[0]!.message).toContain('wants you to sign in with your Ethereum account:')
  expect(sessions[0]!.message).toContain(`URI: ${stack.demo!.url}`)
  const session = await (await fetch(`${stack.services.api}/v1/sessions/${sessions[0]!.id}?projectId=${stack.services.projectId}`)).json()
  expect(session).toMatchObject({ caipAddress: `eip155:${stack.chains[0]!.chainId}:${stack.devAccounts[0]}`, revoked: false, expiresAt: expect.any(Number) })
  // The nonce was the service's, and it is spent: the same signed message makes no second session.
  const replay = await fetch(`${stack.services.api}/v1/sessions?projectId=${stack.services.projectId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: stack.demo!.url },
    body: JSON.stringify({ message: sessions[0]!.message, signature: sessions[0]!.signature }),
  })
  expect(replay.status).toBe(409)

  // A reload with a valid session stays signed in; a new account without one is asked, and cancel disconnects.
  await page.reload()
  await expect(page.getByRole('button', { name: /0xf3…b92266/ })).toBeVisible()
  await expect(page.getByRole('dialog')).toHaveCount(0)
  await page.evaluate(() => localStorage.removeItem('tessera:v1:siwxSessions'))
  await page.reload()
  await page.getByRole('dialog', { name: 'Sign in' }).getByRole('button', { name: 'Cancel' }).click()
  await expect(page.getByRole('button', { name: 'Connect Wallet' })).toBeVisible()
})
