import { createPublicClient, formatEther, http } from 'viem'
import type { Page } from '@playwright/test'
import { expect, test } from '../fixtures'

/** The widget's short address (SPEC §5): 4 characters at the start, the 0x included, and 6 at the end. */
const shorten = (address: string) => `${address.slice(0, 4)}…${address.slice(-6)}`
/** A balance as the widget shows it in English: cut (not rounded) to 3 decimals (SPEC §5), thousands grouped by commas. */
const truncate3 = (value: string) => {
  const [whole = '', fraction = ''] = value.split('.')
  return `${whole.replace(/\B(?=(\d{3})+(?!\d))/g, ',')}.${fraction.padEnd(3, '0').slice(0, 3)}`
}

async function connect(page: Page) {
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  const dialog = page.getByRole('dialog', { name: 'Connect Wallet' })
  await expect(dialog).toBeVisible()
  await dialog.getByRole('button', { name: /Tessera Dev Wallet/ }).click()
}

test('a visitor connects the dev wallet and sees the address and the on-chain balance; a reload keeps the connection', async ({ page, stack }) => {
  const account = stack.devAccounts[0]!
  const chain = stack.chains[0]!
  await page.goto(stack.demo!.url)
  await connect(page)

  await page.getByRole('button', { name: new RegExp(shorten(account)) }).click()
  const dialog = page.getByRole('dialog', { name: 'Account' })
  await expect(dialog).toBeVisible()
  await expect(dialog.getByText(shorten(account))).toBeVisible()
  await expect(dialog.getByText('Connected with Tessera Dev Wallet')).toBeVisible()
  const balance = await createPublicClient({ transport: http(chain.rpcUrl) }).getBalance({ address: account })
  await expect(dialog.getByLabel('Balance')).toHaveText(`${truncate3(formatEther(balance))} ETH`)

  await page.keyboard.press('Escape')
  await expect(page.getByRole('dialog')).toHaveCount(0)
  await expect(page.getByRole('button', { name: new RegExp(shorten(account)) })).toBeVisible()

  await page.reload()
  await expect(page.getByRole('button', { name: new RegExp(shorten(account)) })).toBeVisible()
})

test('a visitor switches to the second chain and back', async ({ page, stack }) => {
  const [first, second] = stack.chains
  await page.goto(`${stack.demo!.url}/?families=eip155`) // network names without family tags: an EVM-only site
  await connect(page)
  await page.getByRole('button', { name: /0xf3…b92266$/ }).click()
  const account = page.getByRole('dialog', { name: 'Account' })
  await account.getByRole('button', { name: `Network ${first!.name}`, exact: true }).click()
  await page.getByRole('dialog', { name: 'Choose Network' }).getByRole('button', { name: second!.name, exact: true }).click()
  await expect(account.getByRole('button', { name: `Network ${second!.name}`, exact: true })).toBeVisible()
  expect(await page.evaluate(() => (window as unknown as { devWallet: { provider: { request: (a: unknown) => Promise<string> } } }).devWallet.provider.request({ method: 'eth_chainId' }))).toBe(`0x${second!.chainId.toString(16)}`)

  await account.getByRole('button', { name: `Network ${second!.name}`, exact: true }).click()
  await page.getByRole('dialog', { name: 'Choose Network' }).getByRole('button', { name: first!.name, exact: true }).click()
  await expect(account.getByRole('button', { name: `Network ${first!.name}`, exact: true })).toBeVisible()
})

test('the wallet declining shows why, and the visitor can try again', async ({ page, stack }) => {
  await page.goto(stack.demo!.url)
  await page.evaluate(() => (window as unknown as { devWallet: { rejectNext: (m: string) => void } }).devWallet.rejectNext('eth_requestAccounts'))
  await connect(page)
  const connecting = page.getByRole('dialog', { name: 'Tessera Dev Wallet', exact: true })
  await expect(connecting.getByRole('alert')).toHaveText('Connection declined')
  await connecting.getByRole('button', { name: 'Try again' }).click()
  await expect(page.getByRole('dialog')).toHaveCount(0)
})

test('the modal is a dialog that traps focus, closes on Escape and gives focus back', async ({ page, stack }) => {
  await page.goto(stack.demo!.url)
  const opener = page.getByRole('button', { name: 'Connect Wallet' })
  await opener.focus()
  await page.keyboard.press('Enter')
  const dialog = page.getByRole('dialog', { name: 'Connect Wallet' })
  await expect(dialog).toBeVisible()
  for (let i = 0; i < 5; i++) await page.keyboard.press('Tab')
  expect(await dialog.evaluate((d) => d.contains((d.getRootNode() as ShadowRoot).activeElement))).toBe(true)
  await page.keyboard.press('Escape')
  await expect(dialog).toHaveCount(0)
  await expect(opener).toBeFocused()
})
