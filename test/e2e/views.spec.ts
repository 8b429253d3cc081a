import { createPublicClient, erc20Abi, formatEther, formatUnits, http } from 'viem'
import { formatTokenQuantity } from '../../src/shared/protocol/display'
import type { Page } from '@playwright/test'
import { expect, test } from '../fixtures'

/** An amount as the widget shows it in English: 3 decimals at most (SPEC §5), thousands grouped by commas. */
const shown = (value: string) => formatTokenQuantity(value).replace(/^\d+/, (whole) => whole.replace(/\B(?=(\d{3})+(?!\d))/g, ','))

type DevWallet = { hold: () => () => void; provider: { request: (a: { method: string; params?: unknown[] }) => Promise<unknown> } }

test('a wallet on a chain the site did not ask for gets Switch Network, which brings it back', async ({ page, stack }) => {
  const [first, second] = stack.chains
  await page.goto(`${stack.demo!.url}/?chains=${first!.chainId}`)
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  await page.getByRole('dialog', { name: 'Connect Wallet' }).getByRole('button', { name: /Tessera Dev Wallet/ }).click()
  await expect(page.getByRole('dialog')).toHaveCount(0)

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
  const connecting = page.getByRole('dialog', { name: 'Tessera Dev Wallet', exact: true })
  await expect(connecting.getByText('Accept the connection request in Tessera Dev Wallet.')).toBeVisible()
  await page.evaluate(() => (window as unknown as { release: () => void }).release())
  await expect(page.getByRole('dialog')).toHaveCount(0)
})

