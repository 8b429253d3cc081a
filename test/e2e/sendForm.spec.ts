import AxeBuilder from '@axe-core/playwright'
import type { Locator, Page, Request } from '@playwright/test'
import { createPublicClient, createTestClient, erc20Abi, formatEther, http, parseEther, parseUnits, type Address } from 'viem'
import { formatTokenQuantity } from '../../src/shared/protocol/display'
import { expect, test } from '../fixtures'
import type { StackManifest } from '../../services/stack/manifest'

// axe judges contrast as the page is at that moment: the modal's 160 ms fade-in, caught half-way on a loaded machine, read
// as a contrast failure. With reduced motion (which the widget honours) every view is checked as it rests.
test.use({ reducedMotion: 'reduce' })

/**
 * The send form as a visitor meets it: every wrong input said in one sentence of their language, before anything is
 * asked of the node or the wallet; the token picker by keyboard and screen reader; nothing long widening the modal.
 */

// These journeys type, wait for debounced checks and run axe on a loaded 2-core machine: each has room of its own.
const JOURNEY_TIMEOUT_MS = 90_000

type DevWallet = { switchAccount: (address: string) => void }

/** Connects the dev wallet and opens Send from Account, whether the modal stayed on Account after connecting or closed. */
async function openSend(page: Page, { url, account }: { url: string; account?: Address }) {
  await page.goto(url)
  const connectLabel = /^(Connect Wallet|Connecter un portefeuille)$/
  await page.getByRole('button', { name: connectLabel }).click()
  await page.getByRole('dialog').getByRole('button', { name: /Tessera Dev Wallet/ }).click()
  const accountButton = page.getByRole('button', { name: /0x[0-9a-fA-F]{2}…[0-9a-fA-F]{6}/ })
  await expect(accountButton).toBeVisible()
  if (account) await page.evaluate((a) => (window as unknown as { devWallet: DevWallet }).devWallet.switchAccount(a), account)
  if (account) await expect(page.getByRole('button', { name: new RegExp(`${account.slice(0, 4)}…${account.slice(-6)}`) })).toBeVisible()
  // Connected: the modal is on Account, or closed on the page (as peer kits do); either way Account opens from its button.
  const accountDialog = page.getByRole('dialog', { name: /^(Account|Compte)$/ })
  await expect.poll(async () => (await accountDialog.isVisible()) || (await page.getByRole('dialog').count()) === 0, { timeout: 15_000 }).toBe(true)
  if (!(await accountDialog.isVisible())) await accountButton.click()
  await accountDialog.getByRole('button', { name: /^(Send|Envoyer)$/ }).click()
  const send = page.getByRole('dialog', { name: /^(Send|Envoyer)$/ })
  await expect(send).toBeVisible()
  return send
}

/** The JSON-RPC methods of every request the page and its worker send to `rpcUrl`, with their bodies. */
function watchRpc(page: Page, rpcUrl: string) {
  const calls: { method: string; body: string }[] = []
  const onRequest = (request: Request) => {
    if (!request.url().startsWith(rpcUrl) || request.method() !== 'POST') return
    const body = request.postData() ?? ''
    try {
      const parsed = JSON.parse(body) as { method: string } | { method: string }[]
      for (const call of Array.isArray(parsed) ? parsed : [parsed]) calls.push({ method: call.method, body: JSON.stringify(call) })
    } catch {
      calls.push({ method: '?', body })
    }
  }
  page.on('request', onRequest)
  return {
    /** The calls that carry `text` (an address without its 0x, lower case): a transfer to it, priced or sent. */
    carrying: (text: string) => calls.filter((c) => c.body.toLowerCase().includes(text.toLowerCase())),
    methods: () => calls.map((c) => c.method),
  }
}

/** Registers `name` for the anvil account `addressIndex` through the data service, as its owner would. */
async function registerName(stack: StackManifest, name: string, addressIndex: number) {
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
  return owner.address
}

/** A mixed-case address whose EIP-55 checksum fails: the case of its first letter flipped. */
const breakChecksum = (address: string) => {
  const at = [...address].findIndex((c, i) => i > 1 && /[a-fA-F]/.test(c))
  const c = address[at]!
  return `${address.slice(0, at)}${c === c.toUpperCase() ? c.toLowerCase() : c.toUpperCase()}${address.slice(at + 1)}`
}

/** An amount as the widget writes it in English: thousands grouped by commas. */
const grouped = (value: string) => value.replace(/^\d+/, (whole) => whole.replace(/\B(?=(\d{3})+(?!\d))/g, ','))

