import { test as base } from '@playwright/test'
import { createPublicClient, http } from 'viem'
import type { StackChain, StackManifest } from '../services/stack/manifest'
import { startTestStack } from './testStack'

/**
 * Playwright test with the local stack's manifest as a fixture. Each worker starts a stack of its own before its first
 * test (`TESSERA_MANIFEST` names its manifest, for what reads it with readManifest()), and stops it when it ends.
 */
export const test = base.extend<object, { stack: StackManifest }>({
  stack: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const { manifest, manifestPath, stop } = await startTestStack()
      process.env.TESSERA_MANIFEST = manifestPath
      try {
        await use(manifest)
      } finally {
        await stop()
      }
    },
    // A stack starts in about 25 s on a quiet machine, its three page builds included.
    { scope: 'worker', auto: true, timeout: 240_000 },
  ],
})

export { expect } from '@playwright/test'

/** A client of a local chain for a test's own reads, looking for receipts every 250 ms (a block comes every 2 s). */
export const chainReader = (chain: Pick<StackChain, 'rpcUrl'>) => createPublicClient({ transport: http(chain.rpcUrl), pollingInterval: 250 })
