// The review before the wallet asks (issue #36), from the demo page with the injected dev wallet: what a Permit2
// signature allows, field by field; a transfer that would revert, said before any wallet is asked; declining is 4001;
// the site's switch turns it off. Each view passes axe and is saved as a screenshot.
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { createPublicClient, encodeFunctionData, erc20Abi, formatUnits, http, keccak256, maxUint160, parseTransaction, stringToHex, verifyMessage, verifyTypedData, type Address, type Hex } from 'viem'
import { createSiweMessage } from 'viem/siwe'
import { expect, test } from '../fixtures'
import { confirmReview, recordWalletRequests, reviewDialog, walletAsked } from './review'

const PERMIT2: Address = '0x000000000022D473030F116dDEE9F6B43aC78BA3'
const account: Address = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const shorten = (address: string) => `${address.slice(0, 4)}…${address.slice(-6)}`

type ProviderWindow = { provider: { request: (args: { method: string; params?: unknown }) => Promise<unknown> } }

/** The demo connected to the injected dev wallet, every method the wallet is asked recorded (walletAsked). */
async function connected(page: Page, url: string) {
  await page.goto(url)
  await page.waitForFunction(() => 'provider' in window)
  await recordWalletRequests(page)
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  await page.getByRole('dialog', { name: 'Connect Wallet' }).getByRole('button', { name: /Tessera Dev Wallet/ }).click()
  await expect(page.getByRole('button', { name: new RegExp(`${shorten(account)}$`) })).toBeVisible()
  await page.keyboard.press('Escape')
  await expect(page.getByRole('dialog')).toHaveCount(0)
}

const request = (page: Page, method: string, params: unknown) =>
  page.evaluate(([method, params]) => (window as unknown as ProviderWindow).provider.request({ method, params }).then((result) => ({ result }), (error: { code: number; message: string }) => ({ error: { code: error.code, message: error.message } })), [method, params] as const)

/** Rejects the review on screen: the site's request gets 4001, and the wallet was never asked for `method`. */
async function rejectReview(page: Page, pending: ReturnType<typeof request>, method: string) {
  await reviewDialog(page).getByRole('button', { name: 'Reject' }).click()
  expect(await pending).toEqual({ error: { code: 4001, message: 'User rejected the request.' } })
  expect(await walletAsked(page)).not.toContain(method)
}

async function expectNoViolations(page: Page, name: string) {
  const results = await new AxeBuilder({ page }).analyze()
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), name).toEqual([])
}

test('a Permit2 signature is laid out field by field with its domain, the unlimited allowance warned, and the wallet signs only after Continue', async ({ page, stack }, testInfo) => {
  await connected(page, stack.demo!.url)
  const token = stack.chains[0]!.tokens[0]!
  const spender = stack.chains[0]!.uniswapV2.router
  const typedData = {
    domain: { name: 'Permit2', chainId: stack.chains[0]!.chainId, verifyingContract: PERMIT2 },
    types: {
      EIP712Domain: [{ name: 'name', type: 'string' }, { name: 'chainId', type: 'uint256' }, { name: 'verifyingContract', type: 'address' }],
      PermitSingle: [{ name: 'details', type: 'PermitDetails' }, { name: 'spender', type: 'address' }, { name: 'sigDeadline', type: 'uint256' }],
      PermitDetails: [{ name: 'token', type: 'address' }, { name: 'amount', type: 'uint160' }, { name: 'expiration', type: 'uint48' }, { name: 'nonce', type: 'uint48' }],
    },
    primaryType: 'PermitSingle',
    message: { details: { token: token.address, amount: maxUint160.toString(), expiration: '1900000000', nonce: '7' }, spender, sigDeadline: '1800000000' },
  }
  const signing = request(page, 'eth_signTypedData_v4', [account, JSON.stringify(typedData)])
  const review = reviewDialog(page)
  // The token is named from the chain: its symbol, not its address.
  await expect(review.getByRole('alert')).toHaveText(`Unlimited approval: ${shorten(spender)} may spend all your ${token.symbol}, now and later, until you revoke it.`)
  const domain = review.getByLabel('Signature for')
  await expect(domain.getByRole('definition')).toHaveText(['Permit2', stack.chains[0]!.name, shorten(PERMIT2)])
  const message = review.getByLabel('Message: PermitSingle')
  await expect(message.getByRole('term')).toHaveText(['details.token', 'details.amount', 'details.expiration', 'details.nonce', 'spender', 'sigDeadline'])
  await expect(message.getByRole('definition')).toHaveText([shorten(token.address), `Unlimited ${token.symbol}`, new Date(1_900_000_000_000).toLocaleString('en'), '7', shorten(spender), new Date(1_800_000_000_000).toLocaleString('en')])
  expect(await walletAsked(page)).not.toContain('eth_signTypedData_v4')
  await expectNoViolations(page, 'the review of typed data')
  await page.screenshot({ path: testInfo.outputPath('ReviewRequest-typedData.png'), fullPage: true })

  await confirmReview(page)
  const { result: signature } = (await signing) as { result: Hex }
  expect(await verifyTypedData({ address: account, ...typedData, signature } as unknown as Parameters<typeof verifyTypedData>[0])).toBe(true)
  await expect(review).toHaveCount(0)
})

