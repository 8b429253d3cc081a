import { expect, test } from '../fixtures'

test('the modal’s code failing to load closes the open with a toast that says so, the site’s page untouched, and the next click opens it', async ({ page, stack }) => {
  const uncaught: string[] = []
  page.on('pageerror', (error) => uncaught.push(error.message))
  // As a site deployed anew without its old chunks, or a visitor gone offline, would have it.
  await page.route(/\/Modal-[\w-]+\.js(\?[^/]*)?$/, (route) => route.abort('internetdisconnected'))
  await page.goto(`${stack.harness!.url}/ui.html`)
  const button = page.getByRole('button', { name: 'Connect Wallet' })
  await button.click()
  await expect(page.getByRole('alert')).toHaveText('The wallet window could not load. Check your connection and try again.')
  await expect(page.getByRole('dialog')).toHaveCount(0)
  await expect(button).toBeVisible()
  expect(uncaught).toEqual([])

  await page.unroute(/\/Modal-[\w-]+\.js(\?[^/]*)?$/)
  await button.click()
  await expect(page.getByRole('dialog', { name: 'Connect Wallet' })).toBeVisible()
  expect(uncaught).toEqual([])
})

test('the widget’s own code failing to load answers the click with the same toast, and the next click starts it and opens', async ({ page, stack }) => {
  const uncaught: string[] = []
  page.on('pageerror', (error) => uncaught.push(error.message))
  const startCode = /\/startWidget-[\w-]+\.js(\?[^/]*)?$/
  await page.route(startCode, (route) => route.abort('internetdisconnected'))
  await page.goto(`${stack.harness!.url}/ui.html`)
  const button = page.getByRole('button', { name: 'Connect Wallet' })
  await button.click()
  await expect(page.getByRole('alert')).toHaveText('The wallet window could not load. Check your connection and try again.')
  await expect(page.getByRole('dialog')).toHaveCount(0)

  await page.unroute(startCode)
  await button.click()
  await expect(page.getByRole('dialog', { name: 'Connect Wallet' })).toBeVisible()
  expect(uncaught).toEqual([])
})

test('a chain family’s client failing to load in the worker fails the read that needs it with a clear error, and the next read imports it by a URL of its own', async ({ page, stack }) => {
  const solana = stack.solana!
  const solanaModule = /\/solanaFamily-[\w-]+\.js(\?[^/]*)?$/
  const imports: string[] = []
  let isOffline = true
  // The worker's own requests: its import of the family's module, from the URL the page gave it.
  await page.context().route(solanaModule, (route) => {
    imports.push(new URL(route.request().url()).search)
    return isOffline ? route.abort('internetdisconnected') : route.continue()
  })
  await page.goto(stack.harness!.url)
  await expect(page.locator('#status')).toHaveText('ready')
  const read = () =>
    page.evaluate(async ({ caipNetworkId, rpcUrl, address }) => {
      const core = ((window as unknown as { core?: ReturnType<typeof window.tessera.createCore> }).core ??= window.tessera.createCore({ chains: [], familyChains: { solana: [{ caipNetworkId, rpcUrl }] } }))
      try {
        return { balance: String(await core.getBalance({ caipNetworkId, address })) }
      } catch (error) {
        const { code, message } = error as { code?: string; message: string }
        return { code, message }
      }
    }, { caipNetworkId: solana.caipNetworkId, rpcUrl: solana.rpcUrl, address: solana.devAccounts[1]! })

  // The read waits for the import the core began when it was configured, or, when that one had failed already, makes
  // its own by a retry's URL.
  expect(await read()).toEqual({
    code: 'WIDGET_CODE_NOT_LOADED',
    message: expect.stringMatching(/^Tessera's code could not be loaded: check the connection, then try again or reload the page\.\n\nDetails: the Solana client's module did not load from http:\S+\/solanaFamily-[\w-]+\.js(\?tessera-retry=1)?$/),
  })
  isOffline = false
  expect(await read()).toEqual({ balance: String(1_000_000_000_000) })
  // Each import asked by a URL of its own (Chromium 150 answers an import of a URL that failed with that failure), the
  // one that loaded by a retry's.
  expect(imports[0]).toBe('')
  expect(imports.at(-1)).toMatch(/^\?tessera-retry=\d$/)
  expect(new Set(imports).size).toBe(imports.length)
})