async function pickToken(send: Locator, symbol: string) {
  await send.getByRole('combobox', { name: /^(Token|Jeton)/ }).click()
  await send.getByRole('option', { name: new RegExp(`^${symbol}`) }).click()
  await expect(send.getByRole('combobox', { name: /^(Token|Jeton)/ })).toContainText(symbol)
}

test('every wrong amount or receiver gets one English sentence, before any request for it; names resolve as they are typed', async ({ page, stack }) => {
  test.setTimeout(JOURNEY_TIMEOUT_MS)
  const chain = stack.chains[0]!
  const tsr = chain.tokens.find((t) => t.symbol === 'TSR')!
  const receiver = stack.devAccounts[3]!
  const rpc = watchRpc(page, chain.rpcUrl)
  const lookups: string[] = []
  page.context().on('request', (request) => {
    const match = /\/v1\/profile\/account\/([^/?]+)/.exec(request.url())
    if (match && request.method() === 'GET') lookups.push(decodeURIComponent(match[1]!))
  })
  const send = await openSend(page, { url: stack.demo!.url })
  const amount = send.getByLabel('Amount')
  const to = send.getByLabel('To (address or name)')
  const submit = send.getByRole('button', { name: 'Send' })
  const alert = send.getByRole('alert')
  await pickToken(send, 'TSR')
  await to.fill(receiver)

  // Each wrong amount: its one sentence, Send disabled.
  for (const [typed, sentence] of [
    ['0', 'Enter an amount greater than 0'],
    ['-1', 'The amount cannot be negative'],
    ['abc', 'Enter the amount in digits, as in 1.5'],
    ['1e3', 'Enter the amount in digits, as in 1.5'],
    ['1,5', 'Use a point for decimals, as in 1.5'],
    ['0.0000000000000000001', 'Too many decimals: TSR has 18'],
    ['1000000000', 'Not enough TSR for this amount'],
  ] as const) {
    await amount.fill(typed)
    await expect(alert, typed).toHaveText(sentence)
    await expect(submit).toBeDisabled()
    await expect(amount).toHaveAttribute('aria-invalid', 'true')
  }
  // More than the balance: Enter in the field and a click on the button send nothing, and nothing is asked for it.
  await amount.press('Enter')
  await submit.click({ force: true })
  await expect(page.getByRole('dialog', { name: 'Approve transaction' })).toHaveCount(0)
  await expect(alert).toHaveText('Not enough TSR for this amount')
  await expect(send).not.toContainText(/revert|execution|RPC|gas \*/i)
  expect(rpc.carrying(receiver.slice(2))).toEqual([])

  // English groups thousands with commas: 1,500 is fifteen hundred, and can be sent.
  await amount.fill('1,500')
  await expect(alert).toHaveCount(0)
  await expect(submit).toBeEnabled()
  // The counter would have seen a priced transfer: here is one (the test above can fail).
  await expect.poll(() => rpc.carrying(receiver.slice(2)).map((c) => c.method)).toContain('eth_estimateGas')

  // Receivers: a checksum typo, something that is not an address, an unknown name said while typing.
  await to.fill(breakChecksum(receiver))
  await expect(alert).toHaveText('This address has a typo: its capital letters do not match its checksum')
  await expect(submit).toBeDisabled()
  await to.fill(receiver.toLowerCase())
  await expect(alert).toHaveCount(0)
  await to.fill('0x1234')
  await expect(alert).toHaveText('Not a valid address on Tessera Local: enter an address (0x…) or a registered name')
  const unknown = `nobody-${Date.now().toString(36)}.tessera.id`
  await to.fill('')
  await to.pressSequentially(unknown)
  await expect(alert).toHaveText(`No account is registered as ${unknown}`)
  await expect(submit).toBeDisabled()
  // Looked up as a whole name once typed: never a prefix without its dot.
  expect(lookups).toContain(unknown)
  expect(lookups.every((name) => name.includes('.'))).toBe(true)

  // A registered name resolves as it is typed, and the tokens go to its address.
  const label = `sendform-${Date.now().toString(36)}`
  const owner = await registerName(stack, label, 4)
  const node = createPublicClient({ transport: http(chain.rpcUrl) })
  const balanceOf = () => node.readContract({ address: tsr.address, abi: erc20Abi, functionName: 'balanceOf', args: [owner] })
  const before = await balanceOf()
  await to.fill(`${label}.tessera.id`)
  await expect(send.getByRole('status').filter({ hasText: `Sends to ${owner.slice(0, 4)}…${owner.slice(-6)}` })).toBeVisible()
  await amount.fill('2.25')
  await expect(alert).toHaveCount(0)
  await submit.click()
  await expect(page.getByRole('status').filter({ hasText: 'Transaction started' })).toBeVisible()
  await expect.poll(balanceOf, { timeout: 20_000 }).toBe(before + parseUnits('2.25', 18))
})