test('a transfer that would revert is shown as such, with the reason, before any wallet is asked; rejecting is 4001 and nothing is sent', async ({ page, stack }, testInfo) => {
  await connected(page, stack.demo!.url)
  const token = stack.chains[0]!.tokens[0]!
  const node = createPublicClient({ transport: http(stack.chains[0]!.rpcUrl) })
  const held = await node.readContract({ address: token.address, abi: erc20Abi, functionName: 'balanceOf', args: [account] })
  const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [stack.devAccounts[1]!, held + 1n] })
  const sending = request(page, 'eth_sendTransaction', [{ from: account, to: token.address, data }])
  const review = reviewDialog(page)
  await expect(review.getByRole('alert')).toHaveText(/^This transaction would fail: “.*exceeds balance.*”\. You would still pay the network fee\.$/, { timeout: 30_000 })
  await expect(review.getByRole('definition').filter({ hasText: 'transfer' })).toBeVisible()
  await expect(review.getByText(stack.chains[0]!.name)).toBeVisible()
  expect(await walletAsked(page)).not.toContain('eth_sendTransaction')
  await expectNoViolations(page, 'the review of a transaction that would revert')
  await page.screenshot({ path: testInfo.outputPath('ReviewRequest-revert.png'), fullPage: true })

  await rejectReview(page, sending, 'eth_sendTransaction')
  await expect(page.getByRole('dialog')).toHaveCount(0)
  expect(await node.readContract({ address: token.address, abi: erc20Abi, functionName: 'balanceOf', args: [account] })).toBe(held)
})

test('a plain transfer shows the ETH leaving and the fee; closing the modal declines; with the site’s switch off the wallet is asked at once', async ({ page, stack }) => {
  await connected(page, stack.demo!.url)
  const to = stack.devAccounts[1]!
  const declined = request(page, 'eth_sendTransaction', [{ from: account, to, value: '0x16345785d8a0000' }])
  const review = reviewDialog(page)
  // Each change with its currency's icon and its worth at the data service's price (the stack's ETH is $3,000); the fee too.
  const changes = review.getByTestId('balance-changes').getByRole('listitem')
  await expect(changes).toHaveText(['−0.1 ETH$300.00'], { timeout: 30_000 })
  await expect(changes.locator('> .token-icon')).toHaveCount(1)
  await expect(review.getByText(`Send 0.1 ETH to ${shorten(to)}`)).toBeVisible()
  await expect(review.getByRole('definition').filter({ hasText: /^0\.\d+ ETH \(\$\d+\.\d\d\)$/ })).toHaveCount(1)
  await expect(review.getByText('Network fee (estimate)')).toBeVisible()
  await page.keyboard.press('Escape')
  expect(await declined).toEqual({ error: { code: 4001, message: 'User rejected the request.' } })

  await page.evaluate(() => localStorage.clear())
  await connected(page, `${stack.demo!.url}/?review=off`)
  const { result: hash } = (await request(page, 'eth_sendTransaction', [{ from: account, to, value: '0x1' }])) as { result: Hex }
  expect(hash).toMatch(/^0x[0-9a-f]{64}$/)
  await expect(reviewDialog(page)).toHaveCount(0)
  expect(await walletAsked(page)).toContain('eth_sendTransaction')
})

