import type { Page } from '@playwright/test'
import { createPublicClient, http, toHex, type Address, type Hash } from 'viem'
import { expect, test } from '../fixtures'
import { approveDeviceFromMail, createWalletInFrame, enterCode, secureFrame, submitEmail, widgetState, type DemoWindow } from '../support/emailLogin'
import { readRecord, recordMessages, runFrameFlood, runPageFlood, secureFrameOf, startForeignOrigin } from '../support/frameHostile'
import { confirmReview } from './review'

// The secure frame and the widget's page listener under hostile messages (README, "E-mail and social login"). The
// browser test sends a few thousand; `npm run bench:frame` sends 100,000 and prints the figures.
const MESSAGES = 5_000

let foreign: Awaited<ReturnType<typeof startForeignOrigin>>
test.beforeAll(async () => {
  foreign = await startForeignOrigin()
})
test.afterAll(() => foreign.stop())

/** Opens the demo with the recorders installed in every window, and the Connect view (which loads the frame). */
async function openConnect(page: Page, frameOrigin: string, { recordAll = false } = {}) {
  const consoleErrors: string[] = []
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(`${message.location().url}: ${message.text()}`)
  })
  await page.context().addInitScript(recordMessages, { frameOrigin, recordAll })
  return { consoleErrors }
}

/** Waits until the widget has synced the loaded frame (its theme and dapp data were answered). */
async function waitForFrameSynced(page: Page) {
  await expect.poll(async () => (await readRecord(page)).fromFrame.some((reply) => reply.type === 'FRAME_SYNC_DAPP_DATA_SUCCESS'), { timeout: 30_000 }).toBe(true)
}

test(`the secure frame obeys none of ${MESSAGES} fuzzed, malformed and wrong-origin messages, and still answers the page`, async ({ page, stack }) => {
  test.setTimeout(90_000)
  const frameOrigin = stack.auth!.frameOrigin
  const { consoleErrors } = await openConnect(page, frameOrigin)
  await page.goto(`${stack.demo!.url}/?families=eip155`)
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  await waitForFrameSynced(page)

  const report = await runFrameFlood(page, { frameOrigin, foreignUrl: foreign.url, total: MESSAGES })
  test.info().annotations.push({ type: 'figures', description: JSON.stringify(report) })
  expect(report.messages).toBe(MESSAGES)
  // 0 accepted: no reply to any request from another window or sent to a wrong target origin, no success reply to a
  // malformed one; the well-enveloped malformed ones from the page get exactly their INVALID_MESSAGE error.
  expect(report.acceptedSample).toEqual([])
  expect(report.accepted).toBe(0)
  expect(report.refused).toBe(report.expectedRefused)
  // Every sender's last message was handled by the same frame (one that reloaded on a hostile APP_RELOAD loses them).
  expect(report.markersMissing).toEqual([])
  // No state change: the theme the hostile APP_SYNC_THEME asked for was not taken, the frame is still logged out.
  expect(report.themeAfter).toBe(report.themeBefore)
  // 0 crashes: a valid request from the page is answered afterwards, and nothing was thrown uncaught anywhere.
  expect(report.probe).toMatchObject({ answered: true, isConnected: false })
  expect(report.errors).toEqual([])
  expect(consoleErrors).toEqual([])
  await expect(page.locator('iframe[data-tessera-frame]')).toHaveCSS('visibility', 'hidden')
  await expect(page.getByRole('dialog', { name: 'Connect Wallet' })).toBeVisible()
})