test('in French, 1,5 is one and a half, and every wrong input is said in French', async ({ page, stack }) => {
  test.setTimeout(JOURNEY_TIMEOUT_MS)
  const chain = stack.chains[0]!
  const tsr = chain.tokens.find((t) => t.symbol === 'TSR')!
  const receiver = stack.devAccounts[5]!
  const send = await openSend(page, { url: `${stack.demo!.url}/?locale=fr` })
  const amount = send.getByLabel('Montant')
  const to = send.getByLabel('À (adresse ou nom)')
  const alert = send.getByRole('alert')
  const submit = send.getByRole('button', { name: 'Envoyer' })
  await pickToken(send, 'TSR')
  // The balance in the picker is written the French way: a narrow no-break space between thousands, a decimal comma.
  await expect(send.getByRole('combobox', { name: /^Jeton/ })).toContainText(/Tessera Token\d{1,3}\u202f\d{3},\d{3}$/)

  await to.fill(receiver)
  for (const [typed, sentence] of [
    ['0', 'Saisissez un montant supérieur à 0'],
    ['-1,5', 'Le montant ne peut pas être négatif'],
    ['abc', 'Saisissez le montant en chiffres, comme 1,5'],
    ['1e3', 'Saisissez le montant en chiffres, comme 1,5'],
    ['0,0000000000000000001', 'Trop de décimales : TSR en a 18'],
    ['1 000 000 000', 'Pas assez de TSR pour ce montant'],
  ] as const) {
    await amount.fill(typed)
    await expect(alert, typed).toHaveText(sentence)
    await expect(submit).toBeDisabled()
  }
  await amount.fill('1')
  await expect(alert).toHaveCount(0)
  await to.fill(breakChecksum(receiver))
  await expect(alert).toHaveText('Cette adresse contient une faute de frappe : ses majuscules ne correspondent pas à sa somme de contrôle')
  const unknown = `personne-${Date.now().toString(36)}.tessera.id`
  await to.fill(unknown)
  await expect(alert).toHaveText(`Aucun compte n’est enregistré sous le nom ${unknown}`)

  // 1,5 is 1.5: exactly that lands on chain.
  const node = createPublicClient({ transport: http(chain.rpcUrl) })
  const balanceOf = () => node.readContract({ address: tsr.address, abi: erc20Abi, functionName: 'balanceOf', args: [receiver] })
  const before = await balanceOf()
  await to.fill(receiver)
  await amount.fill('1,5')
  await expect(alert).toHaveCount(0)
  await submit.click()
  await expect(page.getByRole('status').filter({ hasText: 'Transaction lancée' })).toBeVisible()
  await expect.poll(balanceOf, { timeout: 20_000 }).toBe(before + parseUnits('1.5', 18))
})

