import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { freePorts } from '../services/stack/ports'
import { serveViteApp, startStack } from '../services/stack/startStack'
import type { StackManifest } from '../services/stack/manifest'

const harnessRoot = fileURLToPath(new URL('./harness', import.meta.url))

/**
 * The whole local stack on free ports, plus the browser-test harness page and a port for the packed-package tests'
 * host apps, for one Playwright worker: each worker has a stack of its own, so the tests of two workers never share a
 * chain, an account's nonce or a database. Its manifest is written to a folder of its own (`manifestPath`).
 */
export async function startTestStack(): Promise<{ manifest: StackManifest; manifestPath: string; stop: () => Promise<void> }> {
  const manifestDir = mkdtempSync(join(tmpdir(), 'tessera-e2e-'))
  const manifestPath = join(manifestDir, 'stack.json')
  // The harness page and the host apps, on ports of their own that the data service accepts.
  const { demo: harnessPort, api: hostAppPort } = await freePorts()
  const harnessUrl = `http://127.0.0.1:${harnessPort}`
  const hostAppUrl = `http://127.0.0.1:${hostAppPort}`
  let ports = await freePorts()
  while (Object.values(ports).some((port) => port === harnessPort || port === hostAppPort)) ports = await freePorts()
  // A small sponsored-gas allowance, so the smart-account journey reaches the paymaster's daily limit in a few sends.
  const stack = await startStack({ ports, demo: 'preview', manifestPath, extraOrigins: [harnessUrl, hostAppUrl], sponsoredGasPerAccountPerDay: 1_500_000 }).catch((error: unknown) => {
    rmSync(manifestDir, { recursive: true, force: true })
    throw error
  })
  try {
    const manifest = { ...stack.manifest, harness: { url: harnessUrl }, hostApp: { url: hostAppUrl, port: hostAppPort } }
    const stopHarness = await serveViteApp({ root: harnessRoot, mode: 'preview', host: '127.0.0.1', port: harnessPort, manifest })
    writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`)
    return {
      manifest,
      manifestPath,
      stop: async () => {
        await stopHarness()
        await stack.stop()
        rmSync(manifestDir, { recursive: true, force: true })
      },
    }
  } catch (error) {
    await stack.stop()
    rmSync(manifestDir, { recursive: true, force: true })
    throw error
  }
}