test('a message to sign shows its text; a sign-in for another site is warned of; the wallet signs only after Continue', async ({ page, stack }, testInfo) => {
  await connected(page, stack.demo!.url)
  const host = new URL(stack.demo!.url).host
  const siwe = (domain: string) =>
    createSiweMessage({ domain, address: account, uri: `http://${domain}/`, version: '1', chainId: stack.chains[0]!.chainId, nonce: 'k7x2m9q4w8e1r5t3', issuedAt: new Date(), expirationTime: new Date(Date.now() + 600_000) })

  const phishing = siwe('wallet-drainer.example')
  const declined = request(page, 'personal_sign', [stringToHex(phishing), account])
  const review = reviewDialog(page)
  await expect(review.getByRole('alert')).toHaveText('This sign-in is for wallet-drainer.example, not for the site you are on: signing it lets wallet-drainer.example act as you. Decline unless you meant to sign in to wallet-drainer.example.')
  await expect(review.getByLabel('Sign-in').getByRole('definition').first()).toHaveText('wallet-drainer.example')
  await expect(review.getByLabel('Message', { exact: true })).toHaveText(phishing)
  expect(await walletAsked(page)).not.toContain('personal_sign')
  await expectNoViolations(page, 'the review of a sign-in message for another site')
  await page.screenshot({ path: testInfo.outputPath('ReviewRequest-message.png'), fullPage: true })
  await rejectReview(page, declined, 'personal_sign')

  const own = siwe(host)
  const signing = request(page, 'personal_sign', [stringToHex(own), account])
  await expect(review.getByLabel('Sign-in').getByRole('definition').first()).toHaveText(host)
  await expect(review.getByRole('alert')).toHaveCount(0)
  await confirmReview(page)
  const { result: signature } = (await signing) as { result: Hex }
  expect(await verifyMessage({ address: account, message: own, signature })).toBe(true)
  await expect(review).toHaveCount(0)
})

test('a blind eth_sign is warned of before the wallet is asked; eth_signTransaction shows what it signs, and the wallet signs only after Continue, sending nothing', async ({ page, stack }, testInfo) => {
  await connected(page, stack.demo!.url)
  const hash = keccak256(stringToHex('an order the site does not show'))
  const declined = request(page, 'eth_sign', [account, hash])
  const review = reviewDialog(page)
  await expect(review.getByRole('alert')).toHaveText('Blind signature: what this signature allows cannot be shown. It can be a transaction or an order that takes your assets. Decline unless you trust this site completely.')
  await expect(review.getByText('The site asks your wallet to sign data as it is (eth_sign).')).toBeVisible()
  await expect(review.getByText(hash)).toBeVisible()
  expect(await walletAsked(page)).not.toContain('eth_sign')
  await expectNoViolations(page, 'the review of a blind signature')
  await page.screenshot({ path: testInfo.outputPath('ReviewRequest-blindSignature.png'), fullPage: true })
  await rejectReview(page, declined, 'eth_sign')

  const signing = request(page, 'eth_sign', [account, hash])
  await confirmReview(page)
  const { result: signature } = (await signing) as { result: Hex }
  // anvil signs eth_sign's bytes as a message (with the EIP-191 prefix), as geth does.
  expect(await verifyMessage({ address: account, message: { raw: hash }, signature })).toBe(true)
  await expect(review).toHaveCount(0)

  // A signed transaction is the site's to send: reviewed as the transfer it is, and nothing reaches the chain.
  const node = createPublicClient({ transport: http(stack.chains[0]!.rpcUrl) })
  const nonce = await node.getTransactionCount({ address: account })
  const to = stack.devAccounts[1]!
  const signingTransaction = request(page, 'eth_signTransaction', [{ from: account, to, value: '0x16345785d8a0000' }])
  await expect(review.getByText('Check what this transaction does before your wallet asks you to sign it. Once it is signed, the site can send it when it likes.')).toBeVisible()
  await expect(review.getByText(`Send 0.1 ETH to ${shorten(to)}`)).toBeVisible({ timeout: 30_000 })
  expect(await walletAsked(page)).not.toContain('eth_signTransaction')
  await confirmReview(page)
  const { result: signed } = (await signingTransaction) as { result: Hex }
  const parsed = parseTransaction(signed)
  expect([parsed.to?.toLowerCase(), parsed.value]).toEqual([to.toLowerCase(), 100_000_000_000_000_000n])
  expect(await node.getTransactionCount({ address: account })).toBe(nonce)
})

