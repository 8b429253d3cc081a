import { expect, test } from '../fixtures'

test('All Wallets lists the registry, searches it, and connects an installed wallet from it', async ({ page, stack }) => {
  await page.goto(stack.demo!.url)
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  await page.getByRole('dialog', { name: 'Connect Wallet' }).getByRole('button', { name: 'All wallets' }).click()
  const dialog = page.getByRole('dialog', { name: 'All Wallets' })
  const list = dialog.getByRole('list', { name: 'All Wallets' })
  await expect(list.getByText('Sample Mobile Wallet')).toBeVisible()
  await expect(list.getByText('Sample Browser Wallet')).toBeVisible()
  await expect(list.locator('img').first()).toHaveAttribute('src', /\/getWalletImage\/tessera-dev-wallet\?projectId=/)

  await dialog.getByLabel('Search wallets').fill('mobile')
  await expect(list.getByText('Sample Browser Wallet')).toHaveCount(0)
  await expect(list.getByText('Sample Mobile Wallet')).toBeVisible()
  // Not installed here: with a relay configured it pairs by WalletConnect (test/e2e/walletconnect.spec.ts).
  await expect(list.getByRole('button', { name: 'Sample Mobile Wallet' })).toBeVisible()
  await dialog.getByLabel('Search wallets').fill('nothing-like-this')
  await expect(dialog.getByText('No wallet matches your search')).toBeVisible()
  await dialog.getByLabel('Search wallets').fill('')
  await list.getByRole('button', { name: /Tessera Dev Wallet/ }).click()
  await expect(page.getByRole('dialog')).toHaveCount(0)
})

test('Receive shows the address and its QR code', async ({ page, stack }) => {
  await page.goto(stack.demo!.url)
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  await page.getByRole('dialog', { name: 'Connect Wallet' }).getByRole('button', { name: /Tessera Dev Wallet/ }).click()
  await page.getByRole('button', { name: /0xf3…b92266$/ }).click()
  await page.getByRole('dialog', { name: 'Account' }).getByRole('button', { name: 'Receive' }).click()
  const receive = page.getByRole('dialog', { name: 'Receive' })
  await expect(receive.getByRole('img', { name: 'QR code of the address' })).toBeVisible()
  await expect(receive.getByText(stack.devAccounts[0]!)).toBeVisible()
  const modules = await receive.getByRole('img', { name: 'QR code of the address' }).locator('path').getAttribute('d')
  expect(modules!.match(/M/g)!.length).toBeGreaterThan(100)
})
