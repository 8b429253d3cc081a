// Swap on the local chain's Uniswap V2 (services/chain/uniswapV2.ts) through the data service's convert routes, with the
// demo's dev wallet. The swaps are made by dev account 8 (no other journey reads its balances); "another trader" is 7.
import type { Page } from '@playwright/test'
import { createTestClient, createWalletClient, erc20Abi, formatUnits, http, parseAbiItem, parseUnits, type Address } from 'viem'
import { formatActivityAmount } from '../../src/main/ui/views/activityRows'
import { uniswapV2Artifacts } from '../../services/chain/uniswapV2'
import type { StackChain } from '../../services/stack/manifest'
import { chainReader, expect, test } from '../fixtures'
import { createWalletInFrame, enterCode, secureFrame, startEmailLogin, widgetState } from '../support/emailLogin'
import { confirmReview, reviewDialog } from './review'

type DevWallet = { switchAccount: (address: string) => void; hold: () => () => void; rejectNext: (method?: string) => void }
const transferEvent = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)')

const chainClient = chainReader
const tokenOf = (chain: StackChain, symbol: string) => chain.tokens.find((t) => t.symbol === symbol)!
const balanceOf = (chain: StackChain, symbol: string, owner: Address) => chainClient(chain).readContract({ address: tokenOf(chain, symbol).address, abi: erc20Abi, functionName: 'balanceOf', args: [owner] })
const allowanceOf = (chain: StackChain, symbol: string, owner: Address) =>
  chainClient(chain).readContract({ address: tokenOf(chain, symbol).address, abi: erc20Abi, functionName: 'allowance', args: [owner, chain.uniswapV2.router] })

/** Connects the dev wallet as `account` and opens Account → Swap. */
async function openSwap(page: Page, url: string, account: Address) {
  await clickSwap(page, url, account)
  const swap = page.getByRole('dialog', { name: 'Swap' })
  await expect(swap.getByRole('combobox', { name: /^You pay/ })).toContainText('ETH')
  return swap
}

/** Connects the dev wallet as `account`, then Account → Swap. */
async function clickSwap(page: Page, url: string, account: Address) {
  await page.goto(url)
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  await page.getByRole('dialog', { name: 'Connect Wallet' }).getByRole('button', { name: /Tessera Dev Wallet/ }).click()
  await expect(page.getByRole('button', { name: /0x[0-9a-fA-F]{2}…[0-9a-fA-F]{6}/ })).toBeVisible()
  await page.evaluate((a) => (window as unknown as { devWallet: DevWallet }).devWallet.switchAccount(a), account)
  const accountButton = page.getByRole('button', { name: new RegExp(`${account.slice(0, 4)}…${account.slice(-6)}`) })
  await expect(accountButton).toBeVisible()
  const accountDialog = page.getByRole('dialog', { name: 'Account' })
  await expect.poll(async () => (await accountDialog.isVisible()) || (await page.getByRole('dialog').count()) === 0, { timeout: 15_000 }).toBe(true)
  if (!(await accountDialog.isVisible())) await accountButton.click()
  await accountDialog.getByRole('button', { name: 'Swap' }).click()
}

/** Picks `symbol` on one side of the form. */
async function pick(page: Page, side: 'You pay' | 'You receive', symbol: string) {
  const swap = page.getByRole('dialog', { name: 'Swap' })
  await swap.getByRole('combobox', { name: new RegExp(`^${side}`) }).click()
  await swap.getByRole('option', { name: new RegExp(`^${symbol}`) }).click()
}

/** The quote's figures as the view shows them (term → value). */
async function shownQuote(page: Page) {
  const quote = page.getByRole('dialog', { name: 'Swap' }).getByLabel('What this swap does')
  await expect(quote).toBeVisible()
  const terms = await quote.locator('dt').allInnerTexts()
  const values = await quote.locator('dd').allInnerTexts()
  return Object.fromEntries(terms.map((term, i) => [term, values[i]!]))
}
const amountIn = (text: string) => text.replace(/,/g, '').split(' ')[0]!

