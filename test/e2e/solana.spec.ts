import type { Page } from '@playwright/test'
import { formatTokenQuantity, formatUnits } from '../../src/shared/protocol/display'
import { expect, test } from '../fixtures'

/** The widget's short address (SPEC §5), either family: 4 characters at the start (an EVM address's 0x among them) and 6 at the end. */
const shorten = (address: string) => `${address.slice(0, 4)}…${address.slice(-6)}`
/** An amount as the widget shows it in English: its digits, thousands grouped by commas. */
const grouped = (value: string) => value.replace(/^\d+/, (whole) => whole.replace(/\B(?=(\d{3})+(?!\d))/g, ','))

/** The SOL balance the local chain holds for `address`, asked of its RPC directly. */
async function chainBalance(rpcUrl: string, address: string) {
  const response = await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getBalance', params: [address] }) })
  return BigInt(((await response.json()) as { result: { value: number } }).result.value)
}
/** Lamports as the widget shows SOL: truncated to 3 decimals. */
const asSol = (lamports: bigint) => `${lamports / 1_000_000_000n}.${(lamports % 1_000_000_000n).toString().padStart(9, '0').slice(0, 3)}`

async function connectSolana(page: Page) {
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  const connect = page.getByRole('dialog', { name: 'Connect Wallet' })
  await connect.getByRole('button', { name: /Tessera Dev Solana Wallet/ }).click()
}

test('a visitor connects the dev Solana wallet and sees its address and the SOL the chain holds; a reload keeps it', async ({ page, stack }) => {
  const solana = stack.solana!
  const account = solana.devAccounts[0]!
  await page.goto(stack.demo!.url)
  await connectSolana(page)

  await page.getByRole('button', { name: new RegExp(shorten(account)) }).click()
  const dialog = page.getByRole('dialog', { name: 'Account' })
  await expect(dialog.getByText(shorten(account))).toBeVisible()
  await expect(dialog.getByText('Connected with Tessera Dev Solana Wallet')).toBeVisible()
  await expect(dialog.getByLabel('Balance')).toHaveText(`${grouped(asSol(await chainBalance(solana.rpcUrl, account)))} SOL`)
  await expect(dialog.getByRole('button', { name: 'Network Solana Local' })).toBeVisible()
  // Activity and names are EVM's (SPEC §9), and the view says so.
  await expect(dialog.getByText('Activity and names are on EVM networks.')).toBeVisible()
  await expect(dialog.getByRole('button', { name: 'Activity' })).toHaveCount(0)

  await page.reload()
  await expect(page.getByRole('button', { name: new RegExp(shorten(account)) })).toBeVisible()
})

test('Tokens lists SOL and the site’s SPL token with the balances the chain holds', async ({ page, stack }) => {
  const solana = stack.solana!
  const owner = solana.devAccounts[0]!
  await page.goto(stack.demo!.url)
  await connectSolana(page)
  await page.getByRole('button', { name: new RegExp(shorten(owner)) }).click()
  await page.getByRole('dialog', { name: 'Account' }).getByRole('button', { name: 'Tokens' }).click()
  const rows = page.getByRole('dialog', { name: 'Tokens' }).getByRole('list', { name: 'Your tokens on Solana Local' }).getByRole('listitem')
  await expect(rows).toHaveCount(2)
  const [lamports, held] = await Promise.all([chainBalance(solana.rpcUrl, owner), chainTokenBalance(solana.rpcUrl, owner, solana.mint.address)])
  await expect(rows.nth(0)).toHaveText(`SOLSolana${grouped(asSol(lamports))}`)
  await expect(rows.nth(1)).toHaveText(`TUSDTessera USD${grouped(formatTokenQuantity(formatUnits(held, 6)))}`)
})