test(`the widget's page listener obeys none of ${MESSAGES} spoofed frame events and replies, even with the ids of the requests waiting`, async ({ page, stack }) => {
  test.setTimeout(90_000)
  const frameOrigin = stack.auth!.frameOrigin
  const email = `e2e-hostile-${Date.now()}@tessera.test`
  const { consoleErrors } = await openConnect(page, frameOrigin)
  await page.goto(`${stack.demo!.url}/?families=eip155`)
  // A new device: APP_CONNECT_DEVICE waits for the mailed approval. A spoofed FRAME_CONNECT_DEVICE_SUCCESS with its id
  // would move the widget on to the code view.
  const startedAt = await submitEmail(page, email)
  await expect.poll(async () => (await readRecord(secureFrameOf(page, frameOrigin))).requestsSeen.some((request) => request.type === 'APP_CONNECT_DEVICE')).toBe(true)

  const report = await runPageFlood(page, { frameOrigin, foreignUrl: foreign.url, total: MESSAGES })
  test.info().annotations.push({ type: 'figures', description: JSON.stringify(report) })
  expect(report.messages).toBe(MESSAGES)
  expect(report.realIds).toBeGreaterThan(0)
  // No spoofed FRAME_OPEN showed the frame, no spoofed reply settled the waiting request, nothing was thrown.
  expect(report.markersMissing).toEqual([])
  expect(report.timesFrameShown).toBe(0)
  expect(report.isFrameHidden).toBe(true)
  expect(report.statusAfter).toBe(report.statusBefore)
  const approve = page.getByRole('dialog', { name: 'Approve this device' })
  await expect(approve).toBeVisible()
  // A spoofed error reply would end the wait with its sentence here.
  await expect(approve.getByRole('alert')).toHaveCount(0)
  await expect(page.getByRole('dialog', { name: 'Enter your code' })).toHaveCount(0)
  expect(report.errors).toEqual([])
  expect(consoleErrors).toEqual([])

  // The listener still takes the real frame's reply: approving the device moves the widget on to the code view.
  await approveDeviceFromMail(page, stack, email, startedAt)
})

test("the host page cannot read the frame's storage, and the frame has an origin of its own", async ({ page, stack }) => {
  const frameOrigin = stack.auth!.frameOrigin
  await openConnect(page, frameOrigin)
  await page.goto(`${stack.demo!.url}/?families=eip155`)
  await page.getByRole('button', { name: 'Connect Wallet' }).click()
  await waitForFrameSynced(page)
  const probe = await page.evaluate(() => {
    const attempt = (read: () => unknown) => {
      try {
        read()
        return 'read'
      } catch (error) {
        return (error as DOMException).name
      }
    }
    // The control: the same reads on an iframe of the page's own origin succeed, so a 'read' below would show.
    const control = document.createElement('iframe')
    control.srcdoc = '<!doctype html><title>control</title>'
    document.body.append(control)
    const controlReads = [attempt(() => control.contentWindow!.localStorage.length), attempt(() => control.contentWindow!.indexedDB.databases), attempt(() => control.contentWindow!.document.title)]
    const iframe = document.querySelector<HTMLIFrameElement>('iframe[data-tessera-frame]')!
    const target = iframe.contentWindow!
    return {
      pageOrigin: location.origin,
      frameSrcOrigin: new URL(iframe.src).origin,
      controlReads,
      frameReads: {
        localStorage: attempt(() => target.localStorage.length),
        sessionStorage: attempt(() => target.sessionStorage.length),
        indexedDB: attempt(() => target.indexedDB.databases),
        document: attempt(() => target.document.cookie),
        location: attempt(() => target.location.href),
        contentDocument: iframe.contentDocument === null ? 'null' : 'read',
      },
    }
  })
  expect(probe.frameSrcOrigin).toBe(frameOrigin)
  expect(probe.frameSrcOrigin).not.toBe(probe.pageOrigin)
  expect(probe.controlReads).toEqual(['read', 'read', 'read'])
  expect(probe.frameReads).toEqual({ localStorage: 'SecurityError', sessionStorage: 'SecurityError', indexedDB: 'SecurityError', document: 'SecurityError', location: 'SecurityError', contentDocument: 'null' })
  // And the frame's own origin really is the one it runs at (its storage is that origin's, not the page's).
  expect(await secureFrameOf(page, frameOrigin).evaluate(() => location.origin)).toBe(frameOrigin)
})

/**
 * What counts as key material in a recorded message (the page cannot know the key, so this is a search for its shapes):
 * 1. a property name, at any depth, with share, seed, secret, private, mnemonic, entropy, password or recovery in it;
 * 2. a run of 64 or more hex digits (a 32-byte key or share, with or without 0x) once the known public values (the
 *    signature, the address) are taken out of the message's JSON;
 * 3. a run of 43 or more base64/base64url characters mixing upper case, lower case and digits (32 bytes as base64);
 * 4. binary data (an ArrayBuffer, typed array or Blob) of 16 bytes or more.
 */
