// Buy through the local stack's on-ramp sandbox (services/onramp): its checkout page on its own origin, test cards,
// and the purchase paid from its dev treasury on the local chains, reported to the data service the widget follows.
// The buyers: EVM dev account 4 (no other journey moves its ether) and the dev Solana wallet's account.
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { createPublicClient, http, parseEther, parseUnits, type Address } from 'viem'
import { expect, test } from '../fixtures'

type DevWallet = { switchAccount: (address: string) => void }
const shorten = (address: string) => `${address.slice(0, 4)}…${address.slice(-6)}`

async function solanaBalance(rpcUrl: string, address: string) {
  const response = await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getBalance', params: [address] }) })
  return BigInt(((await response.json()) as { result: { value: number } }).result.value)
}

/** Connects the EVM dev wallet as `account` and opens Account → Buy. */
async function openBuy(page: Page, url: string, account: Address) {
  await page.goto(url)
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  await page.getByRole('dialog', { name: 'Connect Wallet' }).getByRole('button', { name: /Tessera Dev Wallet/ }).click()
  await expect(page.getByRole('button', { name: /0x[0-9a-fA-F]{2}…[0-9a-fA-F]{6}/ })).toBeVisible()
  await page.evaluate((a) => (window as unknown as { devWallet: DevWallet }).devWallet.switchAccount(a), account)
  const accountButton = page.getByRole('button', { name: new RegExp(shorten(account)) })
  await expect(accountButton).toBeVisible()
  const accountDialog = page.getByRole('dialog', { name: 'Account' })
  await expect.poll(async () => (await accountDialog.isVisible()) || (await page.getByRole('dialog').count()) === 0, { timeout: 15_000 }).toBe(true)
  if (!(await accountDialog.isVisible())) await accountButton.click()
  await accountDialog.getByRole('button', { name: 'Buy' }).click()
  return page.getByRole('dialog', { name: 'Buy' })
}

/** The quotes as the view lists them: provider, and what each gives. */
async function shownQuotes(page: Page) {
  const rows = page.getByRole('dialog', { name: 'Buy' }).getByRole('list', { name: 'Quotes' }).getByRole('listitem')
  await expect(rows).toHaveCount(2, { timeout: 15_000 })
  return (await rows.allInnerTexts()).map((text) => ({ text, amount: /You receive ([\d.]+) /.exec(text)?.[1] }))
}

/** Continue: the provider's checkout opens in a window of its own. */
async function continueToCheckout(page: Page, provider: string) {
  const opening = page.context().waitForEvent('page')
  await page.getByRole('dialog', { name: 'Buy' }).getByRole('button', { name: `Continue with ${provider}` }).click()
  const checkout = await opening
  await expect(checkout.getByRole('heading', { level: 1 })).toBeVisible()
  return checkout
}

async function payWithCard(checkout: Page, cardNumber: string) {
  await checkout.getByLabel('Card number').fill(cardNumber)
  await checkout.getByLabel('Expiry (MM/YY)').fill('12/40')
  await checkout.getByLabel('CVC').fill('123')
  await checkout.getByLabel('Name on card').fill('Ada Lovelace')
  await checkout.getByRole('button', { name: /^Pay / }).click()
}

