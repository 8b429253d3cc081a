import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { freePorts } from '../services/stack/ports'
import { serveViteApp, startStack } from '../services/stack/startStack'
import { chromiumPath } from '../playwright.config'

const harnessRoot = fileURLToPath(new URL('./harness', import.meta.url))

/** Starts the whole local stack on free ports, plus the browser-test harness page, and returns the teardown. */
export default async function globalSetup() {
  if (!existsSync(chromiumPath)) {
    throw new Error(`Chromium is missing at ${chromiumPath}: install Debian's chromium (apt-get install -y chromium) or set CHROMIUM_PATH.`)
  }
  // TESSERA_TEST_MANIFEST gives a run a manifest of its own, so two runs in one checkout never read each other's stack.
  const manifestPath = resolve(process.env.TESSERA_TEST_MANIFEST ?? '.tessera/test-stack.json')
  process.env.TESSERA_MANIFEST = manifestPath
  // The harness page and the packed-package tests' host apps, on ports of their own that the data service accepts.
  const { demo: harnessPort, api: hostAppPort } = await freePorts()
  const harnessUrl = `http://127.0.0.1:${harnessPort}`
  const hostAppUrl = `http://127.0.0.1:${hostAppPort}`
  let ports = await freePorts()
  while (Object.values(ports).some((port) => port === harnessPort || port === hostAppPort)) ports = await freePorts()
  // A small sponsored-gas allowance, so the smart-account journey reaches the paymaster's daily limit in a few sends.
  const stack = await startStack({ ports, demo: 'preview', manifestPath, extraOrigins: [harnessUrl, hostAppUrl], sponsoredGasPerAccountPerDay: 1_500_000 })
  try {
    const manifest = { ...stack.manifest, harness: { url: harnessUrl }, hostApp: { url: hostAppUrl, port: hostAppPort } }
    const stopHarness = await serveViteApp({ root: harnessRoot, mode: 'preview', host: '127.0.0.1', port: harnessPort, manifest })
    mkdirSync(dirname(manifestPath), { recursive: true })
    writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`)
    return async () => {
      await stopHarness()
      await stack.stop()
    }
  } catch (error) {
    await stack.stop()
    throw error
  }
}