test('EVM and Solana at once: Account switches between the two, disconnecting one keeps the other, and a reload keeps it', async ({ page, stack }) => {
  const solanaAccount = stack.solana!.devAccounts[0]!
  const evmAccount = stack.devAccounts[0]!
  await page.goto(stack.demo!.url)
  await connectSolana(page)
  await page.getByRole('button', { name: new RegExp(shorten(solanaAccount)) }).click()
  const account = page.getByRole('dialog', { name: 'Account' })
  await expect(account.getByText(shorten(solanaAccount))).toBeVisible()

  // Choosing an EVM network while only Solana is connected leads to the EVM wallets.
  await account.getByRole('button', { name: 'Network Solana Local' }).click()
  await page.getByRole('dialog', { name: 'Choose Network' }).getByRole('button', { name: /^Tessera Local EVM/ }).click()
  const connect = page.getByRole('dialog', { name: 'Connect Wallet' })
  await expect(connect.getByRole('button', { name: /Tessera Dev Wallet/ })).toBeVisible()
  await expect(connect.getByRole('button', { name: /Tessera Dev Solana Wallet/ })).toHaveCount(0)
  await connect.getByRole('button', { name: /Tessera Dev Wallet/ }).click()
  await page.getByRole('button', { name: new RegExp(shorten(evmAccount)) }).click()
  await expect(account.getByText(shorten(evmAccount))).toBeVisible()

  await account.getByRole('button', { name: /^Switch to Solana/ }).click()
  await expect(account.getByText(shorten(solanaAccount))).toBeVisible()
  await expect(account.getByRole('button', { name: /^Switch to EVM/ })).toBeVisible()

  await account.getByRole('button', { name: 'Disconnect · Solana' }).click()
  await expect(account.getByText(shorten(evmAccount))).toBeVisible()
  await expect(account.getByRole('button', { name: /^Switch to/ })).toHaveCount(0)

  await page.reload()
  await expect(page.getByRole('button', { name: new RegExp(shorten(evmAccount)) })).toBeVisible()
  expect(await page.evaluate(() => JSON.parse(localStorage.getItem('tessera:v1:connectedNamespaces') ?? '[]'))).toEqual(['eip155'])
})

/** The SPL balance (base units) the chain holds for `owner` of `mint`. */
async function chainTokenBalance(rpcUrl: string, owner: string, mint: string) {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'getTokenAccountsByOwner', params: [owner, { mint }, { encoding: 'jsonParsed' }] }),
  })
  const accounts = ((await response.json()) as { result: { value: { account: { data: { parsed: { info: { tokenAmount: { amount: string } } } } } }[] } }).result.value
  return accounts.reduce((sum, a) => sum + BigInt(a.account.data.parsed.info.tokenAmount.amount), 0n)
}

