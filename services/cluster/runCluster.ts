import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { freePorts } from '../stack/ports'
import { createHaproxyConfig, type ClusterServiceName } from './haproxyConfig'

/** util-linux's setpriv (Debian), which can give a child a signal for when its parent dies. */
const SETPRIV = '/usr/bin/setpriv'

/** Instances listen here: only the balancer on this host reaches them. */
const INSTANCE_HOST = '127.0.0.1'

/** The variable each service's port is read from by services/main.ts, and the service's name in what is printed. */
const serviceFacts: Record<ClusterServiceName, { envVar: string; title: string; scheme: 'http' | 'ws' }> = {
  api: { envVar: 'API_PORT', title: 'data service', scheme: 'http' },
  relay: { envVar: 'RELAY_PORT', title: 'relay', scheme: 'ws' },
  auth: { envVar: 'AUTH_PORT', title: 'auth service', scheme: 'http' },
  paymaster: { envVar: 'PAYMASTER_PORT', title: 'paymaster', scheme: 'http' },
}

export type RunClusterParameters = {
  instances: number
  /** Where the balancer listens (HOST). */
  host: string
  /** The balancer's port for each service; the auth service's and the paymaster's only when they are configured. */
  publicPorts: { api: number; relay: number; auth?: number; paymaster?: number }
  env: NodeJS.ProcessEnv
  /** HAProxy's binary (haproxyBinary). */
  haproxy?: string
  /** How long an instance has after SIGTERM to drain before it is killed. */
  drainTimeoutMs?: number
  /** How long the instances have to answer `/ready` at start (and a restarted instance, again). */
  startTimeoutMs?: number
  /** The wait before the first restart of an instance that died; it doubles with each death in a row, up to 30 s. */
  restartDelayMs?: number
}

/** An instance that dies this many times in a row, each before it has run RUN_LONG_ENOUGH_MS, is not restarted again. */
const MAX_DEATHS_IN_ROW = 5
/** An instance that has run this long since its (re)start has its count of deaths in a row reset. */
const RUN_LONG_ENOUGH_MS = 60_000
const MAX_RESTART_DELAY_MS = 30_000

/**
 * The wait before restarting an instance that has died `deathsInRow` times in a row: `firstDelayMs`, doubling with each
 * death, at most 30 s; undefined from the MAX_DEATHS_IN_ROW-th on (left down).
 * @example restartDelay(3, 1_000) // 4_000
 */
export function restartDelay(deathsInRow: number, firstDelayMs: number): number | undefined {
  if (deathsInRow >= MAX_DEATHS_IN_ROW) return undefined
  return Math.min(firstDelayMs * 2 ** (deathsInRow - 1), MAX_RESTART_DELAY_MS)
}

type Instance = {
  index: number
  ports: Partial<Record<ClusterServiceName, number>>
  child: ChildProcess
  startedAt: number
  /** Deaths since it last ran RUN_LONG_ENOUGH_MS. */
  deathsInRow: number
  /** Its restart, waiting for its delay. */
  restartTimer?: NodeJS.Timeout
  /** Not restarted any more (MAX_DEATHS_IN_ROW). */
  isGivenUp: boolean
}

/** HAProxy's binary: HAPROXY, else Debian's (in /usr/sbin, which a user's PATH may lack), else `haproxy` on PATH. */
export const haproxyBinary = (env: NodeJS.ProcessEnv) => env.HAPROXY || (existsSync('/usr/sbin/haproxy') ? '/usr/sbin/haproxy' : 'haproxy')

const fail = (message: string): never => {
  console.error(message)
  process.exit(1)
}

/** Prints each line a child writes, after `prefix`. */
function prefixLines(child: ChildProcess, prefix: string) {
  for (const stream of [child.stdout, child.stderr]) {
    if (stream) createInterface({ input: stream }).on('line', (line) => console.log(`${prefix} ${line}`))
  }
}

const hasExited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null
const exitedWith = (child: ChildProcess) => (child.signalCode ? `signal ${child.signalCode}` : `code ${child.exitCode}`)

/** Sends `signal` and waits for the exit; what has not exited within `timeoutMs` is killed. */
async function stopChild(child: ChildProcess, signal: NodeJS.Signals, timeoutMs: number) {
  if (hasExited(child)) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill(signal)
  const killer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
  await exited
  clearTimeout(killer)
}

/** Whether `url` answers 200 within a second. */
const answersReady = (url: string) => fetch(url, { signal: AbortSignal.timeout(1_000) }).then((response) => response.status === 200, () => false)

/** Free loopback ports for the instances, none of them one the balancer will take. */
async function pickInstancePorts(count: number, taken: ReadonlySet<number>) {
  const ports: number[] = []
  while (ports.length < count) ports.push(...Object.values(await freePorts(INSTANCE_HOST)).filter((port) => !taken.has(port) && !ports.includes(port)))
  return ports.slice(0, count)
}