test('Max on the native token leaves room for the network fee, and that amount lands', async ({ page, stack }) => {
  test.setTimeout(JOURNEY_TIMEOUT_MS)
  const chain = stack.chains[0]!
  // A fresh account holding 1 ETH, that anvil signs for: Max spends nearly all of it, and no other test uses it.
  const { privateKeyToAccount, generatePrivateKey } = await import('viem/accounts')
  const fresh = privateKeyToAccount(generatePrivateKey()).address
  const anvil = createTestClient({ mode: 'anvil', transport: http(chain.rpcUrl) })
  await anvil.setBalance({ address: fresh, value: parseEther('1') })
  await anvil.impersonateAccount({ address: fresh })
  const node = createPublicClient({ transport: http(chain.rpcUrl) })
  const receiver = stack.devAccounts[6]!
  const receiverBefore = await node.getBalance({ address: receiver })

  const send = await openSend(page, { url: stack.demo!.url, account: fresh })
  await expect(send.getByRole('combobox', { name: /^Token/ })).toContainText('ETH')
  await expect(send.getByRole('combobox', { name: /^Token/ })).toContainText('1.000')
  // The whole balance is more than can be sent: the fee is paid from it too.
  await send.getByLabel('Amount').fill('1')
  await expect(send.getByRole('alert')).toHaveText('Not enough ETH left for the network fee: try Max')
  await send.getByRole('button', { name: 'Max' }).click()
  await expect(send.getByLabel('Amount')).toHaveValue(/^0\.99\d+$/)
  const max = parseEther((await send.getByLabel('Amount').inputValue()) as `${number}`)
  expect(max).toBeLessThan(parseEther('1'))
  await expect(send.getByRole('alert')).toHaveCount(0)
  await send.getByLabel('To (address or name)').fill(receiver)
  await send.getByRole('button', { name: 'Send' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Transaction started' })).toBeVisible()
  await expect.poll(() => node.getBalance({ address: receiver }), { timeout: 20_000 }).toBe(receiverBefore + max)
  // What is left paid the fee.
  const left = await node.getBalance({ address: fresh })
  expect(left).toBeGreaterThanOrEqual(0n)
  expect(Number(formatEther(left))).toBeLessThan(0.01)
  await anvil.stopImpersonatingAccount({ address: fresh })
})

test('the token picker: the network’s currency with a skeleton while balances load, then a listbox used by keyboard, that passes axe', async ({ page, stack }, testInfo) => {
  test.setTimeout(JOURNEY_TIMEOUT_MS)
  const chain = stack.chains[0]!
  const owner = stack.devAccounts[0]!
  // Balances answer only when the test lets them.
  let releaseBalances: () => void = () => {}
  const balancesHeld = new Promise<void>((resolve) => (releaseBalances = resolve))
  await page.context().route(/\/v1\/account\/[^/]+\/balance\?/, async (route) => {
    await balancesHeld
    await route.continue()
  })
  const send = await openSend(page, { url: stack.demo!.url })
  const picker = send.getByRole('combobox', { name: /^Token/ })
  // Never a bare '…', never a native select: the network's currency, a skeleton for its balance, announced as loading.
  await expect(picker).toContainText('ETH')
  await expect(picker).toContainText('Ether')
  await expect(picker).toHaveAttribute('aria-busy', 'true')
  await expect(picker.getByText('Loading balance')).toBeAttached()
  await expect(picker.locator('.skeleton')).toBeVisible()
  await page.screenshot({ path: testInfo.outputPath('Send-loading.png') })
  await expect(send.locator('select')).toHaveCount(0)
  await expect(send).not.toContainText('…')
  releaseBalances()
  await expect(picker).not.toHaveAttribute('aria-busy', 'true')
  // Named by its label, as a field: 'Token', then what it holds.
  await expect(send.getByLabel('Token')).toContainText('ETH')

  // Each token's balance as the data service holds it (its 30 s cache included), at most 3 decimals.
  const { balances } = (await (await fetch(`${stack.services.api}/v1/account/${owner}/balance?chainId=${chain.caipNetworkId}&projectId=${stack.services.projectId}`)).json()) as {
    balances: { symbol: string; quantity: { numeric: string } }[]
  }
  const tsrBalance = balances.find((b) => b.symbol === 'TSR')!.quantity.numeric
  await expect(picker).toHaveAttribute('aria-expanded', 'false')

  // Keyboard: ArrowDown opens on the chosen token, arrows move, Enter chooses, focus goes back to the button.
  await picker.focus()
  await page.keyboard.press('ArrowDown')
  const list = send.getByRole('listbox', { name: 'Token' })
  await expect(list).toBeVisible()
  await expect(list).toBeFocused()
  await expect(picker).toHaveAttribute('aria-expanded', 'true')
  const options = list.getByRole('option')
  await expect(options).toHaveCount(chain.tokens.length + 1)
  await expect(list.getByRole('option', { name: /^ETH/ })).toHaveAttribute('aria-selected', 'true')
  await expect(list.getByRole('option', { name: /^TSR/ })).toContainText(grouped(formatTokenQuantity(tsrBalance)))
  await expect(list.getByRole('option', { name: /^TSR/ }).locator('img, [data-generated]')).toHaveCount(1)
  const activeName = async () => list.evaluate((el) => el.querySelector(`[id="${el.getAttribute('aria-activedescendant')}"]`)?.textContent ?? '')
  expect(await activeName()).toMatch(/^ETH/)
  await page.keyboard.press('End')
  const last = (await options.last().textContent())!
  expect(await activeName()).toBe(last)
  await page.keyboard.press('Home')
  expect(await activeName()).toMatch(/^ETH/)

  // With the list open, the view passes axe in both themes.
  for (const mode of ['dark', 'light']) {
    await page.evaluate((m) => (window as unknown as { widget: { setThemeMode: (m: string) => void } }).widget.setThemeMode(m), mode)
    const results = await new AxeBuilder({ page }).analyze()
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), mode).toEqual([])
    await page.screenshot({ path: testInfo.outputPath(`Send-picker-open-${mode}.png`) })
  }
  await expect(list).toBeVisible()
  await list.focus()

  // Type-ahead: T goes to the first token starting with T; Enter chooses it.
  await page.keyboard.press('t')
  expect(await activeName()).toMatch(/^T/)
  const chosen = (await activeName()).match(/^(TSR|TUSD)/)![1]!
  await page.keyboard.press('Enter')
  await expect(list).toHaveCount(0)
  await expect(picker).toBeFocused()
  await expect(picker).toContainText(chosen)

  // Escape closes the list and only the list: the modal stays, focus is back on the button.
  await page.keyboard.press('Enter')
  await expect(list).toBeVisible()
  await page.keyboard.press('ArrowDown')
  await page.keyboard.press('Escape')
  await expect(list).toHaveCount(0)
  await expect(send).toBeVisible()
  await expect(picker).toBeFocused()
  await expect(picker).toContainText(chosen)
  // Tab closes it too and goes on to the amount, as a native select would.
  await page.keyboard.press('ArrowUp')
  await expect(list).toBeVisible()
  await page.keyboard.press('Tab')
  await expect(list).toHaveCount(0)
  await expect(send.getByLabel('Amount')).toBeFocused()
  // A click outside closes it (the list lies over the fields below it: the title is outside).
  await picker.click()
  await expect(list).toBeVisible()
  await send.getByRole('heading', { name: 'Send' }).click()
  await expect(list).toHaveCount(0)
  await expect(send).toBeVisible()
  // Max fills the chosen token's balance.
  await send.getByRole('button', { name: 'Max' }).click()
  await expect(send.getByLabel('Amount')).not.toHaveValue('')
})