test('a visitor sends 0.5 SOL and 2 SPL tokens that land on the chain; bad input gets the spec’s sentence', async ({ page, stack }) => {
  test.setTimeout(60_000)
  const solana = stack.solana!
  const receiver = solana.devAccounts[7]!
  const mint = solana.mint.address
  const [solBefore, tokensBefore] = await Promise.all([chainBalance(solana.rpcUrl, receiver), chainTokenBalance(solana.rpcUrl, receiver, mint)])
  await page.goto(stack.demo!.url)
  await connectSolana(page)
  await page.getByRole('button', { name: new RegExp(shorten(solana.devAccounts[0]!)) }).click()
  const account = page.getByRole('dialog', { name: 'Account' })
  const send = page.getByRole('dialog', { name: 'Send' })
  const fillForm = async (token: RegExp, amount: string, to: string) => {
    await account.getByRole('button', { name: 'Send' }).click()
    await send.getByRole('combobox', { name: /^Token/ }).click()
    await expect(send.getByRole('option', { name: token })).toHaveCount(1)
    await send.getByRole('option', { name: token }).click()
    await send.getByLabel('Amount').fill(amount)
    await send.getByLabel('To (address)').fill(to)
  }

  // Wrong input first: too many decimals for SOL (9), then zero; each is said under its field and Send stays disabled.
  await fillForm(/^SOL/, '0.0000000001', receiver)
  await expect(send.getByRole('alert')).toHaveText('Too many decimals: SOL has 9')
  await expect(send.getByRole('button', { name: 'Send' })).toBeDisabled()
  // The token list holds the SPL balance the chain holds for the wallet's account (3 decimals, SPEC §5).
  const held = await chainTokenBalance(solana.rpcUrl, solana.devAccounts[0]!, mint)
  await send.getByRole('combobox', { name: /^Token/ }).click()
  await expect(send.getByRole('option', { name: /^TUSD/ })).toHaveText(`TUSDTessera USD${grouped(formatTokenQuantity(formatUnits(held, 6)))}`)
  await page.keyboard.press('Escape')
  await expect(send.getByRole('listbox')).toHaveCount(0)
  await send.getByLabel('Amount').fill('0')
  await expect(send.getByRole('alert')).toHaveText('Enter an amount greater than 0')
  await expect(send.getByRole('button', { name: 'Send' })).toBeDisabled()
  // More than the wallet holds is said before anything is built.
  await send.getByLabel('Amount').fill('1000000000')
  await expect(send.getByRole('alert')).toHaveText('Not enough SOL for this amount')
  await expect(send.getByRole('button', { name: 'Send' })).toBeDisabled()
  await send.getByLabel('Amount').fill('0.5')
  await send.getByLabel('To (address)').fill('not-a-solana-address')
  await expect(send.getByRole('alert')).toHaveText('Not a valid address on Solana Local')
  await send.getByLabel('To (address)').fill(receiver)
  // The fee the chain quotes for this transfer (LiteSVM: 5,000 lamports a signature).
  await expect(send.getByText('Network fee: 0.000005 SOL')).toBeVisible()
  await send.getByRole('button', { name: 'Send' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'Transaction started' })).toBeVisible()
  await expect(account).toBeVisible()
  await expect.poll(() => chainBalance(solana.rpcUrl, receiver), { timeout: 20_000 }).toBe(solBefore + 500_000_000n)

  // The site names its mint (SolanaNetwork tokens): the token shows as TUSD, not as its address.
  await fillForm(/^TUSD/, '2', receiver)
  await send.getByRole('button', { name: 'Send' }).click()
  await expect(account).toBeVisible()
  await expect.poll(() => chainTokenBalance(solana.rpcUrl, receiver, mint), { timeout: 20_000 }).toBe(tokensBefore + 2_000_000n)
})

test('sign in with Solana: the SIWS message is signed by the wallet and the session lands in the data service', async ({ page, stack }) => {
  const solana = stack.solana!
  const account = solana.devAccounts[0]!
  await page.goto(`${stack.demo!.url}/?siwx=required`)
  await connectSolana(page)
  const signIn = page.getByRole('dialog', { name: 'Sign in' })
  await signIn.getByRole('button', { name: 'Sign' }).click()
  await expect(page.getByRole('dialog')).toHaveCount(0)
  const sessions = await page.evaluate(() => JSON.parse(localStorage.getItem('tessera:v1:siwxSessions') ?? '[]') as { id: string; message: string }[])
  expect(sessions).toHaveLength(1)
  expect(sessions[0]!.message).toContain('wants you to sign in with your Solana account:')
  expect(sessions[0]!.message).toContain('Chain ID: localnet')
  const session = await (await fetch(`${stack.services.api}/v1/sessions/${sessions[0]!.id}?projectId=${stack.services.projectId}`)).json()
  expect(session).toMatchObject({ caipAddress: `${solana.caipNetworkId}:${account}`, revoked: false })
  // A reload with the session stays signed in: no sign-in view.
  await page.reload()
  await expect(page.getByRole('button', { name: new RegExp(shorten(account)) })).toBeVisible()
  await expect(page.getByRole('dialog')).toHaveCount(0)
})

