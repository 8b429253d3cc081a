import { expect, test } from '../fixtures'

type DevWallet = { hold: () => () => void; provider: { request: (a: { method: string; params?: unknown[] }) => Promise<unknown> } }

test('a wallet on a chain the site did not ask for gets Switch Network, which brings it back', async ({ page, stack }) => {
  const [first, second] = stack.chains
  await page.goto(`${stack.demo!.url}/?chains=${first!.chainId}`)
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  await page.getByRole('dialog', { name: 'Connect Wallet' }).getByRole('button', { name: /Tessera Dev Wallet/ }).click()
  await expect(page.getByRole('dialog', { name: 'Account' })).toBeVisible()

  await page.evaluate((id) => (window as unknown as { devWallet: DevWallet }).devWallet.provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: `0x${id.toString(16)}` }] }), second!.chainId)
  const unsupported = page.getByRole('dialog', { name: 'Switch Network' })
  await expect(unsupported).toBeVisible()
  await expect(unsupported.getByRole('list', { name: 'Choose Network' }).getByRole('listitem')).toHaveText([first!.name])
  await unsupported.getByRole('button', { name: first!.name }).click()
  await expect(page.getByRole('dialog', { name: 'Account' })).toBeVisible()
  expect(await page.evaluate(() => (window as unknown as { devWallet: DevWallet }).devWallet.provider.request({ method: 'eth_chainId' }))).toBe(`0x${first!.chainId.toString(16)}`)
})

test('while the wallet asks the visitor, the modal says where to look; the answer moves on', async ({ page, stack }) => {
  await page.goto(stack.demo!.url)
  await page.evaluate(() => void ((window as unknown as { release: () => void }).release = (window as unknown as { devWallet: DevWallet }).devWallet.hold()))
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  await page.getByRole('dialog', { name: 'Connect Wallet' }).getByRole('button', { name: /Tessera Dev Wallet/ }).click()
  const connecting = page.getByRole('dialog', { name: 'Continue in Tessera Dev Wallet' })
  await expect(connecting.getByText('Accept the connection request in Tessera Dev Wallet.')).toBeVisible()
  await page.evaluate(() => (window as unknown as { release: () => void }).release())
  await expect(page.getByRole('dialog', { name: 'Account' })).toBeVisible()
})
