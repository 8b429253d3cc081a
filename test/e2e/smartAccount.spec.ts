import type { Page } from '@playwright/test'
import { createWalletClient, encodeFunctionData, erc20Abi, http, parseEther, toHex, type Address, type Hash } from 'viem'
import { createSiweMessage } from 'viem/siwe'
import { chainReader, expect, test } from '../fixtures'
import type { StackManifest } from '../../services/stack/manifest'
import { accountButton, createWalletInFrame, secureFrame, startEmailLogin, type DemoWindow } from '../support/emailLogin'
import { confirmReview, reviewDialog } from './review'

type EmbeddedWalletInfo = { accountType: 'eoa' | 'smartAccount'; accounts: { address: Address; type: 'eoa' | 'smartAccount' }[]; isSmartAccountDeployed: boolean }
type SmartWindow = { widget: { getState: () => { address?: Address; status: string; namespaces: { eip155?: { embeddedWalletInfo?: EmbeddedWalletInfo } } }; walletRequest: (args: { method: string; params?: unknown }) => Promise<unknown> } }

const embeddedInfo = (page: Page) => page.evaluate(() => (window as unknown as SmartWindow).widget.getState().namespaces.eip155?.embeddedWalletInfo)
const stateAddress = (page: Page) => page.evaluate(() => (window as unknown as SmartWindow).widget.getState().address)
const walletRequest = (page: Page, method: string, params: unknown) =>
  page.evaluate(([m, p]) => (window as unknown as DemoWindow).widget.walletRequest({ method: m as string, params: p }), [method, params] as const)

/** A new e-mail login on the demo (EVM only), its wallet made in the frame; resolves when the widget is connected. */
async function logIn(page: Page, stack: StackManifest, query = '') {
  await page.goto(`${stack.demo!.url}/?families=eip155${query}`)
  const code = await startEmailLogin(page, stack, `e2e-smart-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@tessera.test`)
  const codeView = page.getByRole('dialog', { name: 'Enter your code' })
  await codeView.getByLabel('Code').fill(code)
  await codeView.getByRole('button', { name: 'Continue', exact: true }).click()
  await createWalletInFrame(page, 'a long recovery password for the smart account')
}

/** A session made at the data service from the page (its origin), with a message the smart account signs in the frame. */
async function signInAtService(page: Page, stack: StackManifest, address: Address) {
  const api = stack.services.api
  const projectId = stack.services.projectId
  const { nonce } = (await page.evaluate(async ([url]) => (await fetch(url!, { method: 'POST' })).json(), [`${api}/v1/sessions/nonce?projectId=${projectId}`])) as { nonce: string }
  const demo = new URL(stack.demo!.url)
  const message = createSiweMessage({ address, chainId: stack.chains[0]!.chainId, domain: demo.host, uri: demo.origin, nonce, version: '1', issuedAt: new Date() })
  const signing = walletRequest(page, 'personal_sign', [toHex(message), address])
  // Reviewed first, as every message a site asks to sign: a sign-in for this very page, so no warning.
  await expect(reviewDialog(page).getByLabel('Sign-in').getByRole('definition').first()).toHaveText(demo.host)
  await expect(reviewDialog(page).getByRole('alert')).toHaveCount(0)
  await confirmReview(page)
  await secureFrame(page).getByRole('button', { name: 'Sign' }).click()
  const signature = (await signing) as Hash
  const status = await page.evaluate(
    async ([url, body]) => (await fetch(url!, { method: 'POST', headers: { 'content-type': 'application/json' }, body })).status,
    [`${api}/v1/sessions?projectId=${projectId}`, JSON.stringify({ message, signature })],
  )
  return { status, signature, message }
}

