import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startPostgres } from '../api/testing/startPostgres'
import { startMailCapture } from '../mail/startMailCapture'
import { connectRawClient, type RawClient } from '../relay/testing/connectRawClient'
import { createClientJwt } from '../relay/testing/createClientJwt'
import { startRedis } from '../relay/testing/startRedis'
import { freePorts } from '../stack/ports'

const SITE = 'https://site.test'
const FRAME = 'https://frame.test'
/** A paymaster for a chain no test reaches: its instances start and answer without it. */
const paymasterConfig = {
  signerKey: '0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6',
  chains: [{ chainId: 31337, rpcUrl: 'http://127.0.0.1:1', paymasterAddress: '0x1111111111111111111111111111111111111111', entryPointAddress: '0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108' }],
  projects: [{ id: 'site', allowedOrigins: [SITE], chainIds: [31337], dailyGasPerAccount: 1_000_000 }],
}
/** A JSON-RPC request the paymaster answers with an error naming the field, without asking the chain. */
const paymasterCall = { jsonrpc: '2.0', id: 1, method: 'pm_getPaymasterStubData', params: [{}, '0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108', '0x7a69', { projectId: 'site' }] }
const SERVICES = ['api', 'relay', 'auth', 'paymaster']
/** `npm run services` as node itself runs it (the tsx wrapper would stand between the test and the launcher's pid). */
const launcherArgs = ['--import', 'tsx', 'services/main.ts', '--instances', '3']

type InstanceLine = { index: number; pid: number; api: number; relay: number; auth: number }
type ServerStat = { status: string; sessions: number }
type Launcher = { child: ChildProcess; exited: Promise<number | null>; output: () => string; instances: InstanceLine[]; haproxyPid: number; statsSocket: string }

/** Whether the process is there (Linux, as the launcher's HAProxy and setpriv are). */
const isAlive = (pid: number) => existsSync(`/proc/${pid}`)

