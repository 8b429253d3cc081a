// `npm test`: installs what is missing, then typecheck, lint, size budgets (size-limit), unit tests and browser/e2e tests.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { ensureDeps } from './ensureDeps.mjs'

const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'

function ensureChromium() {
  if (existsSync(chromiumPath)) return
  if (process.getuid?.() !== 0) {
    console.error(`Chromium is missing at ${chromiumPath}: run \`sudo apt-get install -y chromium\` (Debian) or set CHROMIUM_PATH.`)
    process.exit(1)
  }
  console.log("Installing Debian's chromium (apt-get)…")
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  for (const args of [['update', '-qq'], ['install', '-y', '-qq', 'chromium']]) {
    const result = spawnSync('apt-get', args, { stdio: 'inherit', env })
    if (result.status !== 0) {
      console.error(`apt-get ${args.join(' ')} failed: Chromium is needed for the browser tests.`)
      process.exit(1)
    }
  }
}

function run(name, command, args) {
  console.log(`\n▶ ${name}: ${command} ${args.join(' ')}`)
  const started = Date.now()
  const { status } = spawnSync(command, args, { stdio: 'inherit' })
  console.log(`◀ ${name}: ${status === 0 ? 'ok' : `failed (exit ${status})`} in ${((Date.now() - started) / 1000).toFixed(1)} s`)
  return status === 0
}

function readCounts(path, pick) {
  try {
    return pick(JSON.parse(readFileSync(path, 'utf8')))
  } catch {
    return null
  }
}

ensureDeps()
ensureChromium()
rmSync('.tessera/reports', { recursive: true, force: true })
mkdirSync('.tessera/reports', { recursive: true })

const bin = (name) => `node_modules/.bin/${name}`
const steps = [
  ['typecheck', bin('tsc'), ['--noEmit', '-p', 'tsconfig.json']],
  ['lint', bin('eslint'), ['--max-warnings=0', '.']],
  ['size', 'npm', ['run', '--silent', 'size']],
  ['unit', bin('vitest'), ['run', '--reporter=default', '--reporter=json', '--outputFile=.tessera/reports/unit.json']],
  ['e2e', bin('playwright'), ['test']],
]
const failedSteps = steps.filter(([name, command, args]) => !run(name, command, args)).map(([name]) => name)

const unit = readCounts('.tessera/reports/unit.json', (r) => ({ passed: r.numPassedTests, failed: r.numFailedTests + (r.numRuntimeErrorTestSuites ?? 0) }))
const e2e = readCounts('.tessera/reports/e2e.json', (r) => ({ passed: r.stats.expected + r.stats.flaky, failed: r.stats.unexpected }))
const total = { passed: 0, failed: 0 }
console.log('\nSummary')
for (const [name, counts] of [['unit', unit], ['e2e', e2e]]) {
  if (!counts) {
    console.log(`${name}: no results (the runner did not finish)`)
    total.failed += 1
    continue
  }
  console.log(`${name}: ${counts.passed} passed, ${counts.failed} failed`)
  total.passed += counts.passed
  total.failed += counts.failed
}
if (failedSteps.length > 0) console.log(`failed steps: ${failedSteps.join(', ')}`)
console.log(`total: ${total.passed} passed, ${total.failed} failed`)
process.exit(failedSteps.length > 0 || total.failed > 0 ? 1 : 0)