test('at phone width nothing long widens the modal, and a disabled Send looks and behaves disabled', async ({ page, stack }, testInfo) => {
  test.setTimeout(JOURNEY_TIMEOUT_MS)
  await page.setViewportSize({ width: 375, height: 800 })
  const chain = stack.chains[0]!
  const rpc = watchRpc(page, chain.rpcUrl)
  const send = await openSend(page, { url: stack.demo!.url })
  const horizontalOverflow = () => send.evaluate((dialog) => dialog.scrollWidth - dialog.clientWidth)
  const amount = send.getByLabel('Amount')
  const to = send.getByLabel('To (address or name)')
  const submit = send.getByRole('button', { name: 'Send' })
  expect(await horizontalOverflow()).toBeLessThanOrEqual(0)

  // A 100-digit amount, a 63-letter name, a 256-character receiver: each said, none widening the dialog.
  await amount.fill('9'.repeat(100))
  await expect(send.getByRole('alert')).toHaveText(/^Not enough \w+ for this amount$/)
  expect(await horizontalOverflow()).toBeLessThanOrEqual(0)
  const longName = `${'a'.repeat(63)}.tessera.id`
  await to.fill(longName)
  await expect(send.getByRole('alert').filter({ hasText: 'No account is registered as' })).toHaveText(`No account is registered as ${longName}`)
  expect(await horizontalOverflow()).toBeLessThanOrEqual(0)
  await to.fill(`0x${'ab'.repeat(127)}`)
  await expect(to).toHaveValue(`0x${'ab'.repeat(127)}`)
  await expect(send.getByRole('alert').filter({ hasText: 'Not a valid address on Tessera Local' })).toBeVisible()
  expect(await horizontalOverflow()).toBeLessThanOrEqual(0)
  await page.screenshot({ path: testInfo.outputPath('Send-long-inputs-375.png') })
  await send.getByRole('combobox', { name: /^Token/ }).click()
  await expect(send.getByRole('listbox')).toBeVisible()
  expect(await horizontalOverflow()).toBeLessThanOrEqual(0)
  await page.keyboard.press('Escape')

  // Disabled: faded, a not-allowed cursor, and it sends nothing, neither by click nor by Enter in a field.
  await expect(submit).toBeDisabled()
  expect(Number(await submit.evaluate((el) => getComputedStyle(el).opacity))).toBeLessThan(0.6)
  expect(await submit.evaluate((el) => getComputedStyle(el).cursor)).toBe('not-allowed')
  await amount.press('Enter')
  await submit.click({ force: true })
  await expect(page.getByRole('dialog', { name: 'Approve transaction' })).toHaveCount(0)
  expect(rpc.methods()).not.toContain('eth_sendTransaction')
  // Enabled, it looks enabled.
  await amount.fill('1')
  await to.fill(stack.devAccounts[3]!)
  await expect(submit).toBeEnabled()
  expect(Number(await submit.evaluate((el) => getComputedStyle(el).opacity))).toBe(1)
  expect(await submit.evaluate((el) => getComputedStyle(el).cursor)).toBe('pointer')
  expect(await horizontalOverflow()).toBeLessThanOrEqual(0)
})
