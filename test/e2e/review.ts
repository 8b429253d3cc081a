import { expect, type Page } from '@playwright/test'

/** The review before the wallet asks (issue #36), as the modal shows it. */
export const reviewDialog = (page: Page) => page.getByRole('dialog', { name: 'Review request' })

/** Waits for the review to be worked out and continues to the wallet, as a visitor who read it would. */
export async function confirmReview(page: Page) {
  const review = reviewDialog(page)
  await expect(review.getByRole('button', { name: 'Continue in wallet' })).toBeEnabled({ timeout: 30_000 })
  await review.getByRole('button', { name: 'Continue in wallet' }).click()
}
