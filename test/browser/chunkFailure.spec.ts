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
