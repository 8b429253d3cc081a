import { test as base } from '@playwright/test'
import { readManifest, type StackManifest } from '../services/stack/manifest'

/** Playwright test with the local stack's manifest as a fixture. */
export const test = base.extend<{ stack: StackManifest }>({
  // eslint-disable-next-line no-empty-pattern
  stack: async ({}, use) => use(readManifest()),
})

export { expect } from '@playwright/test'