function findKeyMaterial(recorded: readonly { origin: string; json: string }[], publicValues: readonly string[]) {
  const found: string[] = []
  const secretName = /share|seed|secret|private|mnemonic|entropy|password|recovery/i
  const walk = (value: unknown, path: string) => {
    if (!value || typeof value !== 'object') return
    for (const [key, inner] of Object.entries(value)) {
      if (secretName.test(key)) found.push(`${path}.${key}: a secret-looking field`)
      if (key === '#binary' && Number((value as { byteLength?: number }).byteLength) >= 16) found.push(`${path}: ${String(inner)} of ${(value as { byteLength: number }).byteLength} bytes`)
      walk(inner, `${path}.${key}`)
    }
  }
  recorded.forEach(({ json }, index) => {
    const parsed: unknown = JSON.parse(json)
    walk(parsed, `message ${index}`)
    let text = json
    for (const value of publicValues) text = text.split(value).join('').split(value.toLowerCase()).join('').split(value.slice(2)).join('')
    const hex = /[0-9a-f]{64,}/i.exec(text)
    if (hex) found.push(`message ${index}: ${hex[0].length} hex digits`)
    for (const [run] of text.matchAll(/[A-Za-z0-9+/_-]{43,}/g)) if (/[a-z]/.test(run) && /[A-Z]/.test(run) && /\d/.test(run)) found.push(`message ${index}: ${run.length} base64 characters`)
  })
  return found
}

test('no key, share, seed or recovery material reaches the page during an e-mail login and a signature', async ({ page, stack }) => {
  test.setTimeout(150_000)
  const frameOrigin = stack.auth!.frameOrigin
  const email = `e2e-record-${Date.now()}@tessera.test`
  const password = 'a long recovery password 4'
  // The search can fail: each shape it looks for is found in a message made to carry it.
  const planted = [
    { origin: frameOrigin, json: JSON.stringify({ id: '1', type: 'FRAME_GET_USER_SUCCESS', payload: { deviceShare: 'x' } }) },
    { origin: frameOrigin, json: JSON.stringify({ id: '2', type: 'FRAME_GET_USER_SUCCESS', payload: { key: `0x${'ab'.repeat(32)}` } }) },
    { origin: frameOrigin, json: JSON.stringify({ id: '3', type: 'FRAME_GET_USER_SUCCESS', payload: { key: 'q83vEjRWeJq83vEjRWeJq83vEjRWeJq83vEjRWeJq8A' } }) },
    { origin: frameOrigin, json: JSON.stringify({ id: '4', type: 'FRAME_GET_USER_SUCCESS', payload: { key: { '#binary': '[object Uint8Array]', byteLength: 32 } } }) },
  ]
  expect(planted.map((message) => findKeyMaterial([message], []).length > 0)).toEqual([true, true, true, true])

  // The recorder is the first message listener of the page: every message the page receives, as JSON.
  await openConnect(page, frameOrigin, { recordAll: true })
  await page.goto(`${stack.demo!.url}/?families=eip155`)
  const startedAt = await submitEmail(page, email)
  await enterCode(page, await approveDeviceFromMail(page, stack, email, startedAt))
  const frame = secureFrame(page)
  await createWalletInFrame(page, password)
  await expect.poll(() => widgetState(page).then((state) => state.status), { timeout: 30_000 }).toBe('connected')
  const address = (await widgetState(page)).address as Address
  const message = 'Recorded signature'
  const signing = page.evaluate(([text, account]) => (window as unknown as DemoWindow).widget.walletRequest({ method: 'personal_sign', params: [text, account] }), [toHex(message), address] as const)
  await confirmReview(page)
  await frame.getByRole('button', { name: 'Sign' }).click()
  const signature = (await signing) as Hash
  // The smart account (the default) signs; the chain verifies it (ERC-6492 until the account is deployed).
  expect(await createPublicClient({ transport: http(stack.chains[0]!.rpcUrl) }).verifyMessage({ address, message, signature })).toBe(true)

  const { all } = await readRecord(page)
  const fromFrame = all.filter((entry) => entry.origin === frameOrigin)
  // The recording is not empty: it holds the frame's replies, the address and the signature among them.
  expect(fromFrame.length).toBeGreaterThan(10)
  expect(fromFrame.some((entry) => entry.json.includes(signature))).toBe(true)
  expect(fromFrame.some((entry) => entry.json.toLowerCase().includes(address.toLowerCase()))).toBe(true)
  expect(findKeyMaterial(all, [signature, address, toHex(message)])).toEqual([])
  // Nor the password the person typed in the frame.
  expect(all.some((entry) => entry.json.includes(password))).toBe(false)
})