test('a visitor buys 50 USD of ETH with a test card in the provider’s window: quotes side by side, and exactly the quoted amount arrives', async ({ page, stack }) => {
  test.setTimeout(90_000)
  const chain = stack.chains[0]!
  const buyer = stack.devAccounts[4]!
  const reader = createPublicClient({ transport: http(chain.rpcUrl) })
  const buy = await openBuy(page, stack.demo!.url, buyer)
  await expect(buy.getByRole('button', { name: 'ETH on Tessera Local', pressed: true })).toBeVisible()
  await buy.getByLabel('You pay').fill('50')
  const quotes = await shownQuotes(page)
  // Most received first: the 1 % provider, then the 2 % one, each with its fees.
  expect(quotes[0]!.text).toMatch(/^Tessera Sandbox · Most received\nYou receive [\d.]+ ETH\nFees \$1\.00 \(network \$0\.50\)$/)
  expect(quotes[1]!.text).toMatch(/^Sandbox Express\nYou receive [\d.]+ ETH\nFees \$1\.50 \(network \$0\.50\)$/)
  expect(Number(quotes[0]!.amount)).toBeGreaterThan(Number(quotes[1]!.amount))
  const before = await reader.getBalance({ address: buyer })

  const checkout = await continueToCheckout(page, 'Tessera Sandbox')
  expect(new URL(checkout.url()).origin).toBe(stack.onramp!.url)
  await expect(buy.getByRole('status')).toHaveText('Waiting for your payment in Tessera Sandbox’s window.')
  await payWithCard(checkout, '4242 4242 4242 4242')
  await expect(buy.getByRole('status')).toHaveText(`Arrived: ${quotes[0]!.amount} ETH is in your account.`, { timeout: 30_000 })
  expect((await reader.getBalance({ address: buyer })) - before).toBe(parseEther(quotes[0]!.amount!))
  await buy.getByRole('button', { name: 'Buy again' }).click()
  await expect(buy.getByLabel('You pay')).toHaveValue('')

  // Activity shows the purchase as bought, once the data service's indexer has read its block.
  await buy.getByRole('button', { name: 'Back' }).click()
  await page.getByRole('dialog', { name: 'Account' }).getByRole('button', { name: 'Activity' }).click()
  const bought = page.getByRole('dialog', { name: 'Activity' }).getByRole('listitem').filter({ hasText: 'Bought' })
  await expect
    .poll(
      async () => {
        if ((await bought.count()) > 0) return 1
        await page.getByRole('dialog', { name: 'Activity' }).getByRole('button', { name: 'Back' }).click()
        await page.getByRole('dialog', { name: 'Account' }).getByRole('button', { name: 'Activity' }).click()
        return bought.count()
      },
      { timeout: 30_000 },
    )
    .toBe(1)
  await expect(bought).toContainText(`+${quotes[0]!.amount!.slice(0, 5)} ETH`)
})

test('SOL for a Solana account: exactly the quoted lamports arrive', async ({ page, stack }) => {
  test.setTimeout(90_000)
  const solana = stack.solana!
  // The dev Solana wallet's account (e2e runs one test at a time: nothing else moves its lamports meanwhile).
  const account = solana.devAccounts[0]!
  await page.goto(stack.demo!.url)
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  await page.getByRole('dialog', { name: 'Connect Wallet' }).getByRole('button', { name: /Tessera Dev Solana Wallet/ }).click()
  await page.getByRole('button', { name: new RegExp(shorten(account)) }).click()
  await page.getByRole('dialog', { name: 'Account' }).getByRole('button', { name: 'Buy' }).click()
  const buy = page.getByRole('dialog', { name: 'Buy' })
  await expect(buy.getByRole('button', { name: 'SOL on Solana Local', pressed: true })).toBeVisible()
  await buy.getByRole('button', { name: 'EUR' }).click()
  await buy.getByLabel('You pay').fill('30')
  const quotes = await shownQuotes(page)
  const before = await solanaBalance(solana.rpcUrl, account)
  const checkout = await continueToCheckout(page, 'Tessera Sandbox')
  await payWithCard(checkout, '5555 5555 5555 4444')
  await expect(buy.getByRole('status')).toHaveText(`Arrived: ${quotes[0]!.amount} SOL is in your account.`, { timeout: 30_000 })
  expect((await solanaBalance(solana.rpcUrl, account)) - before).toBe(parseUnits(quotes[0]!.amount!, 9))
})

