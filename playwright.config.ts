import { defineConfig } from '@playwright/test'

/** Debian's Chromium (LOCAL-STACK.md): Playwright cannot download its own browsers here. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

export const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

export default defineConfig({
  testDir: 'test',
  testMatch: ['e2e/**/*.spec.ts', 'browser/**/*.spec.ts'],
  globalSetup: './test/globalSetup.ts',
  outputDir: 'test-results',
  fullyParallel: false,
  // Two files at a time, each worker with a stack of its own (test/fixtures.ts): a journey mostly waits (blocks, the
  // browser), so two share the two cores of CI. TESSERA_E2E_WORKERS=1 runs one at a time.
  workers: Number(process.env.TESSERA_E2E_WORKERS) || 2,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: '.tessera/reports/e2e.json' }]],
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: { executablePath: chromiumPath, args: chromiumArgs },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
})