test('e-mail login gives a smart account: sign-in before and after deployment, a sponsored 0.1 ETH send deploys it, eoa and back keeps the session', async ({ page, stack }) => {
  test.setTimeout(150_000)
  const chain = stack.chains[0]!
  const reader = chainReader(chain)
  await logIn(page, stack, '&siwx=required')

  // Sign-in is asked at once: the frame signs for the smart account, not deployed yet (ERC-6492), and the data service accepts it.
  const signIn = page.getByRole('dialog', { name: 'Sign in' })
  await signIn.getByRole('button', { name: 'Sign' }).click()
  await expect(secureFrame(page).getByText('Smart account')).toBeVisible()
  await secureFrame(page).getByRole('button', { name: 'Sign' }).click()
  await expect(page.getByRole('dialog')).toHaveCount(0)
  const info = (await embeddedInfo(page))!
  const smart = info.accounts.find((a) => a.type === 'smartAccount')!.address
  const eoa = info.accounts.find((a) => a.type === 'eoa')!.address
  expect(info).toMatchObject({ accountType: 'smartAccount', isSmartAccountDeployed: false })
  expect(await stateAddress(page)).toBe(smart)
  expect(smart).not.toBe(eoa)
  expect(await reader.getCode({ address: smart })).toBeUndefined()
  const sessions = JSON.parse((await page.evaluate(() => localStorage.getItem('tessera:v1:siwxSessions'))) ?? '[]') as { caipAddress: string }[]
  expect(sessions.map((s) => s.caipAddress)).toEqual([`${chain.caipNetworkId}:${smart}`])

  // 0.1 ETH sent from the smart account: the frame says the app pays the fee; the balance drops by exactly 0.1 and the account is deployed.
  const funder = createWalletClient({ account: stack.devAccounts[0]!, transport: http(chain.rpcUrl) })
  await reader.waitForTransactionReceipt({ hash: await funder.sendTransaction({ chain: null, to: smart, value: parseEther('1') }) })
  const receiver = stack.devAccounts[2]!
  const before = await reader.getBalance({ address: receiver })
  const sending = walletRequest(page, 'eth_sendTransaction', [{ from: smart, to: receiver, value: toHex(parseEther('0.1')) }])
  await confirmReview(page)
  const frame = secureFrame(page)
  await expect(frame.getByText('Paid by the app')).toBeVisible({ timeout: 20_000 })
  await frame.getByRole('button', { name: 'Send' }).click()
  expect((await reader.waitForTransactionReceipt({ hash: (await sending) as Hash })).status).toBe('success')
  expect(await reader.getBalance({ address: smart })).toBe(parseEther('0.9'))
  expect((await reader.getBalance({ address: receiver })) - before).toBe(parseEther('0.1'))
  expect((await reader.getCode({ address: smart }))?.length).toBeGreaterThan(2)

  // Signed in again, now that it is deployed (ERC-1271): the data service makes the session.
  const after = await signInAtService(page, stack, smart)
  expect(after.status).toBe(201)
  expect(await reader.verifyMessage({ address: smart, message: after.message, signature: after.signature })).toBe(true)

  // Account shows the type and switches: to the key's own account (a new address: it is asked to sign in), and back.
  await accountButton(page, smart).click()
  const account = page.getByRole('dialog', { name: 'Account' })
  await account.getByRole('button', { name: /Smart account/ }).click()
  await expect.poll(() => stateAddress(page)).toBe(eoa)
  await page.getByRole('dialog', { name: 'Sign in' }).getByRole('button', { name: 'Sign' }).click()
  await expect(frame.getByText('Smart account')).toHaveCount(0)
  await frame.getByRole('button', { name: 'Sign' }).click()
  await expect(page.getByRole('dialog', { name: 'Sign in' })).toHaveCount(0)
  expect((await embeddedInfo(page))?.accountType).toBe('eoa')
  expect(await page.evaluate(() => localStorage.getItem('tessera:v1:preferredAccountTypes'))).toBe(JSON.stringify({ eip155: 'eoa' }))
  await accountButton(page, eoa).click()
  await page.getByRole('dialog', { name: 'Account' }).getByRole('button', { name: /Regular account/ }).click()
  await expect.poll(() => stateAddress(page)).toBe(smart)
  expect(await page.evaluate(() => (window as unknown as SmartWindow).widget.getState().status)).toBe('connected')
  expect(await page.evaluate(() => localStorage.getItem('tessera:v1:email'))).toContain('e2e-smart-')
})

