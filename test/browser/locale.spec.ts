import type { Page } from '@playwright/test'
import { expect, test } from '../fixtures'

/** The scripts the page has fetched whose file name starts with one of `names` (Vite adds `-<hash>.js`). */
const fetchedChunks = (page: Page, names: readonly string[]) =>
  page.evaluate(
    (names) => performance.getEntriesByType('resource').map((e) => e.name.split('/').pop()!).filter((file) => names.some((name) => new RegExp(`^${name}-[\\w-]+\\.js$`).test(file))),
    names,
  )

const FRENCH_CHUNKS = ['fr', 'frErrors']

test('a visitor in English never fetches another locale’s words; one in French gets the modal in French', async ({ browser, stack }) => {
  const english = await browser.newContext({ locale: 'en-US' })
  const englishPage = await english.newPage()
  await englishPage.goto(`${stack.harness!.url}/ui.html`)
  await englishPage.getByRole('button', { name: 'Connect Wallet' }).click()
  await expect(englishPage.getByRole('dialog', { name: 'Connect Wallet' })).toBeVisible()
  expect(await fetchedChunks(englishPage, FRENCH_CHUNKS)).toEqual([])
  await english.close()

  const french = await browser.newContext({ locale: 'fr-FR' })
  const frenchPage = await french.newPage()
  await frenchPage.goto(`${stack.harness!.url}/ui.html`)
  await frenchPage.getByRole('button', { name: 'Connecter un portefeuille' }).click()
  const dialog = frenchPage.getByRole('dialog', { name: 'Connecter un portefeuille' })
  await expect(dialog).toBeVisible()
  // The whole modal in French from its first frame: no English sentence while the words were on their way.
  await expect(dialog.getByRole('button', { name: 'Fermer' })).toBeVisible()
  expect((await fetchedChunks(frenchPage, FRENCH_CHUNKS)).sort()).toEqual(FRENCH_CHUNKS.map((name) => expect.stringMatching(new RegExp(`^${name}-`))))
  await french.close()
})

test('a visitor in French whose French words cannot load gets the modal in English rather than none', async ({ browser, stack }) => {
  const context = await browser.newContext({ locale: 'fr-FR' })
  const page = await context.newPage()
  await page.route(/\/fr(Errors)?-[\w-]+\.js(\?[^/]*)?$/, (route) => route.abort('internetdisconnected'))
  await page.goto(`${stack.harness!.url}/ui.html`)
  // The button's own words are with the page: French.
  await page.getByRole('button', { name: 'Connecter un portefeuille' }).click()
  await expect(page.getByRole('dialog', { name: 'Connect Wallet' })).toBeVisible()
  await context.close()
})