/** Opens Swap as the trader, TUSD for TSR, quotes `amount` and approves it; resolves once Swap may be pressed. */
async function approvedTusdForTsr(page: Page, url: string, trader: Address, amount: string) {
  await openSwap(page, url, trader)
  await pick(page, 'You pay', 'TUSD')
  await pick(page, 'You receive', 'TSR')
  const swap = page.getByRole('dialog', { name: 'Swap' })
  await swap.getByLabel('Amount').fill(amount)
  await shownQuote(page)
  await swap.getByRole('button', { name: 'Approve TUSD' }).click()
  await confirmReview(page)
  await expect(swap.getByRole('button', { name: 'Swap', exact: true })).toBeEnabled({ timeout: 30_000 })
  return swap
}

/** What the pair paid `owner` of `symbol` in the block range: the Transfer events' values. */
async function paidTo(chain: StackChain, symbol: string, owner: Address, fromBlock: bigint) {
  const logs = await chainClient(chain).getLogs({ address: tokenOf(chain, symbol).address, event: transferEvent, args: { to: owner }, fromBlock })
  return logs.reduce((sum, log) => sum + log.args.value!, 0n)
}

test('a visitor swaps 0.1 ETH for TUSD: the quote with its source, then exactly what the router paid, at least the minimum shown', async ({ page, stack }) => {
  test.setTimeout(90_000)
  const chain = stack.chains[0]!
  const trader = stack.devAccounts[8]!
  const swap = await openSwap(page, stack.demo!.url, trader)
  await swap.getByLabel('Amount').fill('0.1')
  const quote = await shownQuote(page)
  expect(quote['Quote from']).toMatch(/^Uniswap V2, block \d+$/)
  expect(Number(amountIn(quote['Expected']!))).toBeGreaterThan(290)
  // Each amount's worth at the data service's prices (ETH $3,000, TUSD $1): what is paid under the field, what is expected beside it.
  await expect(swap.getByText('≈ $300.00', { exact: true })).toBeVisible()
  expect(quote['Expected']).toMatch(/^[\d,.]+ TUSD \(\$\d{3}\.\d\d\)$/)
  expect(quote['Price impact']).toMatch(/^0\.\d\d %$/)
  expect(quote['Network fee']).toMatch(/ETH \(\$/)
  expect(quote['Minimum received (1 % slippage)']).toBeDefined()
  // A tighter tolerance: the minimum follows, and the swap is built with it.
  await swap.getByRole('group', { name: 'Slippage tolerance' }).getByRole('button', { name: '0.5 %' }).click()
  await expect(swap.getByRole('button', { name: '0.5 %' })).toHaveAttribute('aria-pressed', 'true')
  const tighter = await shownQuote(page)
  const minimum = parseUnits(amountIn(tighter['Minimum received (0.5 % slippage)']!), 6)
  expect(Number(minimum) / Number(parseUnits(amountIn(tighter['Expected']!), 6))).toBeCloseTo(0.995, 4)
  const builds: unknown[] = []
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/v1/convert/build-transaction') builds.push(request.postDataJSON())
  })
  const before = await balanceOf(chain, 'TUSD', trader)
  const fromBlock = await chainClient(chain).getBlockNumber()

  await swap.getByRole('button', { name: 'Swap', exact: true }).click()
  // The review shows, before the wallet asks, the balance changes simulated on the chain: exactly what the swap then does.
  const changes = reviewDialog(page).getByTestId('balance-changes')
  await expect(changes).toBeVisible({ timeout: 30_000 })
  // Each with its token's icon and its worth at the data service's prices (ETH $3,000, TUSD $1).
  await expect(changes.getByRole('listitem')).toHaveText(['−0.1 ETH$300.00', /^\+[\d,.]+ TUSD\$[\d,.]+$/])
  await expect(changes.locator('li > .token-icon')).toHaveCount(2)
  const [, received, worth] = /^\+([\d,.]+) TUSD\$([\d,.]+)$/.exec((await changes.getByRole('listitem').nth(1).textContent()) ?? '')!
  const simulated = parseUnits(received!.replace(/,/g, ''), 6)
  expect(Number(worth!.replace(/,/g, ''))).toBeCloseTo(Number(received!.replace(/,/g, '')), 1)
  await expect(reviewDialog(page).getByRole('definition').filter({ hasText: 'swapExactETHForTokens' })).toBeVisible()
  // The router's call in words: what it does, then each argument by what it means.
  const call = reviewDialog(page).getByLabel('Swap', { exact: true })
  await expect(call.getByRole('definition').first()).toHaveText(/^Swap\s*swapExactETHForTokens$/)
  await expect(call.getByRole('term')).toHaveText(['Action', 'Contract', 'Sends', 'Minimum received', 'Route 1', 'Route 2', 'Recipient', 'Deadline'])
  // The call's amounts with their worth under them, as the balance changes have it.
  await expect(call.getByRole('definition').nth(2)).toHaveText(/^0\.1 ETH\s*\$300\.00$/)
  await expect(call.getByRole('definition').nth(3)).toHaveText(/^[\d,.]+ TUSD\s*\$[\d,.]+$/)
  // The route's tokens by the symbols their contracts give, each address still in view.
  await expect(call.getByRole('definition').nth(4)).toHaveText(/^WETH\s*0x[\da-fA-F]{2}…[\da-fA-F]{6}$/)
  await expect(call.getByRole('definition').nth(5)).toHaveText(/^TUSD\s*0x[\da-fA-F]{2}…[\da-fA-F]{6}$/)
  await confirmReview(page)
  await expect(page.getByRole('status').filter({ hasText: 'Transaction confirmed' })).toBeVisible({ timeout: 30_000 })
  const gained = (await balanceOf(chain, 'TUSD', trader)) - before
  expect(gained).toBe(simulated)
  expect(gained).toBeGreaterThanOrEqual(minimum)
  expect(gained).toBe(await paidTo(chain, 'TUSD', trader, fromBlock + 1n))
  expect(builds).toEqual([expect.objectContaining({ eip155: { slippage: 0.5 }, userAddress: trader })])
})

