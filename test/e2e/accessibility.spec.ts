import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { expect, test } from '../fixtures'

async function expectNoViolations(page: Page, name: string) {
  const results = await new AxeBuilder({ page }).analyze()
  const violations = results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
  expect(violations, name).toEqual([])
}

for (const themeMode of ['dark', 'light'] as const) {
  test(`every view passes axe in ${themeMode} mode, and is saved as a screenshot`, async ({ page, stack }, testInfo) => {
    await page.goto(stack.demo!.url)
    await page.evaluate((mode) => (window as unknown as { widget: { setThemeMode: (m: string) => void } }).widget.setThemeMode(mode), themeMode)
    const shoot = async (view: string) => {
      await expectNoViolations(page, `${view} (${themeMode})`)
      await page.screenshot({ path: testInfo.outputPath(`${view}-${themeMode}.png`) })
    }
    await expectNoViolations(page, `page (${themeMode})`)
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    await expect(page.getByRole('dialog', { name: 'Connect Wallet' })).toBeVisible()
    await shoot('Connect')
    await page.getByRole('dialog', { name: 'Connect Wallet' }).getByRole('button', { name: /^WalletConnect/ }).click()
    await expect(page.getByRole('dialog', { name: 'WalletConnect' }).getByRole('img', { name: 'WalletConnect QR code' })).toBeVisible()
    await shoot('ConnectingWalletConnectBasic')
    await page.getByRole('dialog', { name: 'WalletConnect' }).getByRole('button', { name: 'Back' }).click()
    await page.getByRole('dialog', { name: 'Connect Wallet' }).getByRole('button', { name: 'All wallets' }).click()
    await expect(page.getByRole('dialog', { name: 'All Wallets' }).getByRole('list', { name: 'All Wallets' }).getByRole('listitem')).toHaveCount(3)
    await shoot('AllWallets')
    await page.getByRole('dialog', { name: 'All Wallets' }).getByRole('button', { name: 'Sample Mobile Wallet' }).click()
    const perWallet = page.getByRole('dialog', { name: 'Continue in Sample Mobile Wallet' })
    await expect(perWallet.getByRole('link', { name: 'Open Sample Mobile Wallet' })).toBeVisible()
    await shoot('ConnectingWalletConnect')
    await perWallet.getByRole('button', { name: 'Back' }).click()
    await page.getByRole('dialog', { name: 'All Wallets' }).getByRole('button', { name: 'Back' }).click()
    await page.getByRole('dialog', { name: 'Connect Wallet' }).getByRole('button', { name: /Tessera Dev Wallet/ }).click()
    const account = page.getByRole('dialog', { name: 'Account' })
    await expect(account).toBeVisible()
    await shoot('Account')
    for (const [button, title] of [['Network Tessera Local', 'Choose Network'], ['Send', 'Send'], ['Activity', 'Activity'], ['Receive', 'Receive'], ['Register a name', 'Choose a name']] as const) {
      await account.getByRole('button', { name: button }).click()
      await expect(page.getByRole('dialog', { name: title })).toBeVisible()
      await shoot(title.replace(/ /g, ''))
      await page.getByRole('dialog', { name: title }).getByRole('button', { name: 'Back' }).click()
    }
  })
}
