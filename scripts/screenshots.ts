// `npm run screenshots`: every view of the widget in both themes, saved in docs/screenshots, and the views a peer kit
// also has (connect, connecting, account, networks) side by side with RainbowKit's, on the same local chain and the
// same dev wallet. The peer app (docs/peer-kit/rainbowkit) is installed once into .tessera/peer-rainbowkit.
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { chromium, expect, type Locator, type Page } from '@playwright/test'
import { chromiumPath } from '../playwright.config'
import { freePorts } from '../services/stack/ports'
import { startStack } from '../services/stack/startStack'
import { devWalletScript, run, serveStatic } from '../test/e2e/hostApps'

const outDir = resolve('docs/screenshots')
const peerDir = resolve('.tessera/peer-rainbowkit')
const themes = ['dark', 'light'] as const
type Theme = (typeof themes)[number]
const viewport = { width: 1100, height: 820 }

/** The peer app, installed once and built for this run's chain. */
function buildPeerApp() {
  if (!existsSync(join(peerDir, 'node_modules/.bin/vite'))) {
    mkdirSync(peerDir, { recursive: true })
    cpSync(resolve('docs/peer-kit/rainbowkit'), peerDir, { recursive: true })
    run('npm', ['install', '--no-audit', '--no-fund'], peerDir)
  } else {
    cpSync(resolve('docs/peer-kit/rainbowkit/src'), join(peerDir, 'src'), { recursive: true })
  }
  run(join(peerDir, 'node_modules/.bin/vite'), ['build'], peerDir)
  return join(peerDir, 'dist')
}

/** The dialog and a margin around it. */
async function shootDialog(page: Page, dialog: Locator, path: string) {
  await page.waitForTimeout(400) // let the opening animations of both kits finish
  const box = (await dialog.boundingBox())!
  const margin = 16
  const x = Math.max(0, box.x - margin)
  const y = Math.max(0, box.y - margin)
  await page.screenshot({ path, clip: { x, y, width: Math.min(viewport.width - x, box.width + 2 * margin), height: Math.min(viewport.height - y, box.height + 2 * margin) } })
}

/** One of our views alone, as docs/screenshots/{name}-{theme}.png. */
async function shootOurs(page: Page, dialog: Locator, name: string, theme: Theme) {
  const path = join(outDir, `${name}-${theme}.png`)
  await shootDialog(page, dialog, path)
  return path
}

async function sideBySide(page: Page, theme: Theme, view: string, ours: string, theirs: string) {
  const image = (path: string) => `data:image/png;base64,${readFileSync(path).toString('base64')}`
  const background = theme === 'dark' ? '#0f1115' : '#f6f7f9'
  const color = theme === 'dark' ? '#e8eaf0' : '#1a1d24'
  await page.setViewportSize({ width: 1200, height: 900 })
  await page.setContent(`<body style="margin:0;background:${background};color:${color};font:14px system-ui">
    <div style="display:flex;gap:32px;align-items:flex-start;padding:20px">
      <figure style="margin:0"><figcaption style="margin-bottom:8px">Tessera — ${view}</figcaption><img src="${image(ours)}"></figure>
      <figure style="margin:0"><figcaption style="margin-bottom:8px">RainbowKit 2.2.11 — ${view}</figcaption><img src="${image(theirs)}"></figure>
    </div></body>`)
  const figure = page.locator('body > div')
  await figure.screenshot({ path: join(outDir, `compare-${view.toLowerCase()}-${theme}.png`) })
}

