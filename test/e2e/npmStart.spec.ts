// A newcomer's first `npm start`: the real npm script, Vite's dev servers (the demo's and the secure frame's) with empty
// dependency caches as on a fresh clone, and an e-mail login through them. The other journeys run on the stack's build.
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { readManifest } from '../../services/stack/manifest'
import { freePorts, stackPortsEnv } from '../../services/stack/ports'
import { expect, test } from '../fixtures'
import { accountButton, createWalletInFrame, enterCode, socialLogin, startEmailLogin, widgetState } from '../support/emailLogin'

test('npm start from a fresh clone: the demo in Vite dev logs in by e-mail with the code from the inbox, and with a social provider', async ({ page, browser }) => {
  // The whole stack starting beside the tests' own, and two dev servers pre-bundling from empty caches.
  test.setTimeout(240_000)
  const dir = mkdtempSync(join(tmpdir(), 'tessera-npm-start-'))
  const manifestPath = join(dir, 'stack.json')
  const ports = await freePorts()
  const npm = spawn('npm', ['start'], {
    env: { ...process.env, ...stackPortsEnv(ports), TESSERA_MANIFEST: manifestPath, TESSERA_DATA_DIR: join(dir, 'db'), TESSERA_VITE_CACHE_DIR: join(dir, 'vite') },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  })
  let output = ''
  npm.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
  npm.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const exited = new Promise<void>((resolve) => npm.once('exit', () => resolve()))
  const failedResponses: string[] = []
  page.on('response', (response) => {
    if (response.status() >= 500) failedResponses.push(`${response.status()} ${response.url()}`)
  })
  try {
    await expect.poll(() => /Tessera is running\. Open (http:\S+)/.exec(output)?.[1] ?? (npm.exitCode === null ? '' : `npm start ended:\n${output}`), { timeout: 120_000 }).toMatch(/^http:/)
    const demoUrl = /Tessera is running\. Open (http:\S+)/.exec(output)![1]!
    const stack = readManifest(manifestPath)

    await page.goto(demoUrl)
    const email = `newcomer-${Date.now()}@tessera.test`
    const code = await startEmailLogin(page, stack, email)
    await enterCode(page, code)
    await createWalletInFrame(page, 'a long recovery password 1')
    await expect.poll(async () => (await widgetState(page)).status, { timeout: 30_000 }).toBe('connected')
    await expect(accountButton(page, (await widgetState(page)).address!)).toBeVisible()

    // Social login, in a browser of its own: the local Google's dev user, through the same frame.
    const other = await browser.newContext()
    try {
      const socialPage = await other.newPage()
      socialPage.on('response', (response) => {
        if (response.status() >= 500) failedResponses.push(`${response.status()} ${response.url()}`)
      })
      await socialPage.goto(demoUrl)
      await socialPage.getByRole('button', { name: 'Connect Wallet' }).click()
      await socialLogin(socialPage, 'Google', stack.auth!.devUsers[0]!, 'a long recovery password 2')
      await expect.poll(async () => (await widgetState(socialPage)).status, { timeout: 30_000 }).toBe('connected')
    } finally {
      await other.close()
    }
    // Neither dev server answered 504 "Outdated Optimize Dep" (the demo's pre-bundling had overwritten the frame's).
    expect(failedResponses).toEqual([])
  } finally {
    // Ctrl-C in a terminal: the whole group.
    if (npm.exitCode === null) process.kill(-npm.pid!, 'SIGINT')
    await exited
    rmSync(dir, { recursive: true, force: true })
  }
  // Nothing the stack started still listens (services/stack/start.test.ts signals npm alone, and counts processes).
  const accepts = (port: number) =>
    new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1')
      socket.once('connect', () => (socket.destroy(), resolve(true)))
      socket.once('error', () => resolve(false))
    })
  const listening = async () => (await Promise.all(Object.values(ports).map(async (port) => ((await accepts(port)) ? [port] : [])))).flat()
  await expect.poll(listening, { timeout: 10_000 }).toEqual([])
})