test('a phone wallet approves EVM and Solana through our relay; on Solana it signs a send that lands, and disconnecting ends both', async ({ page, stack }) => {
  test.setTimeout(90_000)
  const { createNodeWallet } = await import('../../services/relay/testing/createNodeWallet')
  const solana = stack.solana!
  const phone = await createNodeWallet({
    relayUrl: stack.services.relay,
    chains: stack.chains.map((c) => ({ chainId: c.chainId, rpcUrl: c.rpcUrl })),
    solanaCaipNetworkIds: [solana.caipNetworkId],
    addressIndex: 8,
    name: 'Phone Wallet',
  })
  try {
    const receiver = solana.devAccounts[6]!
    const before = await chainBalance(solana.rpcUrl, receiver)
    await page.goto(stack.demo!.url)
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    await page.getByRole('dialog', { name: 'Connect Wallet' }).getByRole('button', { name: /^WalletConnect/ }).click()
    const qr = page.getByRole('dialog', { name: 'WalletConnect' })
    await phone.pair((await qr.getByRole('link', { name: 'Open in a wallet on this device' }).getAttribute('href'))!)

    await page.getByRole('button', { name: new RegExp(shorten(phone.address)) }).click()
    const account = page.getByRole('dialog', { name: 'Account' })
    await expect(account.getByText(shorten(phone.address))).toBeVisible()
    await account.getByRole('button', { name: /^Switch to Solana/ }).click()
    await expect(account.getByText(shorten(phone.solanaAddress!))).toBeVisible()

    await account.getByRole('button', { name: 'Send' }).click()
    const send = page.getByRole('dialog', { name: 'Send' })
    await send.getByRole('combobox', { name: /^Token/ }).click()
    await send.getByRole('option', { name: /^SOL/ }).click()
    await send.getByLabel('Amount').fill('0.1')
    await send.getByLabel('To (address)').fill(receiver)
    await send.getByRole('button', { name: 'Send' }).click()
    await expect(account).toBeVisible()
    await expect.poll(() => chainBalance(solana.rpcUrl, receiver), { timeout: 20_000 }).toBe(before + 100_000_000n)

    // One session for both families: ending it on Solana ends EVM too (SPEC §4).
    await account.getByRole('button', { name: 'Disconnect · Solana' }).click()
    await expect(page.getByRole('dialog', { name: 'Connect Wallet' })).toBeVisible()
    expect(await page.evaluate(() => localStorage.getItem('tessera:v1:connectedNamespaces'))).toBeNull()
  } finally {
    await phone.close()
  }
})

test('a Solana-only site pairs by WalletConnect with a phone wallet offering Solana only, which signs the SIWS message', async ({ page, stack }) => {
  test.setTimeout(60_000)
  const { createNodeWallet } = await import('../../services/relay/testing/createNodeWallet')
  const phone = await createNodeWallet({ relayUrl: stack.services.relay, chains: [], solanaCaipNetworkIds: [stack.solana!.caipNetworkId], addressIndex: 9, name: 'Solana Phone' })
  try {
    await page.goto(`${stack.demo!.url}/?families=solana&siwx=required`)
    await page.getByRole('button', { name: 'Connect Wallet' }).click()
    await page.getByRole('dialog', { name: 'Connect Wallet' }).getByRole('button', { name: /^WalletConnect/ }).click()
    const qr = page.getByRole('dialog', { name: 'WalletConnect' })
    await phone.pair((await qr.getByRole('link', { name: 'Open in a wallet on this device' }).getAttribute('href'))!)
    // The phone signs the Sign In With Solana message (solana_signMessage through our relay).
    await page.getByRole('dialog', { name: 'Sign in' }).getByRole('button', { name: 'Sign' }).click()
    await expect(page.getByRole('dialog')).toHaveCount(0)
    const sessions = await page.evaluate(() => JSON.parse(localStorage.getItem('tessera:v1:siwxSessions') ?? '[]') as { id: string }[])
    const session = await (await fetch(`${stack.services.api}/v1/sessions/${sessions[0]!.id}?projectId=${stack.services.projectId}`)).json()
    expect(session).toMatchObject({ caipAddress: `${stack.solana!.caipNetworkId}:${phone.solanaAddress}`, revoked: false })
    await page.getByRole('button', { name: new RegExp(shorten(phone.solanaAddress!)) }).click()
    await expect(page.getByRole('dialog', { name: 'Account' }).getByRole('button', { name: 'Network Solana Local' })).toBeVisible()
  } finally {
    await phone.close()
  }
})