test('TUSD for TSR: Approve first, for exactly the amount, then Swap; the router spends the approval', async ({ page, stack }) => {
  test.setTimeout(90_000)
  const chain = stack.chains[0]!
  const trader = stack.devAccounts[8]!
  const before = await balanceOf(chain, 'TSR', trader)
  const swap = await approvedTusdForTsr(page, stack.demo!.url, trader, '10')
  expect(await allowanceOf(chain, 'TUSD', trader)).toBe(10_000_000n)
  await swap.getByRole('button', { name: 'Swap', exact: true }).click()
  await confirmReview(page)
  await expect(page.getByRole('status').filter({ hasText: 'Transaction confirmed' })).toBeVisible({ timeout: 30_000 })
  expect((await balanceOf(chain, 'TSR', trader)) - before).toBeGreaterThan(parseUnits('3.8', 18))
  expect(await allowanceOf(chain, 'TUSD', trader)).toBe(0n)
})

test('another trader moves the pool past the slippage while the wallet asks: the chain refuses, the widget says so, the approval stays', async ({ page, stack }) => {
  test.setTimeout(90_000)
  const chain = stack.chains[0]!
  const trader = stack.devAccounts[8]!
  const swap = await approvedTusdForTsr(page, stack.demo!.url, trader, '20')
  const tsrBefore = await balanceOf(chain, 'TSR', trader)
  const tusdBefore = await balanceOf(chain, 'TUSD', trader)

  await page.evaluate(() => void ((window as unknown as { release: () => void }).release = (window as unknown as { devWallet: DevWallet }).devWallet.hold()))
  await swap.getByRole('button', { name: 'Swap', exact: true }).click()
  await confirmReview(page)
  await expect(swap.getByRole('button', { name: 'Confirm in your wallet…' })).toBeVisible()
  // The other trader sells 1,000 TUSD for TSR through the router, straight and through ETH (the quote takes whichever
  // route pays more): the price moves far past 1 % on both.
  const other = stack.devAccounts[7]!
  const wallet = createWalletClient({ account: other, transport: http(chain.rpcUrl) })
  const client = chainClient(chain)
  const [tusd, tsr] = [tokenOf(chain, 'TUSD').address, tokenOf(chain, 'TSR').address]
  await client.waitForTransactionReceipt({ hash: await wallet.writeContract({ chain: null, address: tusd, abi: erc20Abi, functionName: 'approve', args: [chain.uniswapV2.router, parseUnits('2000', 6)] }) })
  const deadline = BigInt(Math.floor(Date.now() / 1_000) + 600)
  for (const path of [[tusd, tsr], [tusd, chain.uniswapV2.weth, tsr]]) {
    // Its own gas limit: an estimate made in the second of a pool's last update leaves out the price-accumulator writes
    // the swap makes once mined in a later second, and runs out of gas.
    const hash = await wallet.writeContract({ chain: null, address: chain.uniswapV2.router, abi: uniswapV2Artifacts.router02.abi, functionName: 'swapExactTokensForTokens', args: [parseUnits('1000', 6), 0n, path, other, deadline], gas: 400_000n })
    expect((await client.waitForTransactionReceipt({ hash })).status).toBe('success')
  }
  await page.evaluate(() => (window as unknown as { release: () => void }).release())

  await expect(page.getByRole('alert').filter({ hasText: 'The price moved past your slippage tolerance before the swap went through: nothing was swapped' })).toBeVisible({ timeout: 30_000 })
  expect(await balanceOf(chain, 'TSR', trader)).toBe(tsrBefore)
  expect(await balanceOf(chain, 'TUSD', trader)).toBe(tusdBefore)
  expect(await allowanceOf(chain, 'TUSD', trader)).toBe(20_000_000n)
})

