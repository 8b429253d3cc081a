import { existsSync } from 'node:fs'
import { chromiumPath } from '../playwright.config'

/** Checks that the browser is there before any worker starts its stack (test/fixtures.ts starts one per worker). */
export default function globalSetup() {
  if (!existsSync(chromiumPath)) {
    throw new Error(`Chromium is missing at ${chromiumPath}: install Debian's chromium (apt-get install -y chromium) or set CHROMIUM_PATH.`)
  }
}
