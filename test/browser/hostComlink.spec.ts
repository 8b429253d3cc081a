import { expect, test } from '../fixtures'

/** What a rejected call left in the page, as plain data. */
type Outcome = { isError: boolean; name?: string; message?: string; ownKeys?: string[]; code?: unknown; shortMessage?: unknown; value?: unknown }

// The host's page and Tessera share one copy of comlink (one bundle), so they share its transfer handlers; the host's
// worker has comlink's defaults. Whatever the host throws must cross as comlink alone would carry it, both ways.
test('a host page using comlink itself gets comlink’s own errors, and Tessera’s keep their codes', async ({ page, stack }) => {
  await page.goto(`${stack.harness!.url}/hostComlink.html`)
  await expect(page.locator('#status')).toHaveText('ready')
  const outcomes = await page.evaluate(async () => {
    const { hostWorker, proxy, widget, chainId } = window.hostPage
    const settle = (promise: Promise<unknown>): Promise<Outcome> =>
      promise.then(
        (value) => ({ isError: false, value }),
        (error: unknown) =>
          error instanceof Error
            ? { isError: true, name: error.name, message: error.message, ownKeys: Object.keys(error), code: (error as { code?: unknown }).code, shortMessage: (error as { shortMessage?: unknown }).shortMessage }
            : { isError: false, value: error },
      )
    // Tessera's core runs (its handler is installed) before and after the host's calls.
    const tesseraFirst = await settle(widget.core!.request({ chainId, method: 'eth_noSuchMethod' }))
    const hostError = await settle(hostWorker.fail())
    const hostObject = await settle(hostWorker.failWithObject())
    // The other way: the page's own throws, serialised on the page, as the host's worker receives them.
    const pageError = await hostWorker.rejectionOf(proxy(() => Promise.reject(new Error('page failure'))))
    const pageObject = await hostWorker.rejectionOf(proxy(() => Promise.reject({ reason: 'page object' })))
    const tesseraAfter = await settle(widget.core!.request({ chainId, method: 'eth_noSuchMethod' }))
    return { tesseraFirst, hostError, hostObject, pageError, pageObject, tesseraAfter }
  })
  // Exactly what comlink's default handler gives: an Error with its name and message and nothing of ours; an object as it is.
  expect(outcomes.hostError).toEqual({ isError: true, name: 'Error', message: 'host failure', ownKeys: ['name'], code: undefined, shortMessage: undefined })
  expect(outcomes.hostObject).toEqual({ isError: false, value: { reason: 'host object', attempts: 2 } })
  expect(outcomes.pageError).toEqual({ isError: true, name: 'Error', message: 'page failure' })
  expect(outcomes.pageObject).toEqual({ isError: false, value: { reason: 'page object' } })
  const methodNotFound = {
    isError: true,
    name: 'RpcError',
    message: 'The method does not exist / is not available.\n\nDetails: Method not found',
    ownKeys: expect.any(Array),
    code: 'METHOD_NOT_FOUND',
    shortMessage: 'The method does not exist / is not available.',
  }
  expect(outcomes.tesseraFirst).toEqual(methodNotFound)
  expect(outcomes.tesseraAfter).toEqual(methodNotFound)
})