test('legacy typed data is warned of and laid out field by field; EIP-712 sent as eth_signTypedData is reviewed and signed like v4', async ({ page, stack }, testInfo) => {
  await connected(page, stack.demo!.url)
  const recipient = stack.devAccounts[1]!
  const fields = [
    { type: 'string', name: 'Message', value: 'Hi, Alice!' },
    { type: 'uint32', name: 'A number', value: '1337' },
    { type: 'address', name: 'Recipient', value: recipient },
  ]
  // MetaMask's eth_signTypedData is legacy typed data (v1): [fields, address].
  const declined = request(page, 'eth_signTypedData', [fields, account])
  const review = reviewDialog(page)
  await expect(review.getByRole('alert')).toHaveText('Legacy typed data: this signature names no site, contract or network, so whoever receives it can use it wherever these fields mean something. Decline unless you trust this site completely.')
  await expect(review.getByText('Check what this signature allows before your wallet asks you to sign it.')).toBeVisible()
  const signed = review.getByLabel('Fields to sign')
  await expect(signed.getByRole('term')).toHaveText(['Message', 'A number', 'Recipient'])
  await expect(signed.getByRole('definition')).toHaveText(['Hi, Alice!', '1,337', shorten(recipient)])
  expect(await walletAsked(page)).not.toContain('eth_signTypedData')
  await expectNoViolations(page, 'the review of legacy typed data')
  await page.screenshot({ path: testInfo.outputPath('ReviewRequest-legacyTypedData.png'), fullPage: true })
  await rejectReview(page, declined, 'eth_signTypedData')

  // After Continue the wallet is asked, and its answer is the site's: the dev wallet, on anvil, has no v1 (4200).
  const continued = request(page, 'eth_signTypedData_v1', [fields, account])
  await expect(review.getByLabel('Fields to sign').getByRole('term')).toHaveText(['Message', 'A number', 'Recipient'])
  await confirmReview(page)
  expect(await continued).toEqual({ error: { code: 4200, message: 'The Provider does not support the requested method.' } })
  expect(await walletAsked(page)).toContain('eth_signTypedData_v1')

  // A field that does not fit its type is refused before anything shows, naming it.
  expect(await request(page, 'eth_signTypedData_v1', [[{ type: 'address', name: 'to', value: '0x12' }], account])).toEqual({
    error: { code: -32602, message: 'eth_signTypedData_v1: typedData[0].value must be a 20-byte hex address for its type address.' },
  })
  await expect(page.getByRole('dialog')).toHaveCount(0)

  // EIP-712's own eth_signTypedData: [address, typedData], reviewed with its domain as v4 is.
  const typedData = {
    domain: { name: 'Mail', chainId: stack.chains[0]!.chainId },
    types: { EIP712Domain: [{ name: 'name', type: 'string' }, { name: 'chainId', type: 'uint256' }], Mail: [{ name: 'contents', type: 'string' }] },
    primaryType: 'Mail',
    message: { contents: 'Hi, Bob!' },
  }
  const signing = request(page, 'eth_signTypedData', [account, typedData])
  await expect(review.getByLabel('Message: Mail').getByRole('definition')).toHaveText(['Hi, Bob!'])
  expect(await walletAsked(page)).not.toContain('eth_signTypedData_v4')
  await confirmReview(page)
  const { result: signature } = (await signing) as { result: Hex }
  expect(await verifyTypedData({ address: account, ...typedData, signature } as unknown as Parameters<typeof verifyTypedData>[0])).toBe(true)
})