test('an amount beyond the card limit is said with the limits; a declined card fails the order and pays nothing; a closed window is said', async ({ page, stack }) => {
  test.setTimeout(90_000)
  const chain = stack.chains[0]!
  const buyer = stack.devAccounts[4]!
  const reader = createPublicClient({ transport: http(chain.rpcUrl) })
  const buy = await openBuy(page, stack.demo!.url, buyer)
  await buy.getByLabel('You pay').fill('8000')
  await expect(buy.getByRole('alert')).toHaveText('Enter an amount from $10.00 to $7,500.00 for a card.')
  await expect(buy.getByRole('button', { name: /^Continue with/ })).toBeDisabled()
  // A bank transfer allows it.
  await buy.getByRole('button', { name: 'Bank transfer' }).click()
  await expect(buy.getByRole('alert')).toHaveCount(0)
  await buy.getByRole('button', { name: 'Card' }).click()

  await buy.getByLabel('You pay').fill('20')
  await shownQuotes(page)
  const before = await reader.getBalance({ address: buyer })
  const declined = await continueToCheckout(page, 'Tessera Sandbox')
  await payWithCard(declined, '4000 0000 0000 0002')
  await expect(buy.getByRole('alert')).toHaveText('The purchase did not go through: nothing was taken from you', { timeout: 30_000 })
  expect(await reader.getBalance({ address: buyer })).toBe(before)
  await buy.getByRole('button', { name: 'Buy again' }).click()

  // The provider's window closed before paying: said, and it can be opened again.
  await buy.getByLabel('You pay').fill('15')
  await shownQuotes(page)
  const closed = await continueToCheckout(page, 'Tessera Sandbox')
  await closed.close()
  await expect(buy.getByText('The payment window was closed before you paid.')).toBeVisible({ timeout: 15_000 })
  const reopening = page.context().waitForEvent('page')
  await buy.getByRole('button', { name: 'Open the payment window again' }).click()
  await expect((await reopening).getByLabel('Card number')).toBeVisible()
})

test.describe('in a restricted time zone', () => {
  test.use({ timezoneId: 'Asia/Shanghai' })
  test('Buy says it is not available there', async ({ page, stack }) => {
    const buy = await openBuy(page, stack.demo!.url, stack.devAccounts[4]!)
    await expect(buy.getByRole('status')).toHaveText('Buying crypto is not available in your region.')
    await expect(buy.getByLabel('You pay')).toHaveCount(0)
  })
})

test('at 375 px and in French the Buy view fits the screen, passes axe, and is saved as a screenshot', async ({ page, stack }, testInfo) => {
  await page.setViewportSize({ width: 375, height: 740 })
  const buyer = stack.devAccounts[4]!
  await page.goto(`${stack.demo!.url}/?locale=fr`)
  await page.getByRole('button', { name: 'Connecter un portefeuille' }).click()
  await page.getByRole('dialog', { name: 'Connecter un portefeuille' }).getByRole('button', { name: /Tessera Dev Wallet/ }).click()
  await page.evaluate((a) => (window as unknown as { devWallet: DevWallet }).devWallet.switchAccount(a), buyer)
  const accountButton = page.getByRole('button', { name: new RegExp(shorten(buyer)) })
  await expect(accountButton).toBeVisible()
  const account = page.getByRole('dialog', { name: 'Compte' })
  await expect.poll(async () => (await account.isVisible()) || (await page.getByRole('dialog').count()) === 0, { timeout: 15_000 }).toBe(true)
  if (!(await account.isVisible())) await accountButton.click()
  await account.getByRole('button', { name: 'Acheter' }).click()
  const buy = page.getByRole('dialog', { name: 'Acheter' })
  await buy.getByLabel('Vous payez').fill('50')
  const rows = buy.getByRole('list', { name: 'Offres' }).getByRole('listitem')
  await expect(rows).toHaveCount(2, { timeout: 15_000 })
  await expect(rows.first()).toContainText('Vous recevez')
  await expect(buy.getByRole('button', { name: 'Continuer avec Tessera Sandbox' })).toBeEnabled()
  expect(await buy.evaluate((dialog) => dialog.scrollWidth - dialog.clientWidth)).toBeLessThanOrEqual(0)
  const results = await new AxeBuilder({ page }).analyze()
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([])
  await page.screenshot({ path: testInfo.outputPath('Buy-375-fr.png') })
})
