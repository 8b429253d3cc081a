import { test as base } from '@playwright/test'
import { createPublicClient, http } from 'viem'
import { readManifest, type StackChain, type StackManifest } from '../services/stack/manifest'

/** Playwright test with the local stack's manifest as a fixture. */
export const test = base.extend<{ stack: StackManifest }>({
  // eslint-disable-next-line no-empty-pattern
  stack: async ({}, use) => use(readManifest()),
})

export { expect } from '@playwright/test'

/** A client of a local chain for a test's own reads, looking for receipts every 250 ms (a block comes every 2 s). */
export const chainReader = (chain: Pick<StackChain, 'rpcUrl'>) => createPublicClient({ transport: http(chain.rpcUrl), pollingInterval: 250 })