async function main() {
  mkdirSync(outDir, { recursive: true })
  const work = mkdtempSync(join(tmpdir(), 'tessera-shots-'))
  const ports = await freePorts()
  const { demo: peerPort } = await freePorts()
  const peerUrl = `http://127.0.0.1:${peerPort}`
  const stack = await startStack({ ports, demo: 'preview', manifestPath: join(work, 'stack.json'), extraOrigins: [peerUrl] })
  const peerServer = await serveStatic(buildPeerApp(), peerPort)
  const browser = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox', '--disable-gpu'] })
  const chains = stack.manifest.chains.map(({ chainId, name, rpcUrl }) => ({ chainId, name, rpcUrl }))
  const walletScript = await devWalletScript({ chains, accounts: stack.manifest.devAccounts.slice(0, 3) })
  const written: string[] = []
  try {
    for (const theme of themes) {
      const shot = (name: string) => join(work, `${name}-${theme}.png`)

      // Tessera, from the demo.
      const ours = await browser.newPage({ viewport, colorScheme: theme })
      await ours.goto(stack.manifest.demo!.url)
      await ours.evaluate((mode) => (window as unknown as { widget: { setThemeMode: (m: string) => void } }).widget.setThemeMode(mode), theme)
      await ours.getByRole('button', { name: 'Connect Wallet' }).click()
      const connect = ours.getByRole('dialog', { name: 'Connect Wallet' })
      await connect.getByRole('button', { name: /Tessera Dev Wallet/ }).waitFor()
      await shootDialog(ours, connect, shot('tessera-connect'))
      const release = await ours.evaluateHandle(() => (window as unknown as { devWallet: { hold: () => () => void } }).devWallet.hold())
      await connect.getByRole('button', { name: /Tessera Dev Wallet/ }).click()
      const connecting = ours.getByRole('dialog', { name: /Tessera Dev Wallet/ })
      await connecting.waitFor()
      await shootDialog(ours, connecting, shot('tessera-connecting'))
      await release.evaluate((done) => done())
      const account = ours.getByRole('dialog', { name: 'Account' })
      // Peers close the modal after connecting; the account button opens Account.
      await account.or(ours.getByRole('button', { name: /0x/ }).first()).first().waitFor()
      if (!(await account.isVisible())) await ours.getByRole('button', { name: /0x/ }).first().click()
      await account.getByLabel('Balance').waitFor()
      await shootDialog(ours, account, shot('tessera-account'))
      await account.getByRole('button', { name: /^Network / }).click()
      const networks = ours.getByRole('dialog', { name: 'Choose Network' })
      await networks.waitFor()
      await shootDialog(ours, networks, shot('tessera-networks'))
      // The views a peer kit has no counterpart of: ours alone.
      for (const [button, title] of [['Send', 'Send'], ['Receive', 'Receive'], ['Activity', 'Activity'], ['Register a name', 'Choose a name']] as const) {
        await networks.or(ours.getByRole('dialog')).first().getByRole('button', { name: 'Back' }).click()
        await account.getByRole('button', { name: button }).click()
        const dialog = ours.getByRole('dialog', { name: title })
        await dialog.waitFor()
        const path = join(outDir, `${button.toLowerCase().replaceAll(' ', '-')}-${theme}.png`)
        await shootDialog(ours, dialog, path)
        written.push(path)
      }
      // Money-moving views, each with what it will do on screen: Buy's quotes, Swap's quote, and the review of that swap.
      const back = () => ours.getByRole('dialog').getByRole('button', { name: 'Back' }).click()
      await back()
      await account.getByRole('button', { name: 'Tokens' }).click()
      const tokens = ours.getByRole('dialog', { name: 'Tokens' })
      await tokens.getByRole('listitem').first().waitFor()
      written.push(await shootOurs(ours, tokens, 'tokens', theme))
      await back()
      await account.getByRole('button', { name: 'Buy' }).click()
      const buy = ours.getByRole('dialog', { name: 'Buy' })
      await buy.getByLabel('You pay').fill('50')
      await buy.getByRole('list', { name: 'Quotes' }).getByRole('listitem').nth(1).waitFor({ timeout: 15_000 })
      written.push(await shootOurs(ours, buy, 'buy', theme))
      await back()
      await account.getByRole('button', { name: 'Swap' }).click()
      const swap = ours.getByRole('dialog', { name: 'Swap' })
      await swap.getByLabel('Amount').fill('0.1')
      await swap.getByLabel('What this swap does').waitFor({ timeout: 15_000 })
      written.push(await shootOurs(ours, swap, 'swap', theme))
      await swap.getByRole('button', { name: 'Swap', exact: true }).click()
      const review = ours.getByRole('dialog', { name: 'Review request' })
      await expect(review.getByRole('button', { name: 'Continue in wallet' })).toBeEnabled({ timeout: 30_000 })
      await expect(review.getByTestId('balance-changes').locator('.detail')).toHaveCount(2)
      written.push(await shootOurs(ours, review, 'review-swap', theme))
      await ours.close()

      // RainbowKit, on the same chain with the same dev wallet.
      const theirs = await browser.newPage({ viewport, colorScheme: theme })
      await theirs.addInitScript(walletScript)
      await theirs.goto(`${peerUrl}/?theme=${theme}&chains=${encodeURIComponent(JSON.stringify(chains))}`)
      await theirs.getByRole('button', { name: 'open connect' }).click()
      // RainbowKit's dialog is the whole-page overlay; its modal is the document inside.
      const peerDialog = theirs.getByRole('dialog').getByRole('document')
      const peerConnect = peerDialog
      await peerConnect.getByText('Tessera Dev Wallet').waitFor()
      await shootDialog(theirs, peerConnect, shot('peer-connect'))
      const peerRelease = await theirs.evaluateHandle(() => {
        const wallet = (window as unknown as { devWallet?: { hold: () => () => void } }).devWallet
        return wallet ? wallet.hold() : () => {}
      })
      await peerConnect.getByText('Tessera Dev Wallet').click()
      await theirs.waitForTimeout(600)
      await shootDialog(theirs, peerDialog, shot('peer-connecting'))
      await peerRelease.evaluate((done) => done())
      await theirs.getByRole('dialog').waitFor({ state: 'detached' })
      await theirs.getByRole('button', { name: 'open account' }).click()
      await theirs.getByRole('dialog').getByText(/ETH/).first().waitFor()
      await shootDialog(theirs, peerDialog, shot('peer-account'))
      await theirs.keyboard.press('Escape')
      await theirs.getByRole('dialog').waitFor({ state: 'detached' })
      await theirs.getByRole('button', { name: 'open chains' }).click()
      await peerDialog.getByText('Tessera Local').first().waitFor()
      await shootDialog(theirs, peerDialog, shot('peer-networks'))
      await theirs.close()

      const composer = await browser.newPage()
      for (const view of ['Connect', 'Connecting', 'Account', 'Networks']) {
        await sideBySide(composer, theme, view, shot(`tessera-${view.toLowerCase()}`), shot(`peer-${view.toLowerCase()}`))
        written.push(join(outDir, `compare-${view.toLowerCase()}-${theme}.png`))
      }
      await composer.close()
    }
    writeFileSync(
      join(outDir, 'README.md'),
      [
        '# Screenshots',
        '',
        'Made by `npm run screenshots` from the demo on the local stack, in both themes. The views RainbowKit also has are',
        'shown beside RainbowKit 2.2.11 (compact modal) on the same anvil chain with the same dev wallet',
        '(docs/peer-kit/rainbowkit); Send, Receive, Activity, names, Tokens, Buy, Swap and the review before the wallet asks',
        'have no RainbowKit counterpart.',
        '',
        ...themes.flatMap((theme) => [
          `## ${theme === 'dark' ? 'Dark' : 'Light'}`,
          '',
          ...['connect', 'connecting', 'account', 'networks'].map((view) => `![${view}, ${theme}](compare-${view}-${theme}.png)`),
          '',
          ...['send', 'receive', 'activity', 'register-a-name', 'tokens', 'buy', 'swap', 'review-swap'].map((view) => `![${view}, ${theme}](${view}-${theme}.png)`),
          '',
        ]),
      ].join('\n'),
    )
    console.log(JSON.stringify({ screenshots: written.map((path) => path.replace(`${resolve('.')}/`, '')) }, null, 2))
  } finally {
    await browser.close()
    peerServer.close()
    await stack.stop()
    rmSync(work, { recursive: true, force: true })
  }
}

await main()