test('a standing permission (ERC-7715) is warned of with who may act, until when and within which limits; the wallet is asked only after Continue', async ({ page, stack }, testInfo) => {
  await connected(page, stack.demo!.url)
  const sessionKey = stack.devAccounts[2]!
  const chain = stack.chains[0]!
  const expiry = 1_900_000_000
  const permission = {
    chainId: `0x${chain.chainId.toString(16)}`,
    address: account,
    signer: { type: 'account', data: { address: sessionKey } },
    permission: { type: 'native-token-stream', data: { amountPerSecond: '0x38d7ea4c68000', maxAmount: '0xde0b6b3a7640000', startTime: 1_800_000_000, justification: 'A week of video streaming' } },
    rules: [{ type: 'expiry', data: { timestamp: expiry } }],
  }
  const declined = request(page, 'wallet_requestExecutionPermissions', [permission])
  const review = reviewDialog(page)
  await expect(review.getByRole('alert')).toHaveText('Standing permission: once granted, the site can use it without asking you again, within the limits below and until it ends. Decline unless you trust this site completely.')
  await expect(review.getByText('Check what this site may do for you before your wallet asks you to grant it.')).toBeVisible()
  const grant = review.getByLabel('Permission 1')
  await expect(grant.getByRole('term')).toHaveText(['Who may act', 'For the account', 'Network', 'Until'])
  await expect(grant.getByRole('definition')).toHaveText([shorten(sessionKey), shorten(account), chain.name, new Date(expiry * 1000).toLocaleString('en')])
  const stream = review.getByLabel('native-token-stream')
  await expect(stream.getByRole('term')).toHaveText(['amountPerSecond', 'maxAmount', 'startTime', 'justification'])
  await expect(stream.getByRole('definition')).toHaveText(['0.001 ETH', '1 ETH', new Date(1_800_000_000_000).toLocaleString('en'), 'A week of video streaming'])
  expect(await walletAsked(page)).not.toContain('wallet_requestExecutionPermissions')
  await expectNoViolations(page, 'the review of a permission request')
  await page.screenshot({ path: testInfo.outputPath('ReviewRequest-permissions.png'), fullPage: true })
  await rejectReview(page, declined, 'wallet_requestExecutionPermissions')

  // The ERC's draft method as viem's grantPermissions sends it (no chain: the wallet's), continued: the wallet is asked,
  // and its answer is the site's (the dev wallet grants none: 4200).
  const viemShaped = { expiry, signer: { type: 'account', data: { id: sessionKey } }, permissions: [{ type: 'native-token-transfer', data: { ticker: 'ETH' }, policies: [{ type: 'token-allowance', data: { allowance: '0xde0b6b3a7640000' } }], required: true }] }
  const continued = request(page, 'wallet_grantPermissions', [viemShaped])
  await expect(review.getByLabel('Permission 1').getByRole('definition')).toHaveText([shorten(sessionKey), 'The one you choose in your wallet', chain.name, new Date(expiry * 1000).toLocaleString('en')])
  await expect(review.getByLabel('token-allowance').getByRole('definition')).toHaveText(['1 ETH'])
  await confirmReview(page)
  expect(await continued).toEqual({ error: { code: 4200, message: 'The Provider does not support the requested method.' } })
  expect(await walletAsked(page)).toContain('wallet_grantPermissions')

  expect(await request(page, 'wallet_grantPermissions', [{ ...permission, signer: { type: 'account', data: [sessionKey] } }])).toEqual({
    error: { code: -32602, message: 'wallet_grantPermissions: requests[0].signer.data must be an object.' },
  })
  await expect(page.getByRole('dialog')).toHaveCount(0)
})

