// `npm test`: installs what is missing, then typecheck, lint, size budgets (size-limit), unit tests and browser/e2e tests.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { ensureDeps } from './ensureDeps.mjs'

/** Whether `binary` (a path, or a name to find on PATH) exists. */
const isInstalled = (binary) => (binary.includes('/') ? [binary] : (process.env.PATH ?? '').split(':').map((dir) => join(dir, binary))).some((path) => existsSync(path))

/** Installs a Debian package with apt-get when its binary is missing and we are root; otherwise says how to get it. */
function ensureAptPackage({ aptPackage, binary, envVar, neededFor }) {
  if (isInstalled(binary)) return
  if (process.getuid?.() !== 0) {
    console.error(`${aptPackage} is missing (${binary}): run \`sudo apt-get install -y ${aptPackage}\` (Debian) or set ${envVar}.`)
    process.exit(1)
  }
  console.log(`Installing Debian's ${aptPackage} (apt-get)…`)
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  for (const args of [['update', '-qq'], ['install', '-y', '-qq', aptPackage]]) {
    const result = spawnSync('apt-get', args, { stdio: 'inherit', env })
    if (result.status !== 0) {
      console.error(`apt-get ${args.join(' ')} failed: ${aptPackage} is needed for ${neededFor}.`)
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

/** Runs the steps side by side, each one's output held and printed whole when it ends, so none interleave. */
async function runTogether(steps) {
  const results = await Promise.all(
    steps.map(
      ([name, command, args]) =>
        new Promise((resolve) => {
          const started = Date.now()
          const output = []
          // Piped output is not a terminal: colours are asked for only when ours is one (any FORCE_COLOR turns some tools' on).
          const env = process.stdout.isTTY ? { ...process.env, FORCE_COLOR: '1' } : process.env
          const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env })
          child.stdout.on('data', (chunk) => output.push(chunk))
          child.stderr.on('data', (chunk) => output.push(chunk))
          let hasEnded = false
          const end = (status) => {
            if (hasEnded) return
            hasEnded = true
            console.log(`\n▶ ${name}: ${command} ${args.join(' ')}`)
            process.stdout.write(Buffer.concat(output))
            console.log(`◀ ${name}: ${status === 0 ? 'ok' : `failed (exit ${status})`} in ${((Date.now() - started) / 1000).toFixed(1)} s`)
            resolve(status === 0)
          }
          child.on('error', (error) => {
            output.push(Buffer.from(`${error.message}\n`))
            end(null)
          })
          child.on('close', end)
        }),
    ),
  )
  return steps.filter((_, index) => !results[index]).map(([name]) => name)
}

/** Where the packed-package tests' host apps built ahead are recorded: `<name>.json` gives an app's folder (hostAppBuilds.ts). */
const hostAppsDir = resolve('.tessera/host-apps')

/**
 * Builds the packed-package tests' host apps (test/e2e/prepareHostApps.ts) at the lowest priority, on the CPU time the
 * tests leave idle, its output in .tessera/reports/host-apps.log; resolves when it ends. Those tests wait for an app
 * being built, and build again one it could not build.
 */
function buildHostAppsAhead() {
  const started = Date.now()
  const log = openSync('.tessera/reports/host-apps.log', 'w')
  const command = [process.execPath, '--import', 'tsx', 'test/e2e/prepareHostApps.ts']
  const niced = isInstalled('nice') ? ['nice', ['-n', '19', ...command]] : [command[0], command.slice(1)]
  const child = spawn(niced[0], niced[1], { stdio: ['ignore', log, log] })
  return new Promise((resolve) => {
    let hasEnded = false
    const end = () => {
      if (hasEnded) return
      hasEnded = true
      console.log(`\n◀ host apps built ahead in ${((Date.now() - started) / 1000).toFixed(1)} s:\n${readFileSync('.tessera/reports/host-apps.log', 'utf8').trim()}`)
      resolve()
    }
    child.on('error', end)
    child.on('close', end)
  })
}

/** Removes the host apps built ahead that no test took (a run that stopped half-way), folders and records. */
function removeHostAppsBuiltAhead() {
  if (!existsSync(hostAppsDir)) return
  for (const record of readdirSync(hostAppsDir).filter((file) => file.endsWith('.json'))) {
    try {
      rmSync(JSON.parse(readFileSync(join(hostAppsDir, record), 'utf8')).dir, { recursive: true, force: true })
    } catch {
      // A record cut short: only its own file goes.
    }
  }
  rmSync(hostAppsDir, { recursive: true, force: true })
}

function readCounts(path, pick) {
  try {
    return pick(JSON.parse(readFileSync(path, 'utf8')))
  } catch {
    return null
  }
}

ensureDeps()
ensureAptPackage({ aptPackage: 'chromium', binary: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', envVar: 'CHROMIUM_PATH', neededFor: 'the browser tests' })
// The relay's tests run it on Redis too (services/relay/testing/startRedis.ts).
ensureAptPackage({ aptPackage: 'redis-server', binary: process.env.REDIS_SERVER ?? 'redis-server', envVar: 'REDIS_SERVER', neededFor: "the relay's tests" })
ensureAptPackage({ aptPackage: 'haproxy', binary: process.env.HAPROXY || '/usr/sbin/haproxy', envVar: 'HAPROXY', neededFor: 'the tests of `npm run services -- --instances N` (services/cluster)' })
rmSync('.tessera/reports', { recursive: true, force: true })
mkdirSync('.tessera/reports', { recursive: true })

const bin = (name) => `node_modules/.bin/${name}`
// The checks share the two cores (each is mostly one process); the test runners each want the machine to themselves.
const failedSteps = await runTogether([
  ['typecheck', bin('tsc'), ['--noEmit', '-p', 'tsconfig.json']],
  ['lint', bin('eslint'), ['--max-warnings=0', '.']],
  ['size', 'npm', ['run', '--silent', 'size']],
])
// The size step built dist/ from these sources: the packed-package tests pack it as it is (test/e2e/hostApps.ts).
if (!failedSteps.includes('size')) process.env.TESSERA_DIST_IS_FRESH = '1'
// Their host apps are built beside the tests, at the lowest priority.
removeHostAppsBuiltAhead()
mkdirSync(hostAppsDir, { recursive: true })
process.env.TESSERA_HOST_APPS = hostAppsDir
const hostAppsBuilt = buildHostAppsAhead()
if (!run('unit', bin('vitest'), ['run', '--reporter=default', '--reporter=json', '--outputFile=.tessera/reports/unit.json'])) failedSteps.push('unit')
if (!run('e2e', bin('playwright'), ['test'])) failedSteps.push('e2e')
await hostAppsBuilt
removeHostAppsBuiltAhead()

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