test('the smart account batches calls into one operation (both or neither), and once its sponsored gas for the day is spent it pays the fee itself', async ({ page, stack }) => {
  test.setTimeout(150_000)
  const chain = stack.chains[0]!
  const token = chain.tokens[0]!
  const reader = chainReader(chain)
  await logIn(page, stack)
  await expect.poll(() => page.evaluate(() => (window as unknown as SmartWindow).widget.getState().status), { timeout: 30_000 }).toBe('connected')
  const smart = (await stateAddress(page))!
  const funder = createWalletClient({ account: stack.devAccounts[0]!, transport: http(chain.rpcUrl) })
  await reader.waitForTransactionReceipt({ hash: await funder.sendTransaction({ chain: null, to: smart, value: parseEther('1') }) })
  await reader.waitForTransactionReceipt({ hash: await funder.writeContract({ chain: null, address: token.address, abi: erc20Abi, functionName: 'transfer', args: [smart, 100n * 10n ** BigInt(token.decimals)] }) })
  const [alice, bob] = [stack.devAccounts[3]!, stack.devAccounts[4]!]
  const tokenBalance = (who: Address) => reader.readContract({ address: token.address, abi: erc20Abi, functionName: 'balanceOf', args: [who] })
  const transfer = (to: Address, amount: bigint) => ({ to: token.address, data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, amount] }) })
  const [aliceBefore, bobBefore] = [await tokenBalance(alice), await tokenBalance(bob)]

  // Two token transfers in one wallet_sendCalls: the frame lists both, and they land in one transaction.
  const frame = secureFrame(page)
  const batching = walletRequest(page, 'wallet_sendCalls', [{ version: '2.0.0', chainId: toHex(chain.chainId), from: smart, atomicRequired: true, calls: [transfer(alice, 1_000_000n), transfer(bob, 2_000_000n)] }])
  await confirmReview(page)
  await expect(frame.getByRole('heading', { name: 'Send 2 calls at once' })).toBeVisible({ timeout: 20_000 })
  await expect(frame.getByText(/^1\. Transfer 1 TUSD/)).toBeVisible()
  await expect(frame.getByText(/^2\. Transfer 2 TUSD/)).toBeVisible()
  await frame.getByRole('button', { name: 'Send' }).click()
  const { id } = (await batching) as { id: Hash }
  await expect.poll(async () => ((await walletRequest(page, 'wallet_getCallsStatus', [id])) as { status: number }).status, { timeout: 20_000 }).toBe(200)
  const status = (await walletRequest(page, 'wallet_getCallsStatus', [id])) as { atomic: boolean; receipts: unknown[] }
  expect(status.atomic).toBe(true)
  expect(status.receipts).toHaveLength(1)
  expect([(await tokenBalance(alice)) - aliceBefore, (await tokenBalance(bob)) - bobBefore]).toEqual([1_000_000n, 2_000_000n])

  // A batch whose second call would revert: the review says so and why before the wallet is asked; declined, the site
  // gets 4001. Confirmed anyway, the wallet refuses it before anything is sent, and nothing changes.
  const held = await tokenBalance(smart)
  const reverting = [{ version: '2.0.0', chainId: toHex(chain.chainId), calls: [transfer(alice, 1n), transfer(bob, 10n ** 30n)] }]
  const declined = walletRequest(page, 'wallet_sendCalls', reverting).catch((error: Error) => error.message)
  await expect(reviewDialog(page).getByRole('alert').filter({ hasText: 'Call 2 would fail: “DemoToken: transfer amount exceeds balance”' })).toBeVisible({ timeout: 30_000 })
  await reviewDialog(page).getByRole('button', { name: 'Reject' }).click()
  expect(await declined).toContain('User rejected the request.')
  const refusing = walletRequest(page, 'wallet_sendCalls', reverting).catch((error: Error) => error.message)
  await confirmReview(page)
  const failing = await refusing
  expect(failing).toContain('Call 2 of 2 would fail (DemoToken: transfer amount exceeds balance): nothing was sent')
  expect(await tokenBalance(smart)).toBe(held)

  // Sends until the paymaster's daily allowance for this account is spent: the frame then says so, and the account pays.
  const receiver = stack.devAccounts[5]!
  for (let attempt = 0; ; attempt++) {
    expect(attempt, 'the daily allowance should run out within ten sends').toBeLessThan(10)
    const balance = await reader.getBalance({ address: smart })
    const sending = walletRequest(page, 'eth_sendTransaction', [{ from: smart, to: receiver, value: toHex(parseEther('0.001')) }])
    await confirmReview(page)
    const refusal = frame.getByText(/has used its sponsored gas for today/)
    await expect(frame.getByText('Paid by the app').or(refusal)).toBeVisible({ timeout: 20_000 })
    const isRefused = await refusal.isVisible()
    if (isRefused) await expect(frame.getByText('Network fee (at most)')).toBeVisible()
    await frame.getByRole('button', { name: 'Send' }).click()
    expect((await reader.waitForTransactionReceipt({ hash: (await sending) as Hash })).status).toBe('success')
    const spent = balance - (await reader.getBalance({ address: smart }))
    if (!isRefused) {
      expect(spent).toBe(parseEther('0.001'))
      continue
    }
    expect(spent).toBeGreaterThan(parseEther('0.001'))
    break
  }
})

