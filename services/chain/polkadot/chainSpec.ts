import { existsSync, renameSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'

const require = createRequire(import.meta.url)

/** The raw genesis spec chopsticks builds the local chain from: Rococo Asset Hub (a 2023 parachain runtime, code included). */
export const ASSET_HUB_SPEC_FILE = 'dist/commonjs/specs/rococo_v2_2_asset_hub.js'

const packageRoot = () => dirname(require.resolve('@substrate/connect-known-chains/package.json'))

/**
 * The Rococo Asset Hub chain spec that `@substrate/connect-known-chains` (pinned at 1.10.3) ships, as JSON text. Read by
 * file path: the package's `exports` block deep imports of its build.
 * @example const spec = JSON.parse(loadAssetHubChainSpec())
 */
export function loadAssetHubChainSpec(): string {
  const { chainSpec } = require(join(packageRoot(), ASSET_HUB_SPEC_FILE)) as { chainSpec?: unknown }
  if (typeof chainSpec !== 'string') throw new Error(`@substrate/connect-known-chains has no chainSpec string in ${ASSET_HUB_SPEC_FILE}`)
  return chainSpec
}

/**
 * The spec as a file for chopsticks' --genesis: one per package version in the temporary folder, shared by every chain
 * started (1.2 MB, written once, atomically), so a chain that is killed leaves nothing behind.
 * @example spawn('chopsticks', ['--genesis', writeAssetHubChainSpec()])
 */
export function writeAssetHubChainSpec(folder = tmpdir()): string {
  const { version } = require(join(packageRoot(), 'package.json')) as { version: string }
  const path = join(folder, `tessera-asset-hub-rococo-${version}.json`)
  if (existsSync(path)) return path
  const partial = `${path}.${process.pid}.partial`
  writeFileSync(partial, loadAssetHubChainSpec())
  renameSync(partial, path)
  return path
}