type SiteWindow = {
  widget: {
    core: {
      solana: { buildTransfer: (p: object) => Promise<{ transaction: Uint8Array }> }
      bitcoin: { buildTransfer: (p: object) => Promise<{ psbtBase64: string; fee: bigint; inputs: unknown[] }> }
    }
    getConnectedConnector: (namespace: string) => {
      signTransaction: (transaction: Uint8Array, address: string, caipNetworkId: string) => Promise<Uint8Array>
      signPsbt: (request: object) => Promise<string>
    }
  }
  answered?: boolean
}

test('a Solana transaction a site asks the wallet to sign: the transfer decoded, the SOL leaving and the fee, signed only after Continue', async ({ page, stack }, testInfo) => {
  const solana = stack.solana!
  const [from, to] = [solana.devAccounts[0]!, solana.devAccounts[1]!]
  await page.goto(stack.demo!.url)
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  await page.getByRole('dialog', { name: 'Connect Wallet' }).getByRole('button', { name: /Tessera Dev Solana Wallet/ }).click()
  await expect(page.getByRole('button', { name: new RegExp(shorten(from)) })).toBeVisible()
  await page.keyboard.press('Escape')
  const signing = page.evaluate(
    async ([caipNetworkId, from, to]) => {
      const site = window as unknown as SiteWindow
      const { transaction } = await site.widget.core.solana.buildTransfer({ caipNetworkId, from, to, amount: 1_000_000n })
      const signed = await site.widget.getConnectedConnector('solana').signTransaction(transaction, from, caipNetworkId)
      site.answered = true
      return signed.length
    },
    [solana.caipNetworkId, from, to] as const,
  )
  const review = reviewDialog(page)
  await expect(review.getByTestId('balance-changes').getByRole('listitem')).toHaveText([/^−0\.001\d* SOL$/], { timeout: 30_000 })
  const instruction = review.getByLabel('transfer')
  await expect(instruction.getByRole('definition')).toHaveText(['system', 'transfer', '0.001 SOL', shorten(from), shorten(to)])
  await expect(review.getByText('Fee paid by')).toBeVisible()
  expect(await page.evaluate(() => (window as unknown as SiteWindow).answered)).toBeUndefined()
  await expectNoViolations(page, 'the review of a Solana transaction')
  await page.screenshot({ path: testInfo.outputPath('ReviewRequest-solana.png'), fullPage: true })
  await confirmReview(page)
  expect(await signing).toBeGreaterThan(64)
})