/**
 * `npm run services -- --instances N`: N processes of services/main.ts on internal loopback ports, each running every
 * service, behind HAProxy on the public ports (one frontend per service, health checks on `/ready`). Refuses without
 * DATABASE_URL and REDIS_URL, which the instances share. An instance that dies is restarted on its ports, after 1 s
 * doubling with each death in a row (up to 30 s); one that died MAX_DEATHS_IN_ROW times in a row, each soon after its
 * start, is left down. SIGTERM, SIGINT or SIGHUP drains the instances, then stops HAProxy, then exits 0; it exits 1 if
 * HAProxy stops by itself or no instance is left to restart. Never resolves.
 * @example await runCluster({ instances: 3, host: '127.0.0.1', publicPorts: { api: 8787, relay: 8790 }, env: process.env })
 */
export async function runCluster({
  instances,
  host,
  publicPorts,
  env,
  haproxy = haproxyBinary(env),
  drainTimeoutMs = 15_000,
  startTimeoutMs = 120_000,
  restartDelayMs = 1_000,
}: RunClusterParameters): Promise<never> {
  const missing = [
    ...(env.DATABASE_URL ? [] : ['DATABASE_URL (the PostgreSQL the data and auth services share)']),
    ...(env.REDIS_URL ? [] : [`REDIS_URL (the Redis the relay${publicPorts.paymaster === undefined ? '' : ' and paymaster'} instances share)`]),
  ]
  if (missing.length > 0) fail(`--instances ${instances} needs ${missing.join(' and ')}; without them, run one instance.`)
  const services = (['api', 'relay', 'auth', 'paymaster'] as const).filter((name) => publicPorts[name] !== undefined)

  // 1. The HAProxy config, checked by HAProxy itself before any instance starts.
  const ports = await pickInstancePorts(instances * services.length, new Set(services.map((name) => publicPorts[name]!)))
  const instancesPorts = Array.from({ length: instances }, (_, index) => Object.fromEntries(services.map((name, s) => [name, ports[index * services.length + s]!])))
  const dir = mkdtempSync(join(tmpdir(), 'tessera-cluster-'))
  const configPath = join(dir, 'haproxy.cfg')
  const statsSocket = join(dir, 'haproxy.sock')
  const config = createHaproxyConfig({
    bindHost: host,
    statsSocket,
    services: services.map((name) => ({ name, publicPort: publicPorts[name]!, servers: instancesPorts.map((p) => `${INSTANCE_HOST}:${p[name]}`) })),
  })
  writeFileSync(configPath, config)
  const check = spawnSync(haproxy, ['-c', '-f', configPath], { encoding: 'utf8' })
  if (check.error) {
    rmSync(dir, { recursive: true, force: true })
    fail(`HAProxy could not be run (${haproxy}: ${check.error.message}): install it (apt-get install -y haproxy on Debian) or set HAPROXY to its binary.`)
  }
  if (check.status !== 0) fail(`HAProxy refused the config in ${configPath}:\n${check.stderr}${check.stdout}`)

  // 2. The instances: services/main.ts each, with an IPC channel so an instance leaves with this process. Each has a
  // process group of its own (as HAProxy), so a Ctrl-C reaches this process only and the shutdown goes in order.
  const mainPath = fileURLToPath(new URL('../main.ts', import.meta.url))
  const relayPublicUrl = env.RELAY_PUBLIC_URL || `ws://${host}:${publicPorts.relay}`
  console.log(`Starting ${instances} instances of the services…`)
  const spawnInstance = (index: number, instancePorts: Instance['ports']) => {
    const portsEnv = Object.fromEntries(services.map((name) => [serviceFacts[name].envVar, String(instancePorts[name])]))
    const child = spawn(process.execPath, ['--import', import.meta.resolve('tsx'), mainPath], {
      env: { ...env, ...portsEnv, HOST: INSTANCE_HOST, RELAY_PUBLIC_URL: relayPublicUrl },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      detached: true,
    })
    prefixLines(child, `[${index}]`)
    return child
  }
  const running: Instance[] = instancesPorts.map((instancePorts, i) => ({ index: i + 1, ports: instancePorts, child: spawnInstance(i + 1, instancePorts), startedAt: Date.now(), deathsInRow: 0, isGivenUp: false }))
  /** The first of the instance's services that did not answer `/ready` by `deadline`, or before it exited; undefined once all have. */
  const notReady = async (instance: Instance, deadline: number) => {
    for (const name of services) {
      while (!(await answersReady(`http://${INSTANCE_HOST}:${instance.ports[name]}/ready`))) {
        if (hasExited(instance.child) || Date.now() > deadline) return name
        await new Promise((resolve) => setTimeout(resolve, 200))
      }
    }
    return undefined
  }
  // HAProxy starts once every instance is ready.
  let balancer: ChildProcess | undefined = undefined
  let stopping: Promise<never> | undefined
  const stop = (exitCode: number) =>
    (stopping ??= (async () => {
      console.log('Stopping: the instances drain, then HAProxy stops…')
      for (const instance of running) clearTimeout(instance.restartTimer)
      await Promise.all(running.map(({ child }) => stopChild(child, 'SIGTERM', drainTimeoutMs)))
      if (balancer) await stopChild(balancer, 'SIGTERM', 5_000)
      rmSync(dir, { recursive: true, force: true })
      return process.exit(exitCode)
    })())
  const abort = (message: string) => {
    console.error(message)
    return stop(1)
  }
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => void stop(0))

  // 3. Every instance ready, then the balancer in front of them.
  const deadline = Date.now() + startTimeoutMs
  for (const instance of running) {
    const name = await notReady(instance, deadline)
    if (name === undefined) continue
    return hasExited(instance.child)
      ? abort(`Instance ${instance.index} exited (${exitedWith(instance.child)}) before it was ready: its lines above say why.`)
      : abort(`Instance ${instance.index}'s ${serviceFacts[name].title} was not ready within ${startTimeoutMs / 1_000} s.`)
  }
  // HAProxy cannot tell that this process is gone (the instances can: their IPC channel closes). On Linux, setpriv has
  // the kernel send it SIGTERM then, so even a SIGKILL of this process leaves nothing behind.
  const haproxyArgs = ['-db', '-f', configPath]
  const [command, args] = existsSync(SETPRIV) ? [SETPRIV, ['--pdeathsig', 'TERM', '--', haproxy, ...haproxyArgs]] : [haproxy, haproxyArgs]
  balancer = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], detached: true })
  prefixLines(balancer, '[haproxy]')
  const reachableHost = host === '0.0.0.0' || host === '::' ? INSTANCE_HOST : host
  while (!(await answersReady(`http://${reachableHost}:${publicPorts.api}/ready`))) {
    if (hasExited(balancer)) return abort(`HAProxy exited (${exitedWith(balancer)}) at start: its lines above say why.`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  balancer.once('exit', () => {
    if (!stopping) void abort(`HAProxy exited (${exitedWith(balancer!)}): stopping the instances.`)
  })
  // 4. An instance that dies is restarted on its ports after a delay that doubles with each death in a row; HAProxy's
  // checks take it out meanwhile and bring it back once it is ready.
  const watch = (instance: Instance) => {
    const { child } = instance
    const onExit = () => {
      if (stopping) return
      if (Date.now() - instance.startedAt >= RUN_LONG_ENOUGH_MS) instance.deathsInRow = 0
      instance.deathsInRow++
      const died = `Instance ${instance.index} (pid ${child.pid}) exited (${exitedWith(child)}): the balancer sends its requests to the others`
      const delayMs = restartDelay(instance.deathsInRow, restartDelayMs)
      if (delayMs === undefined) {
        instance.isGivenUp = true
        console.error(`${died}. It died ${MAX_DEATHS_IN_ROW} times in a row, each within ${RUN_LONG_ENOUGH_MS / 1_000} s of its start: not restarted again.`)
        if (running.every((other) => other.isGivenUp)) void abort('No instance is left to restart: stopping.')
        return
      }
      console.error(`${died}; restarting it in ${delayMs / 1_000} s.`)
      instance.restartTimer = setTimeout(() => {
        if (stopping) return
        instance.child = spawnInstance(instance.index, instance.ports)
        instance.startedAt = Date.now()
        watch(instance)
        void notReady(instance, Date.now() + startTimeoutMs).then((name) => {
          if (stopping || hasExited(instance.child)) return
          if (name === undefined) return console.log(`Instance ${instance.index} is back (pid ${instance.child.pid}): HAProxy's checks send it requests again.`)
          // One that does not get ready in time is stopped, and counts as a death (above).
          console.error(`Instance ${instance.index}'s ${serviceFacts[name].title} was not ready within ${startTimeoutMs / 1_000} s of its restart: stopping it.`)
          void stopChild(instance.child, 'SIGTERM', drainTimeoutMs)
        })
      }, delayMs)
    }
    if (hasExited(child)) onExit()
    else child.once('exit', onExit)
  }
  running.forEach(watch)

  console.log(`Tessera services: ${instances} instances behind HAProxy (pid ${balancer.pid}; config ${configPath}; runtime API ${statsSocket})`)
  for (const name of services) console.log(`  ${serviceFacts[name].title.padEnd(13)} ${serviceFacts[name].scheme}://${host}:${publicPorts[name]}`)
  for (const { index, child, ports: instancePorts } of running) {
    console.log(`  instance ${index} (pid ${child.pid}): ${services.map((name) => `${serviceFacts[name].title} ${INSTANCE_HOST}:${instancePorts[name]}`).join(', ')}`)
  }
  return new Promise<never>(() => {})
}
