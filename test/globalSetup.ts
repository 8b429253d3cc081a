import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { freePorts } from '../services/stack/ports'
import { startStack } from '../services/stack/startStack'
import { chromiumPath } from '../playwright.config'

/** Starts the whole local stack on free ports for the browser tests and returns its teardown. */
export default async function globalSetup() {
  if (!existsSync(chromiumPath)) {
    throw new Error(`Chromium is missing at ${chromiumPath}: install Debian's chromium (apt-get install -y chromium) or set CHROMIUM_PATH.`)
  }
  const manifestPath = resolve('test-results', 'stack.json')
  process.env.TESSERA_MANIFEST = manifestPath
  const stack = await startStack({ ports: await freePorts(), demo: 'preview', manifestPath })
  return () => stack.stop()
}