test('a declined swap says so and changes nothing; more than the balance is said before any wallet is asked', async ({ page, stack }) => {
  test.setTimeout(60_000)
  const chain = stack.chains[0]!
  const trader = stack.devAccounts[8]!
  const swap = await openSwap(page, stack.demo!.url, trader)
  await swap.getByLabel('Amount').fill('100000')
  await expect(swap.getByRole('alert')).toHaveText('Not enough ETH for this amount')
  await expect(swap.getByRole('button', { name: 'Swap', exact: true })).toBeDisabled()

  await swap.getByLabel('Amount').fill('0.05')
  await shownQuote(page)
  const before = await balanceOf(chain, 'TUSD', trader)
  await page.evaluate(() => (window as unknown as { devWallet: DevWallet }).devWallet.rejectNext('eth_sendTransaction'))
  await swap.getByRole('button', { name: 'Swap', exact: true }).click()
  await confirmReview(page)
  await expect(swap.getByRole('alert')).toHaveText('User rejected the request.')
  await expect(swap.getByRole('button', { name: 'Swap', exact: true })).toBeEnabled()
  expect(await balanceOf(chain, 'TUSD', trader)).toBe(before)
})

test('Swap’s code failing to load says so in the modal, and Try again loads it', async ({ page, stack }) => {
  const swapCode = /\/SwapView-[\w-]+\.js(\?[^/]*)?$/
  await page.route(swapCode, (route) => route.abort('internetdisconnected'))
  await clickSwap(page, stack.demo!.url, stack.devAccounts[8]!)
  const swap = page.getByRole('dialog', { name: 'Swap' })
  await expect(swap.getByRole('alert')).toHaveText(/^This part of the wallet window could not load\. Check your connection and try again\./)
  await page.unroute(swapCode)
  await swap.getByRole('button', { name: 'Try again' }).click()
  await expect(swap.getByRole('combobox', { name: /^You pay/ })).toContainText('ETH')
})

test('on a Solana account Swap is not offered', async ({ page, stack }) => {
  await page.goto(`${stack.demo!.url}/?families=solana`)
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  await page.getByRole('dialog', { name: 'Connect Wallet' }).getByRole('button', { name: /Tessera Dev Solana Wallet/ }).click()
  const accountButton = page.getByRole('button', { name: /…/ }).first()
  await expect(accountButton).toBeVisible()
  const account = page.getByRole('dialog', { name: 'Account' })
  if (!(await account.isVisible())) await accountButton.click()
  await expect(account.getByRole('button', { name: 'Tokens' })).toBeVisible()
  await expect(account.getByRole('button', { name: 'Swap' })).toHaveCount(0)
})