/** Starts the launcher and resolves once it says every instance and HAProxy are up, with what it printed about them. */
async function startLauncher(env: Record<string, string>): Promise<Launcher> {
  const child = spawn(process.execPath, launcherArgs, { env: { ...process.env, ...env }, stdio: 'pipe' })
  let output = ''
  child.stdout!.on('data', (chunk: Buffer) => void (output += chunk.toString()))
  child.stderr!.on('data', (chunk: Buffer) => void (output += chunk.toString()))
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
  const deadline = Date.now() + 100_000
  while (!output.includes('Tessera services: 3 instances behind HAProxy')) {
    if (child.exitCode !== null || Date.now() > deadline) {
      // Its instances leave with it (their IPC channel closes), and so does HAProxy (setpriv --pdeathsig).
      child.kill('SIGKILL')
      throw new Error(`The launcher did not start:\n${output}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  const instances = [...output.matchAll(/instance (\d+) \(pid (\d+)\): data service 127\.0\.0\.1:(\d+), relay 127\.0\.0\.1:(\d+), auth service 127\.0\.0\.1:(\d+)/g)].map((m) => {
    const [index, pid, api, relay, auth] = m.slice(1).map(Number) as [number, number, number, number, number]
    return { index, pid, api, relay, auth }
  })
  const haproxy = /HAProxy \(pid (\d+); config \S+; runtime API (\S+)\)/.exec(output)!
  return { child, exited, output: () => output, instances, haproxyPid: Number(haproxy[1]), statsSocket: haproxy[2]! }
}

/** Kills what is left of a launcher and its children. */
async function killLauncher(launcher: Launcher | undefined) {
  if (!launcher) return
  for (const pid of [...launcher.instances.map((i) => i.pid), launcher.haproxyPid]) if (isAlive(pid)) process.kill(pid, 'SIGKILL')
  launcher.child.kill('SIGKILL')
  await launcher.exited
}

/** HAProxy's `show stat` over its runtime API: each server's status and sessions so far, by `backend/server`. */
async function serverStats(socketPath: string): Promise<Record<string, ServerStat>> {
  const csv = await new Promise<string>((resolve, reject) => {
    const socket = connect(socketPath, () => socket.write('show stat\n'))
    let text = ''
    socket.on('data', (chunk: Buffer) => void (text += chunk.toString()))
    socket.on('end', () => resolve(text))
    socket.on('error', reject)
  })
  const [header = '', ...rows] = csv.trim().split('\n')
  const columns = header.replace(/^# /, '').split(',')
  const cells = rows.map((row) => row.split(',')).filter((cell) => cell[1] !== 'FRONTEND' && cell[1] !== 'BACKEND')
  return Object.fromEntries(cells.map((cell) => [`${cell[0]}/${cell[1]}`, { status: cell[columns.indexOf('status')]!, sessions: Number(cell[columns.indexOf('stot')]) }]))
}

/** What the instances share or talk to: PostgreSQL, Redis, and an SMTP capture for the auth service's mail. */
async function startBackends() {
  const [postgres, redis, mail] = await Promise.all([startPostgres(), startRedis(), startMailCapture({ smtpPort: 0, httpPort: 0 })])
  return {
    mail,
    urls: { DATABASE_URL: postgres.url, REDIS_URL: redis.url, TESSERA_SMTP_URL: mail.smtpUrl },
    stop: async () => {
      await Promise.all([redis.stop(), mail.stop()])
      postgres.stop()
    },
  }
}

/** Subscribes `subscriber` to a fresh topic, publishes `message` there through `publisher`, and waits for its push. */
async function expectPushed(subscriber: RawClient, publisher: RawClient, message: string) {
  const topic = randomBytes(32).toString('hex')
  await subscriber.request('irn_subscribe', { topic })
  expect(await publisher.request('irn_publish', { topic, message, ttl: 300, tag: 1100 })).toMatchObject({ result: true })
  await expect.poll(() => subscriber.pushes.map((p) => p.message)).toEqual([message])
}

/** Rejects when `promise` takes longer than `ms`. */
const within = <T,>(promise: Promise<T>, ms: number) =>
  Promise.race([promise, new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms))])

describe('npm run services -- --instances 3: three instances of each service behind HAProxy', () => {
  let backends: Awaited<ReturnType<typeof startBackends>>
  let dir: string
  /** The launcher's environment: its config, the public ports and the backends' URLs. */
  let env: Record<string, string>
  let launcher: Launcher
  let publicUrl: { api: string; relay: string; auth: string; paymaster: string }

  beforeAll(async () => {
    backends = await startBackends()
    const ports = await freePorts()
    publicUrl = { api: `http://127.0.0.1:${ports.api}`, relay: `ws://127.0.0.1:${ports.relay}`, auth: `http://127.0.0.1:${ports.auth}`, paymaster: `http://127.0.0.1:${ports.paymaster}` }
    dir = mkdtempSync(join(tmpdir(), 'tessera-cluster-test-'))
    const config = { projects: [{ id: 'site', allowedOrigins: [SITE] }], chains: [], auth: { publicUrl: publicUrl.auth, frameOrigins: [FRAME], mailFrom: 'Site <no-reply@site.test>' } }
    writeFileSync(join(dir, 'config.json'), JSON.stringify(config))
    env = {
      ...backends.urls,
      TESSERA_API_CONFIG: join(dir, 'config.json'),
      TESSERA_PAYMASTER_CONFIG_JSON: JSON.stringify(paymasterConfig),
      API_PORT: String(ports.api),
      RELAY_PORT: String(ports.relay),
      AUTH_PORT: String(ports.auth),
      PAYMASTER_PORT: String(ports.paymaster),
    }
    const startedAt = performance.now()
    launcher = await startLauncher(env)
    console.log(`three instances and HAProxy ready in ${Math.round(performance.now() - startedAt)} ms`)
  }, 120_000)

  afterAll(async () => {
    await killLauncher(launcher)
    await backends?.stop()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  it('refuses more than one instance without DATABASE_URL and REDIS_URL, naming what is missing', () => {
    const run = (shared: Record<string, string>) => spawnSync(process.execPath, launcherArgs, { env: { ...process.env, ...env, ...shared }, encoding: 'utf8', timeout: 30_000 })
    const neither = run({ DATABASE_URL: '', REDIS_URL: '' })
    expect(neither.status).toBe(1)
    expect(neither.stderr.trim()).toBe('--instances 3 needs DATABASE_URL (the PostgreSQL the data and auth services share) and REDIS_URL (the Redis the relay and paymaster instances share); without them, run one instance.')
    expect(run({ REDIS_URL: '' }).stderr.trim()).toBe('--instances 3 needs REDIS_URL (the Redis the relay and paymaster instances share); without them, run one instance.')
    expect(run({ TESSERA_PAYMASTER_CONFIG_JSON: '', REDIS_URL: '' }).stderr.trim()).toBe('--instances 3 needs REDIS_URL (the Redis the relay instances share); without them, run one instance.')
  }, 60_000)

  it('serves every service through the balancer, each on three instances that HAProxy checks', async () => {
    expect(launcher.instances.map((i) => i.index)).toEqual([1, 2, 3])
    const nonce = await fetch(`${publicUrl.api}/v1/sessions/nonce?projectId=site`, { method: 'POST', headers: { origin: SITE, 'content-type': 'application/json' }, body: '{}' })
    expect(nonce.status).toBe(201)
    expect(await nonce.json()).toMatchObject({ nonce: expect.any(String) })
    expect(await (await fetch(`${publicUrl.relay.replace('ws:', 'http:')}/health`)).json()).toMatchObject({ status: 'ok', service: 'tessera-relay' })
    expect(await (await fetch(`${publicUrl.auth}/ready`)).json()).toEqual({ status: 'ready', database: 'postgres' })
    expect(await (await fetch(`${publicUrl.paymaster}/ready`)).json()).toEqual({ status: 'ready' })
    const answer = await fetch(publicUrl.paymaster, { method: 'POST', headers: { origin: SITE, 'content-type': 'application/json' }, body: JSON.stringify(paymasterCall) })
    expect(answer.status).toBe(200)
    expect(await answer.json()).toMatchObject({ jsonrpc: '2.0', id: 1, error: { code: -32602, message: expect.stringContaining('sender') } })
    const stats = await serverStats(launcher.statsSocket)
    expect(Object.entries(stats).map(([name, { status }]) => `${name} ${status}`)).toEqual(SERVICES.flatMap((service) => [1, 2, 3].map((n) => `${service}/${service}${n} UP`)))
  })

  it('pushes a message to a relay client from one on another instance, through the balancer and directly', async () => {
    const relayClients = () => Promise.all(launcher.instances.map(async (i) => ((await (await fetch(`http://127.0.0.1:${i.relay}/health`)).json()) as { clients: number }).clients))
    // Through the balancer (clients sign for its URL): leastconn puts the second WebSocket on an instance with none.
    const jwt = () => createClientJwt({ aud: publicUrl.relay })
    const [subscriber, publisher] = [await connectRawClient(publicUrl.relay, { jwt: jwt() }), await connectRawClient(publicUrl.relay, { jwt: jwt() })]
    try {
      await expect.poll(relayClients).toSatisfy((counts: number[]) => counts.filter((n) => n === 1).length === 2 && counts.includes(0))
      await expectPushed(subscriber, publisher, 'through the balancer')
    } finally {
      subscriber.close()
      publisher.close()
    }
    // Directly on instances 1 and 2 (each accepts a JWT for its own URL as well as the balancer's).
    const [one, two] = launcher.instances as [InstanceLine, InstanceLine]
    const onOne = await connectRawClient(`ws://127.0.0.1:${one.relay}`)
    const onTwo = await connectRawClient(`ws://127.0.0.1:${two.relay}`, { jwt: jwt() })
    try {
      await expectPushed(onOne, onTwo, 'from instance 2')
    } finally {
      onOne.close()
      onTwo.close()
    }
  })

  it('refuses a second code e-mail within 30 s asked through another auth instance, directly and through the balancer', async () => {
    const askCode = async (authUrl: string, email: string) => {
      const response = await fetch(`${authUrl}/v1/email/start?projectId=site`, {
        method: 'POST',
        headers: { origin: FRAME, 'content-type': 'application/json', 'x-tessera-device': randomBytes(32).toString('base64url') },
        body: JSON.stringify({ email }),
      })
      return { status: response.status, json: (await response.json()) as { action?: string; error?: { code: string; message: string; params: { n: number } } } }
    }
    const expectThrottled = ({ status, json }: Awaited<ReturnType<typeof askCode>>) => {
      expect(status).toBe(429)
      const n = json.error!.params.n
      expect(json.error).toEqual({ code: 'EMAIL_LOGIN_THROTTLED', message: `Please try again after ${n} seconds`, params: { n } })
      expect(n).toBeGreaterThan(0)
      expect(n).toBeLessThanOrEqual(30)
    }
    const [one, two] = launcher.instances as [InstanceLine, InstanceLine]
    expect((await askCode(`http://127.0.0.1:${one.auth}`, 'direct@example.test')).json.action).toBe('VERIFY_DEVICE')
    expectThrottled(await askCode(`http://127.0.0.1:${two.auth}`, 'direct@example.test'))

    // Through the balancer: round robin sends the two requests to two instances.
    const before = await serverStats(launcher.statsSocket)
    expect((await askCode(publicUrl.auth, 'balanced@example.test')).json.action).toBe('VERIFY_DEVICE')
    expectThrottled(await askCode(publicUrl.auth, 'balanced@example.test'))
    const after = await serverStats(launcher.statsSocket)
    const used = [1, 2, 3].filter((n) => after[`auth/auth${n}`]!.sessions > before[`auth/auth${n}`]!.sessions)
    expect(used).toHaveLength(2)
    // Only the first of each pair was mailed (a device-approval link).
    await expect.poll(() => backends.mail.messages().flatMap((m) => m.to).sort()).toEqual(['balanced@example.test', 'direct@example.test'])
  })

  it('stops sending to an instance killed with SIGKILL within its checks, restarts it and sends to it again; no request through the balancer fails after', async () => {
    type Outcome = { service: string; at: number; error?: string }
    const outcomes: Outcome[] = []
    let isLoading = true
    const load = async (service: string, attempt: () => Promise<void>) => {
      while (isLoading) {
        const at = performance.now()
        try {
          await within(attempt(), 5_000)
          outcomes.push({ service, at })
        } catch (error) {
          outcomes.push({ service, at, error: (error as Error).message })
        }
        await new Promise((resolve) => setTimeout(resolve, 20))
      }
    }
    const expectOk = async (response: Promise<Response>, status: number) => {
      const { status: got } = await response
      if (got !== status) throw new Error(`status ${got}`)
    }
    const loads = Promise.all([
      load('api', () => expectOk(fetch(`${publicUrl.api}/v1/sessions/nonce?projectId=site`, { method: 'POST', headers: { origin: SITE, 'content-type': 'application/json' }, body: '{}' }), 201)),
      load('auth', () => expectOk(fetch(`${publicUrl.auth}/ready`), 200)),
      load('paymaster', () => expectOk(fetch(publicUrl.paymaster, { method: 'POST', headers: { origin: SITE, 'content-type': 'application/json' }, body: JSON.stringify(paymasterCall) }), 200)),
      load('relay', async () => {
        const client = await connectRawClient(publicUrl.relay, { jwt: createClientJwt({ aud: publicUrl.relay }) })
        try {
          const reply = await client.request('irn_subscribe', { topic: randomBytes(32).toString('hex') })
          if (typeof reply.result !== 'string') throw new Error(`irn_subscribe: ${JSON.stringify(reply.error)}`)
        } finally {
          client.close()
        }
      }),
    ])
    try {
      await new Promise((resolve) => setTimeout(resolve, 1_000))
      const victim = launcher.instances[1]!
      process.kill(victim.pid, 'SIGKILL')
      const killedAt = performance.now()
      const isDown = async () => {
        const stats = await serverStats(launcher.statsSocket)
        return SERVICES.every((service) => stats[`${service}/${service}2`]!.status.startsWith('DOWN'))
      }
      await expect.poll(isDown, { timeout: 10_000, interval: 100 }).toBe(true)
      const downAt = performance.now()
      console.log(`instance 2 out of every backend ${Math.round(downAt - killedAt)} ms after its SIGKILL`)
      // Two checks a second apart, each failing at once (connection refused), plus room for a busy machine.
      expect(downAt - killedAt).toBeLessThan(6_000)
      expect(launcher.output()).toContain(`Instance 2 (pid ${victim.pid}) exited (signal SIGKILL): the balancer sends its requests to the others; restarting it in 1 s.`)
      // The launcher starts it again on its ports; HAProxy's checks bring it back into every backend.
      const isUp = async () => {
        const stats = await serverStats(launcher.statsSocket)
        return SERVICES.every((service) => stats[`${service}/${service}2`]!.status.startsWith('UP'))
      }
      await expect.poll(isUp, { timeout: 45_000, interval: 200 }).toBe(true)
      console.log(`instance 2 back in every backend ${Math.round(performance.now() - killedAt)} ms after its SIGKILL`)
      const back = /Instance 2 is back \(pid (\d+)\)/.exec(launcher.output())
      expect(back).not.toBeNull()
      const newPid = Number(back![1])
      expect(newPid).not.toBe(victim.pid)
      expect(isAlive(newPid)).toBe(true)
      launcher.instances[1] = { ...victim, pid: newPid }
      const before = await serverStats(launcher.statsSocket)
      await new Promise((resolve) => setTimeout(resolve, 2_000))
      isLoading = false
      await loads
      const served = await serverStats(launcher.statsSocket)
      expect(SERVICES.filter((service) => served[`${service}/${service}2`]!.sessions > before[`${service}/${service}2`]!.sessions)).toEqual(SERVICES)
      const after = outcomes.filter((o) => o.at > downAt)
      const failedBefore = outcomes.filter((o) => o.at <= downAt && o.error)
      console.log(`requests through the balancer: ${outcomes.length}, ${after.length} after instance 2 was out; failed before: ${failedBefore.map((o) => `${o.service} (${o.error})`).join(', ') || 'none'}`)
      expect(after.filter((o) => o.error)).toEqual([])
      for (const service of SERVICES) expect(after.filter((o) => o.service === service).length).toBeGreaterThan(5)
    } finally {
      isLoading = false
      await loads
    }
  }, 90_000)

  it('drains on SIGTERM: exits 0 and leaves no process behind', async () => {
    launcher.child.kill('SIGTERM')
    expect(await launcher.exited).toBe(0)
    expect([...launcher.instances.map((i) => i.pid), launcher.haproxyPid].filter(isAlive)).toEqual([])
    expect(await fetch(`${publicUrl.api}/health`).then(() => 'answered', () => 'refused')).toBe('refused')
  }, 30_000)

  it('leaves no process behind when the launcher itself is killed with SIGKILL', async () => {
    const again = await startLauncher(env)
    try {
      again.child.kill('SIGKILL')
      await again.exited
      // The instances see their IPC channel close and drain; HAProxy gets SIGTERM from the kernel (setpriv --pdeathsig).
      await expect.poll(() => [...again.instances.map((i) => i.pid), again.haproxyPid].filter(isAlive), { timeout: 15_000 }).toEqual([])
    } finally {
      await killLauncher(again)
      // Its config folder is what a SIGKILL leaves: the launcher removes it only when it stops by itself.
      rmSync(dirname(again.statsSocket), { recursive: true, force: true })
    }
  }, 120_000)
})
