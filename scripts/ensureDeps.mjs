// Plain Node, no dependencies: runs before node_modules exists.
import { spawnSync } from 'node:child_process'
import { existsSync, statSync } from 'node:fs'

/** Installs dependencies when node_modules is missing or older than the lockfile. */
export function ensureDeps() {
  const installed = 'node_modules/.package-lock.json'
  const isCurrent = existsSync(installed) && statSync(installed).mtimeMs >= statSync('package-lock.json').mtimeMs
  if (isCurrent) return
  console.log('Installing dependencies (npm ci)…')
  const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { stdio: 'inherit' })
  if (result.status !== 0) {
    console.error('npm ci failed: see the lines above.')
    process.exit(result.status ?? 1)
  }
}