test('in French the swap view and its quote are French', async ({ page, stack }) => {
  await page.goto(`${stack.demo!.url}/?locale=fr`)
  await page.getByRole('button', { name: 'Connecter un portefeuille' }).click()
  await page.getByRole('dialog', { name: 'Connecter un portefeuille' }).getByRole('button', { name: /Tessera Dev Wallet/ }).click()
  const accountButton = page.getByRole('button', { name: /0xf3…b92266$/ })
  await expect(accountButton).toBeVisible()
  const account = page.getByRole('dialog', { name: 'Compte' })
  if (!(await account.isVisible())) await accountButton.click()
  await account.getByRole('button', { name: 'Échanger' }).click()
  const swap = page.getByRole('dialog', { name: 'Échanger' })
  await expect(swap.getByRole('combobox', { name: /^Vous payez/ })).toContainText('ETH')
  await swap.getByLabel('Montant').fill('0,1')
  const quote = swap.getByLabel('Ce que fait cet échange')
  await expect(quote.locator('dt')).toHaveText(['Montant attendu', 'Taux', 'Impact sur le prix', 'Minimum reçu (glissement de 1 %)', 'Frais de réseau', 'Prix fourni par'])
  // Dollars as French writes them: what is paid under the amount, what is expected beside it.
  await expect(swap.getByText('≈ 300,00 $US', { exact: true })).toBeVisible()
  await expect(quote.locator('dd').first()).toHaveText(/^\d{3},\d+ TUSD \(\d{3},\d\d\s\$US\)$/)
})