test('a Bitcoin PSBT a site asks the wallet to sign: what it pays, the change, the fee and its rate, the net change; rejecting is 4001', async ({ page, stack }, testInfo) => {
  const bitcoin = stack.bitcoin!
  const payment = bitcoin.devAccounts[0]!.payment
  const to = bitcoin.devAccounts[1]!.payment.address
  await page.goto(stack.demo!.url)
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  await page.getByRole('dialog', { name: 'Connect Wallet' }).getByRole('button', { name: /Tessera Dev Bitcoin Wallet/ }).click()
  await expect(page.getByRole('button', { name: new RegExp(shorten(payment.address)) })).toBeVisible()
  await page.keyboard.press('Escape')
  const signing = page.evaluate(
    async ([caipNetworkId, address, publicKey, to]) => {
      const site = window as unknown as SiteWindow
      const transfer = await site.widget.core.bitcoin.buildTransfer({ caipNetworkId, from: { address, publicKey }, to, amount: 50_000n, feeRate: 2 })
      return site.widget
        .getConnectedConnector('bip122')
        .signPsbt({ psbtBase64: transfer.psbtBase64, address, signingIndexes: transfer.inputs.map((_, i) => i), caipNetworkId })
        .then(() => ({ fee: String(transfer.fee) }), (error: { code?: number; message: string }) => ({ fee: String(transfer.fee), error: { code: error.code, message: error.message } }))
    },
    [bitcoin.caipNetworkId, payment.address, payment.publicKey, to] as const,
  )
  const review = reviewDialog(page)
  const outputs = review.getByRole('list', { name: 'Pays' }).getByRole('listitem')
  await expect(outputs.filter({ hasText: `0.0005 BTC to ${shorten(to)}` })).toHaveCount(1, { timeout: 30_000 })
  await expect(outputs.filter({ hasText: `back to your address ${shorten(payment.address)}` })).toHaveCount(1)
  await expect(review.getByRole('list', { name: 'Spends' }).getByRole('listitem').first()).toContainText(`from your address ${shorten(payment.address)}`)
  await expect(review.getByText(/BTC at 2 sat\/vB$/)).toBeVisible()
  await expectNoViolations(page, 'the review of a Bitcoin PSBT')
  await page.screenshot({ path: testInfo.outputPath('ReviewRequest-psbt.png'), fullPage: true })
  const net = await review.getByTestId('balance-changes').getByRole('listitem').textContent()
  await review.getByRole('button', { name: 'Reject' }).click()
  const { fee, error } = (await signing) as { fee: string; error?: { code: number; message: string } }
  expect(error).toEqual({ code: 4001, message: 'User rejected the request.' })
  // The net change the review showed: what leaves the account, the fee included.
  expect(net).toBe(`−${formatUnits(50_000n + BigInt(fee), 8)} BTC`)
})

test('in French the review is French: its title, the warning, the balance changes, the fee and the buttons; on a phone it fits the screen', async ({ page, stack }) => {
  await page.setViewportSize({ width: 375, height: 740 })
  await page.goto(`${stack.demo!.url}/?locale=fr`)
  await page.waitForFunction(() => 'provider' in window)
  await page.getByRole('button', { name: 'Connecter un portefeuille' }).click()
  await page.getByRole('dialog', { name: 'Connecter un portefeuille' }).getByRole('button', { name: /Tessera Dev Wallet/ }).click()
  await expect(page.getByRole('button', { name: new RegExp(`${shorten(account)}$`) })).toBeVisible()
  await page.keyboard.press('Escape')
  const token = stack.chains[0]!.tokens[0]!
  const data = encodeFunctionData({ abi: erc20Abi, functionName: 'approve', args: [stack.devAccounts[1]!, 2n ** 256n - 1n] })
  const approving = request(page, 'eth_sendTransaction', [{ from: account, to: token.address, data }])
  const review = page.getByRole('dialog', { name: 'Vérifier la demande' })
  await expect(review.getByText('Vérifiez ce que fait cette transaction avant que votre portefeuille ne vous demande de l’approuver.')).toBeVisible({ timeout: 30_000 })
  await expect(review.getByRole('alert')).toHaveText(`Autorisation illimitée : ${shorten(stack.devAccounts[1]!)} pourra dépenser tous vos ${token.symbol}, maintenant et plus tard, jusqu’à ce que vous la révoquiez.`)
  await expect(review.getByText('Vos soldes ne changent pas, hormis les frais de réseau.')).toBeVisible()
  const call = review.getByLabel('Autoriser une dépense')
  await expect(call.getByRole('term')).toHaveText(['Action', 'Contrat', 'Autorisé à dépenser', 'Montant'])
  await expect(review.getByText('Frais de réseau (estimation)')).toBeVisible()
  await expect(review.getByRole('button', { name: 'Continuer dans le portefeuille' })).toBeEnabled()
  // The buttons' French words wrap rather than widen the sheet past the screen.
  for (const name of ['Refuser', 'Continuer dans le portefeuille']) {
    const box = (await review.getByRole('button', { name }).boundingBox())!
    expect(box.x + box.width, name).toBeLessThanOrEqual(375)
  }
  await review.getByRole('button', { name: 'Refuser' }).click()
  expect(await approving).toEqual({ error: { code: 4001, message: 'User rejected the request.' } })
})