test('an injected wallet without EIP-5792 gets the same batch as two transactions, atomic: false, through the widget’s EIP-1193 provider', async ({ page, stack }) => {
  const chain = stack.chains[0]!
  const token = chain.tokens[0]!
  const reader = chainReader(chain)
  const from = stack.devAccounts[0]!
  await page.goto(`${stack.demo!.url}/?families=eip155`)
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  await page.getByRole('dialog', { name: 'Connect Wallet' }).getByRole('button', { name: /Tessera Dev Wallet/ }).click()
  await expect(accountButton(page, from)).toBeVisible()
  type ProviderWindow = { provider: { request: (args: { method: string; params?: unknown }) => Promise<unknown> } }
  const request = (method: string, params: unknown) => page.evaluate(([m, p]) => (window as unknown as ProviderWindow).provider.request({ method: m as string, params: p }), [method, params] as const)

  expect(await request('wallet_getCapabilities', [from, [toHex(chain.chainId)]])).toEqual({ [toHex(chain.chainId)]: { atomic: { status: 'unsupported' } } })
  const [alice, bob] = [stack.devAccounts[6]!, stack.devAccounts[7]!]
  const tokenBalance = (who: Address) => reader.readContract({ address: token.address, abi: erc20Abi, functionName: 'balanceOf', args: [who] })
  const [aliceBefore, bobBefore] = [await tokenBalance(alice), await tokenBalance(bob)]
  const calls = [alice, bob].map((to, index) => ({ to: token.address, data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [to, BigInt(index + 1) * 1_000_000n] }) }))
  // Each batch is reviewed once, call by call, before the wallet is asked; this wallet cannot run them atomically.
  const atomic = request('wallet_sendCalls', [{ version: '2.0.0', chainId: toHex(chain.chainId), from, atomicRequired: true, calls }]).catch((error: Error) => error)
  await expect(reviewDialog(page).getByText('Check what these 2 calls do before your wallet asks you to approve them.')).toBeVisible({ timeout: 30_000 })
  // Each call in words, its function's name under them.
  await expect(reviewDialog(page).getByRole('definition').filter({ hasText: /^Send tokens\s*transfer$/ })).toHaveCount(2)
  await confirmReview(page)
  expect(String(await atomic)).toMatch(/atomic/i)
  const sending = request('wallet_sendCalls', [{ version: '2.0.0', chainId: toHex(chain.chainId), from, calls }])
  await confirmReview(page)
  const { id } = (await sending) as { id: Hash }
  await expect.poll(async () => ((await request('wallet_getCallsStatus', [id])) as { status: number }).status, { timeout: 20_000 }).toBe(200)
  const status = (await request('wallet_getCallsStatus', [id])) as { atomic: boolean; receipts: { transactionHash: Hash }[] }
  expect(status.atomic).toBe(false)
  expect(new Set(status.receipts.map((r) => r.transactionHash)).size).toBe(2)
  expect([(await tokenBalance(alice)) - aliceBefore, (await tokenBalance(bob)) - bobBefore]).toEqual([1_000_000n, 2_000_000n])
  // A call that is not one is refused before the wallet is asked.
  await expect(request('wallet_sendCalls', [{ version: '2.0.0', chainId: toHex(chain.chainId), calls: [{ to: 'nowhere' }] }])).rejects.toThrow('wallet_sendCalls: calls[0].to must be an address starting 0x (40 hex digits).')
})
