import type { Page } from '@playwright/test'
import { ed25519 } from '@noble/curves/ed25519'
import { base58 } from '@scure/base'
import type { StackManifest } from '../../services/stack/manifest'
import { expect, test } from '../fixtures'
import { accountButton, createWalletInFrame, enterCode, familyStates, secureFrame, socialLogin, startEmailLogin } from '../support/emailLogin'

/** The widget's short address (SPEC §5): 4 characters at the start and 6 at the end. */
const shorten = (address: string) => `${address.slice(0, 4)}…${address.slice(-6)}`

/** One JSON-RPC call to the local Solana chain. */
async function solanaRpc<T>(rpcUrl: string, method: string, params: unknown[]): Promise<T> {
  const response = await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })
  const body = (await response.json()) as { result?: T; error?: { message: string } }
  if (body.error) throw new Error(`${method}: ${body.error.message}`)
  return body.result as T
}
const chainBalance = async (rpcUrl: string, address: string) => BigInt((await solanaRpc<{ value: number }>(rpcUrl, 'getBalance', [address])).value)

/**
 * An e-mail login (a new account: its wallet is made in the frame) on the demo offering EVM and Solana networks;
 * resolves to the two accounts the one login connected.
 */
async function loginWithBothFamilies(page: Page, stack: StackManifest, email: string) {
  await page.goto(`${stack.demo!.url}/?families=eip155,solana`)
  await enterCode(page, await startEmailLogin(page, stack, email))
  await createWalletInFrame(page, 'a long recovery password 5')
  await expect.poll(async () => Object.values(await familyStates(page)).map((s) => s.status), { timeout: 30_000 }).toEqual(['connected', 'connected'])
  const states = await familyStates(page)
  return { evm: states.eip155!.address!, solana: states.solana!.address! }
}

test('one e-mail login connects an EVM and a Solana account; the Solana one signs in the frame, the signature verifies with ed25519, and a reload keeps both', async ({ page, stack }) => {
  test.setTimeout(90_000)
  const solana = stack.solana!
  const accounts = await loginWithBothFamilies(page, stack, `e2e-solana-${Date.now()}@tessera.test`)
  expect(accounts.evm).toMatch(/^0x[0-9a-fA-F]{40}$/)
  expect(base58.decode(accounts.solana)).toHaveLength(32)
  expect((await familyStates(page)).solana!.activeCaipNetworkId).toBe(solana.caipNetworkId)

  // The Account view: the EVM account first (the active family), its Solana account one switch away.
  await accountButton(page, accounts.evm).click()
  const account = page.getByRole('dialog', { name: 'Account' })
  await account.getByRole('button', { name: /^Switch to Solana/ }).click()
  await expect(account.getByText(shorten(accounts.solana))).toBeVisible()
  await expect(account.getByRole('button', { name: 'Network Solana Local' })).toBeVisible()

  // A message signed on Solana: the frame shows it, the person signs there, the page gets a base58 ed25519 signature.
  const message = 'Hello from the e-mail wallet on Solana'
  const signing = page.evaluate(
    ([text, address]) => (window as unknown as { widget: { getConnectedConnector: (ns: string) => { signMessage: (m: string, a: string) => Promise<string> } } }).widget.getConnectedConnector('solana').signMessage(text, address),
    [message, accounts.solana] as const,
  )
  const frame = secureFrame(page)
  await expect(frame.getByText(message)).toBeVisible()
  await frame.getByRole('button', { name: 'Sign' }).click()
  const signature = base58.decode(await signing)
  expect(ed25519.verify(signature, new TextEncoder().encode(message), base58.decode(accounts.solana))).toBe(true)
  expect(ed25519.verify(signature, new TextEncoder().encode(`${message}!`), base58.decode(accounts.solana))).toBe(false)
  await expect(page.locator('iframe[data-tessera-frame]')).toHaveCSS('visibility', 'hidden')

  // A reload keeps the login: both families reconnect, each with its own account, without a password; Solana, the
  // family the visitor was on, stays the active one.
  await page.reload()
  await expect(accountButton(page, accounts.solana)).toBeVisible({ timeout: 30_000 })
  await expect.poll(() => familyStates(page), { timeout: 30_000 }).toEqual({
    eip155: expect.objectContaining({ status: 'connected', address: accounts.evm }),
    solana: { status: 'connected', address: accounts.solana, activeCaipNetworkId: solana.caipNetworkId },
  })
})

