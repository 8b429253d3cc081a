import type { Page } from '@playwright/test'
import type { Address } from 'viem'
import { expect, test } from '../fixtures'
import type { StackManifest } from '../../services/stack/manifest'

type StoredSession = { id: string; caipAddress: string; signature: string }
type DevWindow = { devWallet: { switchAccount: (address: Address) => void } }

/** The connect button once connected: its name ends with the shortened address, which ends with the address's last 6 characters. */
const accountButton = (page: Page, address: string) => page.getByRole('button', { name: new RegExp(`${address.slice(-6)}$`) })
/** What the page remembers of its sessions (the default SIWX's browser storage). */
const storedSessions = (page: Page) => page.evaluate(() => JSON.parse(localStorage.getItem('tessera:v1:siwxSessions') ?? '[]') as StoredSession[])
/** The session as the data service reports it, asked over its HTTP API. */
const serviceSession = async (stack: StackManifest, id: string) =>
  (await (await fetch(`${stack.services.api}/v1/sessions/${id}?projectId=${stack.services.projectId}`)).json()) as { caipAddress: string; revoked: boolean }

/** Connects the dev wallet on the demo with sign-in on, and signs in. */
async function connectAndSignIn(page: Page, stack: StackManifest, siwx: 'required' | 'optional') {
  await page.goto(`${stack.demo!.url}/?siwx=${siwx}`)
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  await page.getByRole('dialog', { name: 'Connect Wallet' }).getByRole('button', { name: /Tessera Dev Wallet/ }).click()
  await page.getByRole('dialog', { name: 'Sign in' }).getByRole('button', { name: 'Sign' }).click()
  await expect(page.getByRole('dialog')).toHaveCount(0)
  await expect(accountButton(page, stack.devAccounts[0]!)).toBeVisible()
}

test('sign-in follows the account: another account is asked to sign in, then another network; declining disconnects and signs out', async ({ page, stack }) => {
  const [first, second] = [stack.devAccounts[0]!, stack.devAccounts[1]!]
  const [chain, otherChain] = [stack.chains[0]!, stack.chains[1]!]
  await connectAndSignIn(page, stack, 'required')

  // The wallet switches account, as a visitor does in the extension: that account has no session yet.
  await page.evaluate((address) => (window as unknown as DevWindow).devWallet.switchAccount(address), second)
  const signIn = page.getByRole('dialog', { name: 'Sign in' })
  await signIn.getByRole('button', { name: 'Sign' }).click()
  await expect(page.getByRole('dialog')).toHaveCount(0)
  await expect(accountButton(page, second)).toBeVisible()
  const sessions = await storedSessions(page)
  expect(sessions.map((s) => s.caipAddress)).toEqual([`${chain.caipNetworkId}:${first}`, `${chain.caipNetworkId}:${second}`])
  const secondSession = sessions[1]!
  expect(await serviceSession(stack, secondSession.id)).toMatchObject({ caipAddress: `${chain.caipNetworkId}:${second}`, revoked: false })

  // Another network: its session is not this one's, so the visitor is asked again (the view the switch came from gives way).
  await accountButton(page, second).click()
  await page.getByRole('dialog', { name: 'Account' }).getByRole('button', { name: new RegExp(`^Network ${chain.name}`) }).click()
  await page.getByRole('dialog', { name: 'Choose Network' }).getByRole('button', { name: otherChain.name }).click()
  await expect(signIn).toBeVisible()
  await expect.poll(() => page.evaluate(() => (window as unknown as { widget: { getState: () => { activeCaipNetworkId: string } } }).widget.getState().activeCaipNetworkId)).toBe(otherChain.caipNetworkId)

  // Declining, with sign-in required, disconnects; and disconnecting signs the account out at the service.
  await signIn.getByRole('button', { name: 'Cancel' }).click()
  await expect(page.getByRole('button', { name: 'Connect Wallet' })).toBeVisible()
  await expect.poll(async () => (await serviceSession(stack, secondSession.id)).revoked).toBe(true)
  expect((await storedSessions(page)).map((s) => s.caipAddress)).toEqual([`${chain.caipNetworkId}:${first}`])
  expect(await serviceSession(stack, sessions[0]!.id)).toMatchObject({ revoked: false })
})

test('with sign-in optional, another account is asked too, and declining only closes', async ({ page, stack }) => {
  const second = stack.devAccounts[1]!
  await connectAndSignIn(page, stack, 'optional')
  await page.evaluate((address) => (window as unknown as DevWindow).devWallet.switchAccount(address), second)
  await page.getByRole('dialog', { name: 'Sign in' }).getByRole('button', { name: 'Cancel' }).click()
  await expect(page.getByRole('dialog')).toHaveCount(0)
  await expect(accountButton(page, second)).toBeVisible()
})

test('disconnecting signs out: the session is forgotten by the page and reported revoked by the data service', async ({ page, stack }) => {
  const first = stack.devAccounts[0]!
  await connectAndSignIn(page, stack, 'required')
  const [session] = await storedSessions(page)
  expect(await serviceSession(stack, session!.id)).toMatchObject({ revoked: false })

  await accountButton(page, first).click()
  await page.getByRole('dialog', { name: 'Account' }).getByRole('button', { name: 'Disconnect', exact: true }).click()
  const connect = page.getByRole('dialog', { name: 'Connect Wallet' })
  await expect(connect).toBeVisible()
  await expect.poll(async () => (await serviceSession(stack, session!.id)).revoked).toBe(true)
  expect(await storedSessions(page)).toEqual([])

  // Connecting again asks to sign in again.
  await connect.getByRole('button', { name: /Tessera Dev Wallet/ }).click()
  await expect(page.getByRole('dialog', { name: 'Sign in' })).toBeVisible()
})