test('the e-mail wallet (a smart account) swaps in the secure frame, then approves and swaps a token in one atomic operation', async ({ page, stack }) => {
  test.setTimeout(150_000)
  const chain = stack.chains[0]!
  await page.goto(`${stack.demo!.url}/?families=eip155`)
  await enterCode(page, await startEmailLogin(page, stack, `e2e-swap-${Date.now()}@tessera.test`))
  await createWalletInFrame(page, 'a long recovery password 9')
  await expect.poll(async () => (await widgetState(page)).status, { timeout: 30_000 }).toBe('connected')
  const address = (await widgetState(page)).address as Address
  // The new wallet's ether, from anvil.
  await createTestClient({ mode: 'anvil', transport: http(chain.rpcUrl) }).setBalance({ address, value: parseUnits('1', 18) })
  await page.getByRole('button', { name: new RegExp(`${address.slice(-6)}$`, 'i') }).click()
  await page.getByRole('dialog', { name: 'Account' }).getByRole('button', { name: 'Swap' }).click()
  const swap = page.getByRole('dialog', { name: 'Swap' })
  await expect(swap.getByRole('combobox', { name: /^You pay/ })).toContainText('1.000')
  await swap.getByLabel('Amount').fill('0.01')
  await shownQuote(page)
  await swap.getByRole('button', { name: 'Swap', exact: true }).click()
  await confirmReview(page)
  await secureFrame(page).getByRole('button', { name: 'Send' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Transaction confirmed' })).toBeVisible({ timeout: 30_000 })
  const gained = await balanceOf(chain, 'TUSD', address)
  expect(gained).toBeGreaterThan(29_000_000n)

  // Activity follows: the TUSD the pool paid, once the data service's indexer has read the block.
  const received = page.getByRole('dialog', { name: 'Activity' }).getByRole('listitem').filter({ hasText: 'TUSD' })
  await page.getByRole('dialog', { name: 'Account' }).getByRole('button', { name: 'Activity' }).click()
  await expect
    .poll(
      async () => {
        if ((await received.count()) > 0) return 1
        await page.getByRole('dialog', { name: 'Activity' }).getByRole('button', { name: 'Back' }).click()
        await page.getByRole('dialog', { name: 'Account' }).getByRole('button', { name: 'Activity' }).click()
        return received.count()
      },
      { timeout: 30_000 },
    )
    .toBe(1)
  await expect(received).toContainText('Received')
  // What the chain holds, as Activity writes it (the earlier journeys moved the pool's price).
  await expect(received).toContainText(`+${formatActivityAmount('en', formatUnits(gained, 6))} TUSD`)

  // 10 TUSD for TSR: the smart account batches the approval with the swap, shown call by call, one transaction.
  await page.getByRole('dialog', { name: 'Activity' }).getByRole('button', { name: 'Back' }).click()
  await page.getByRole('dialog', { name: 'Account' }).getByRole('button', { name: 'Swap' }).click()
  await pick(page, 'You pay', 'TUSD')
  await pick(page, 'You receive', 'TSR')
  await swap.getByLabel('Amount').fill('10')
  await shownQuote(page)
  await expect(swap.getByText('Your wallet lets the exchange spend exactly 10 TUSD and swaps in one transaction: both happen, or neither.')).toBeVisible()
  const [tusdBefore, tsrBefore] = [await balanceOf(chain, 'TUSD', address), await balanceOf(chain, 'TSR', address)]
  const fromBlock = (await chainClient(chain).getBlockNumber()) + 1n
  await swap.getByRole('button', { name: 'Approve TUSD and swap' }).click()
  await confirmReview(page)
  const frame = secureFrame(page)
  await expect(frame.getByRole('heading', { name: 'Send 2 calls at once' })).toBeVisible({ timeout: 20_000 })
  await expect(frame.getByText(new RegExp(`^1\\. Let ${chain.uniswapV2.router} spend 10 TUSD`, 'i'))).toBeVisible()
  await expect(frame.getByText(/^2\. /)).toBeVisible()
  await frame.getByRole('button', { name: 'Send' }).click()
  // This operation's own toasts, in order: the first swap's 'Transaction confirmed' may still be on screen.
  await expect(page.getByRole('status').filter({ hasText: 'Transaction started' })).toBeVisible()
  await expect(page.getByRole('status').filter({ hasText: 'Transaction confirmed' })).toBeVisible({ timeout: 30_000 })
  expect(tusdBefore - (await balanceOf(chain, 'TUSD', address))).toBe(10_000_000n)
  expect(await balanceOf(chain, 'TSR', address)).toBeGreaterThan(tsrBefore)
  // The approval was spent by the swap in the same operation: nothing is left for the router, and one transaction did both.
  expect(await allowanceOf(chain, 'TUSD', address)).toBe(0n)
  const approvals = await chainClient(chain).getLogs({ address: tokenOf(chain, 'TUSD').address, event: parseAbiItem('event Approval(address indexed owner, address indexed spender, uint256 value)'), args: { owner: address }, fromBlock })
  const sales = await chainClient(chain).getLogs({ address: tokenOf(chain, 'TUSD').address, event: transferEvent, args: { from: address }, fromBlock })
  expect(approvals.map((log) => log.transactionHash)).toEqual(sales.map((log) => log.transactionHash))
  expect(sales).toHaveLength(1)
})

test('at 375 px the swap view and its quote fit the screen, and are saved as screenshots', async ({ page, stack }, testInfo) => {
  await page.setViewportSize({ width: 375, height: 740 })
  const swap = await openSwap(page, stack.demo!.url, stack.devAccounts[8]!)
  await swap.getByLabel('Amount').fill('0.123456')
  await shownQuote(page)
  expect(await swap.evaluate((dialog) => dialog.scrollWidth - dialog.clientWidth)).toBeLessThanOrEqual(0)
  await page.screenshot({ path: testInfo.outputPath('Swap-375.png') })
  // 6 ETH into a pool of 100 moves the price by about 6 %: a warning; 20 ETH by about 17 %: refused.
  await swap.getByLabel('Amount').fill('6')
  await expect(swap.getByRole('alert')).toHaveText(/^This trade moves the price by [5-7]\.\d\d %: you receive noticeably less than the market rate$/)
  await expect(swap.getByRole('button', { name: 'Swap', exact: true })).toBeEnabled()
  await page.screenshot({ path: testInfo.outputPath('Swap-impact-375.png') })
  await swap.getByLabel('Amount').fill('20')
  await expect(swap.getByRole('alert')).toHaveText('This trade would move the price by more than 15 %: swap a smaller amount')
  await expect(swap.getByRole('button', { name: 'Swap', exact: true })).toBeDisabled()
})