test('the Solana account of an e-mail login sends SOL approved in the frame, which lands on the chain; disconnecting Solana ends both families', async ({ page, stack }) => {
  test.setTimeout(90_000)
  const solana = stack.solana!
  const receiver = solana.devAccounts[5]!
  const accounts = await loginWithBothFamilies(page, stack, `e2e-solana-send-${Date.now()}@tessera.test`)

  // The new account gets 2 SOL from the local chain's faucet.
  await solanaRpc(solana.rpcUrl, 'requestAirdrop', [accounts.solana, 2_000_000_000])
  await expect.poll(() => chainBalance(solana.rpcUrl, accounts.solana), { timeout: 20_000 }).toBe(2_000_000_000n)
  const receiverBefore = await chainBalance(solana.rpcUrl, receiver)

  await accountButton(page, accounts.evm).click()
  const account = page.getByRole('dialog', { name: 'Account' })
  await account.getByRole('button', { name: /^Switch to Solana/ }).click()
  await expect(account.getByText(shorten(accounts.solana))).toBeVisible()
  await account.getByRole('button', { name: 'Send' }).click()
  const send = page.getByRole('dialog', { name: 'Send' })
  await send.getByRole('combobox', { name: /^Token/ }).click()
  await send.getByRole('option', { name: /^SOL/ }).click()
  await send.getByLabel('Amount').fill('0.1')
  await send.getByLabel('To (address)').fill(receiver)
  await send.getByRole('button', { name: 'Send' }).click()

  // The frame shows the transfer it is asked to sign; once signed there, the widget sends it.
  const frame = secureFrame(page)
  await expect(frame.getByText(`Send 0.1 SOL to ${receiver}`)).toBeVisible({ timeout: 20_000 })
  await frame.getByRole('button', { name: 'Sign' }).click()
  await expect(account).toBeVisible()
  await expect.poll(() => chainBalance(solana.rpcUrl, receiver), { timeout: 20_000 }).toBe(receiverBefore + 100_000_000n)
  // The sender paid the amount and LiteSVM's fee of 5,000 lamports a signature, nothing else.
  expect(await chainBalance(solana.rpcUrl, accounts.solana)).toBe(2_000_000_000n - 100_000_000n - 5_000n)

  // One login, one session: ending it on Solana signs out and ends EVM too (SPEC §4).
  await account.getByRole('button', { name: 'Disconnect · Solana' }).click()
  await expect(page.getByRole('dialog', { name: 'Connect Wallet' })).toBeVisible()
  expect(Object.values(await familyStates(page)).map((s) => s.status)).toEqual(['disconnected', 'disconnected'])
  expect(await page.evaluate(() => localStorage.getItem('tessera:v1:connectedNamespaces'))).toBeNull()
  // Signed out in the frame too: a reload connects nothing.
  await page.reload()
  await expect(page.getByRole('button', { name: 'Connect Wallet' })).toBeVisible({ timeout: 30_000 })
  await expect(accountButton(page, accounts.evm)).toHaveCount(0)
  expect(Object.values(await familyStates(page)).map((s) => s.status)).toEqual(['disconnected', 'disconnected'])
})

test('a social login on a site with EVM and Solana networks connects both accounts too', async ({ page, stack }) => {
  test.setTimeout(90_000)
  // Bob at the local Google provider: no other journey signs in with him there.
  const user = stack.auth!.devUsers[1]!
  await page.goto(`${stack.demo!.url}/?families=eip155,solana`)
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  // New on a first run, known on a later run against the same stack.
  await socialLogin(page, 'Google', user, 'a long recovery password 6')
  await expect.poll(async () => Object.values(await familyStates(page)).map((s) => s.status), { timeout: 30_000 }).toEqual(['connected', 'connected'])
  const states = await familyStates(page)
  expect(states.eip155!.address).toMatch(/^0x[0-9a-fA-F]{40}$/)
  expect(base58.decode(states.solana!.address!)).toHaveLength(32)
  await expect(accountButton(page, states.eip155!.address!)).toBeVisible()
  expect(await page.evaluate(() => localStorage.getItem('tessera:v1:connectedSocialProvider'))).toBe('"google"')
})
