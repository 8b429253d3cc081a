import { expect, type Page } from '@playwright/test'

/** The review before the wallet asks (issue #36), as the modal shows it. */
export const reviewDialog = (page: Page) => page.getByRole('dialog', { name: 'Review request' })

/** Waits for the review to be worked out and continues to the wallet, as a visitor who read it would. */
export async function confirmReview(page: Page) {
  const review = reviewDialog(page)
  await expect(review.getByRole('button', { name: 'Continue in wallet' })).toBeEnabled({ timeout: 30_000 })
  await review.getByRole('button', { name: 'Continue in wallet' }).click()
}

/** Records every method the injected dev wallet is asked (`window.walletAsked`): what reached the wallet, and when. */
export async function recordWalletRequests(page: Page) {
  await page.waitForFunction(() => 'devWallet' in window)
  await page.evaluate(() => {
    const wallet = (window as unknown as { devWallet: { provider: { request: (args: { method: string }) => Promise<unknown> } } }).devWallet.provider
    const asked: string[] = []
    const request = wallet.request.bind(wallet)
    wallet.request = (args) => (asked.push(args.method), request(args))
    Object.assign(window, { walletAsked: asked })
  })
}

/** The methods the wallet was asked since `recordWalletRequests`. */
export const walletAsked = (page: Page) => page.evaluate(() => (window as unknown as { walletAsked: string[] }).walletAsked)