test('the account shows its name and avatar from the identity service, or colours drawn from the address', async ({ page, stack }) => {
  const { mnemonicToAccount } = await import('viem/accounts')
  const { ANVIL_MNEMONIC } = await import('../../services/relay/testing/createNodeWallet')
  const owner = mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: 6 })
  const avatar = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='
  const name = `avatar-${Date.now().toString(36)}`
  const message = JSON.stringify({ name: `${name}.tessera.id`, attributes: { avatar }, timestamp: Math.floor(Date.now() / 1000), coinType: 60 })
  const registered = await fetch(`${stack.services.api}/v1/profile/account?projectId=${stack.services.projectId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ coin_type: 60, address: owner.address, message, signature: await owner.signMessage({ message }) }),
  })
  expect(registered.status).toBe(200)

  await page.goto(stack.demo!.url)
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  await page.getByRole('dialog', { name: 'Connect Wallet' }).getByRole('button', { name: /Tessera Dev Wallet/ }).click()
  await page.getByRole('button', { name: /0xf3…b92266$/ }).click()
  const account = page.getByRole('dialog', { name: 'Account' })
  await expect(account.locator('.avatar')).toHaveCSS('background-image', /linear-gradient/)
  await page.evaluate((a) => (window as unknown as { devWallet: { switchAccount: (a: string) => void } }).devWallet.switchAccount(a), owner.address)
  await expect(account.getByText(`${name}.tessera.id`, { exact: true })).toBeVisible()
  await expect(account.locator('img.avatar')).toHaveAttribute('src', avatar)
})

test('the send form says when the amount is more than the balance or the receiver is neither an address nor a name', async ({ page, stack }) => {
  await page.goto(stack.demo!.url)
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  await page.getByRole('dialog', { name: 'Connect Wallet' }).getByRole('button', { name: /Tessera Dev Wallet/ }).click()
  await page.getByRole('button', { name: /0xf3…b92266$/ }).click()
  await page.getByRole('dialog', { name: 'Account' }).getByRole('button', { name: 'Send' }).click()
  const send = page.getByRole('dialog', { name: 'Send' })
  await send.getByRole('combobox', { name: /^Token/ }).click()
  await send.getByRole('option', { name: /^TUSD/ }).click()
  await send.getByLabel('Amount').fill('1000000.000001')
  await expect(send.getByRole('alert')).toHaveText('Not enough TUSD for this amount')
  await expect(send.getByRole('button', { name: 'Send' })).toBeDisabled()
  await send.getByLabel('Amount').fill('1')
  await send.getByLabel('To (address or name)').fill('0x1234')
  await expect(send.getByRole('alert')).toHaveText('Not a valid address on Tessera Local: enter an address (0x…) or a registered name')
  await expect(send.getByRole('button', { name: 'Send' })).toBeDisabled()
  await send.getByLabel('To (address or name)').fill(stack.devAccounts[3]!)
  await expect(send.getByRole('alert')).toHaveCount(0)
  await expect(send.getByRole('button', { name: 'Send' })).toBeEnabled()
})

test('in French the views, numbers, an error and a toast are French', async ({ page, stack }) => {
  // The wallet registry cannot be reached, and the history service fails.
  await page.context().route(/\/getWallets\?/, (route) => route.abort())
  await page.context().route(/\/v1\/account\/[^/]+\/history\?/, (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{}' }))
  await page.goto(`${stack.demo!.url}/?locale=fr`)
  await page.getByRole('button', { name: 'Connecter un portefeuille' }).click()
  const connect = page.getByRole('dialog', { name: 'Connecter un portefeuille' })
  await expect(connect.getByRole('button', { name: /^WalletConnect/ })).toContainText('Code QR')
  await connect.getByRole('button', { name: /^WalletConnect/ }).click()
  const walletConnect = page.getByRole('dialog', { name: 'WalletConnect' })
  await expect(walletConnect.getByRole('img', { name: 'Code QR WalletConnect' })).toBeVisible()
  await walletConnect.getByRole('button', { name: 'Retour' }).click()

  // An error of the error table, said in French: the registry is unreachable.
  await connect.getByRole('button', { name: 'Tous les portefeuilles' }).click()
  await expect(page.getByRole('dialog', { name: 'Tous les portefeuilles' }).getByRole('alert')).toHaveText('Le service est injoignable')
  await page.getByRole('dialog', { name: 'Tous les portefeuilles' }).getByRole('button', { name: 'Retour' }).click()

  await connect.getByRole('button', { name: /Tessera Dev Wallet/ }).click()
  await page.getByRole('button', { name: /0xf3…b92266$/ }).click()
  const account = page.getByRole('dialog', { name: 'Compte' })
  // French digits: a narrow no-break space between thousands, a decimal comma.
  await expect(account.getByLabel('Solde')).toHaveText(/^\d{1,3}(\u202f\d{3})*,\d{3} ETH$/)
  await expect(account.getByText('Connecté avec Tessera Dev Wallet')).toBeVisible()

  // A toast of the error table, said in French: the history could not be fetched.
  await account.getByRole('button', { name: 'Activité' }).click()
  await expect(page.getByRole('alert').filter({ hasText: 'Échec du chargement des transactions' })).toBeVisible()
  // The view says what failed, in French, and offers to try again (rather than claiming there is no activity).
  const activity = page.getByRole('dialog', { name: 'Activité' })
  await expect(activity.getByText('L’activité n’a pas pu être chargée : le service de données n’a pas répondu.')).toBeVisible()
  await expect(activity.getByRole('button', { name: 'Réessayer' })).toBeVisible()
})

/** Connects the demo's dev wallet (its first account, `owner`) and opens Account from the account button. */
async function connectAndOpenAccount(page: Page, demoUrl: string, owner: string) {
  await page.goto(demoUrl)
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  await page.getByRole('dialog', { name: 'Connect Wallet' }).getByRole('button', { name: /Tessera Dev Wallet/ }).click()
  await expect(page.getByRole('dialog')).toHaveCount(0)
  await page.getByRole('button', { name: new RegExp(`${owner.slice(0, 4)}…${owner.slice(-6)}$`) }).click()
}

test('Tokens lists the network’s currency and each configured token with the balance the chain holds, follows a switch made in the wallet, and Back returns to Account', async ({ page, stack }) => {
  const [chain, other] = [stack.chains[0]!, stack.chains[1]!]
  const owner = stack.devAccounts[0]!
  await connectAndOpenAccount(page, stack.demo!.url, owner)
  const account = page.getByRole('dialog', { name: 'Account' })
  await account.getByRole('button', { name: 'Tokens' }).click()

  const view = page.getByRole('dialog', { name: 'Tokens' })
  const list = view.getByRole('list', { name: `Your tokens on ${chain.name}` })
  await expect(list.getByRole('listitem')).toHaveCount(chain.tokens.length + 1)
  // Each row: symbol, name, the balance the chain holds (3 decimals), and its value in dollars where the service prices it.
  const reader = createPublicClient({ transport: http(chain.rpcUrl) })
  const priced = await fetch(`${stack.services.api}/v1/account/${owner}/balance?projectId=${stack.services.projectId}&chainId=eip155:${chain.chainId}&currency=usd`)
  const { balances } = (await priced.json()) as { balances: { symbol: string; value: number }[] }
  const usd = (symbol: string) => {
    const value = balances.find((balance) => balance.symbol === symbol)?.value ?? 0
    return value > 0 ? new Intl.NumberFormat('en', { style: 'currency', currency: 'USD', minimumFractionDigits: 2 }).format(value) : ''
  }
  const ether = await reader.getBalance({ address: owner })
  await expect(list.getByRole('listitem').first()).toHaveText(`ETHEther${shown(formatEther(ether))}${usd('ETH')}`)
  for (const token of chain.tokens) {
    const held = await reader.readContract({ address: token.address, abi: erc20Abi, functionName: 'balanceOf', args: [owner] })
    await expect(list.getByRole('listitem').filter({ hasText: new RegExp(`^${token.symbol}${token.name}`) })).toHaveText(`${token.symbol}${token.name}${shown(formatUnits(held, token.decimals))}${usd(token.symbol)}`)
  }
  expect(usd('ETH')).not.toBe('')

  // The wallet switches network while the view is open: the list is read again, on the new network.
  await page.evaluate((id) => (window as unknown as { devWallet: DevWallet }).devWallet.provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: `0x${id.toString(16)}` }] }), other.chainId)
  const otherRows = view.getByRole('list', { name: `Your tokens on ${other.name}` }).getByRole('listitem')
  await expect(otherRows).toHaveCount(other.tokens.length + 1)
  const otherEther = await createPublicClient({ transport: http(other.rpcUrl) }).getBalance({ address: owner })
  await expect(otherRows.filter({ hasText: /^ETHEther/ })).toContainText(`ETHEther${shown(formatEther(otherEther))}`)
  await view.getByRole('button', { name: 'Back' }).click()
  await expect(account).toBeVisible()
})

test('Send reads the token list again when the wallet switches network under the form', async ({ page, stack }) => {
  const other = stack.chains[1]!
  const owner = stack.devAccounts[0]!
  await connectAndOpenAccount(page, stack.demo!.url, owner)
  await page.getByRole('dialog', { name: 'Account' }).getByRole('button', { name: 'Send' }).click()
  const send = page.getByRole('dialog', { name: 'Send' })
  await expect(send.getByRole('combobox', { name: /^Token/ })).toContainText('ETH')

  await page.evaluate((id) => (window as unknown as { devWallet: DevWallet }).devWallet.provider.request({ method: 'wallet_switchEthereumChain', params: [{ chainId: `0x${id.toString(16)}` }] }), other.chainId)
  const ether = await createPublicClient({ transport: http(other.rpcUrl) }).getBalance({ address: owner })
  await expect(send.getByRole('combobox', { name: /^Token/ })).toContainText(`ETHEther${shown(formatEther(ether))}`)
  await send.getByRole('combobox', { name: /^Token/ }).click()
  await expect(send.getByRole('option')).toHaveCount(other.tokens.length + 1)
})
