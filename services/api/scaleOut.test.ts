import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createWalletClient, http } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { foundry } from 'viem/chains'
import { createSiweMessage } from 'viem/siwe'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startAnvil, type Anvil } from '../chain/anvil'
import { seedChain } from '../chain/seedChain'
import { freePorts } from '../stack/ports'
import { openDatabase, type Database } from './db/createDatabase'
import { HISTORY_CACHE_MS } from './routes/historyCache'
import { startPostgres } from './testing/startPostgres'

// anvil's well-known dev key of account 1: it holds the demo tokens minted at deployment.
const alice = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d')
const PROJECT = 'site'
const SITE = 'https://site.test'

type Instance = { name: string; url: string; child: ChildProcess; exited: Promise<number | null>; output: () => string }
type Health = { status: string; indexer?: 'leader' | 'follower' }

/** The data service as deployed (`npm run api`: services/api/main.ts), one process per instance, on one database. */
async function startInstance(name: string, env: Record<string, string>): Promise<Instance> {
  const port = (await freePorts()).api
  // node itself with tsx's loader (not the tsx wrapper, which would outlive a SIGKILL's target in its child).
  const child = spawn(process.execPath, ['--import', 'tsx', 'services/api/main.ts'], { env: { ...process.env, ...env, HOST: '127.0.0.1', PORT: String(port) }, stdio: 'pipe' })
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => void (output += chunk.toString()))
  child.stderr?.on('data', (chunk: Buffer) => void (output += chunk.toString()))
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)))
  return { name, url: `http://127.0.0.1:${port}`, child, exited, output: () => output }
}

const health = (instance: Instance) => fetch(`${instance.url}/health`).then((r) => r.json() as Promise<Health>, () => undefined)

/** Resolves once the instance answers its health check (outside a test, where expect.poll cannot run). */
async function untilHealthy(instance: Instance, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs
  while ((await health(instance))?.status !== 'ok') {
    if (Date.now() > deadline || instance.child.exitCode !== null) throw new Error(`instance ${instance.name} did not start: ${instance.output()}`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
}
const roles = async (instances: Instance[]) => (await Promise.all(instances.map(health))).map((answer) => answer?.indexer).sort()

describe('two data-service instances on one PostgreSQL', () => {
  let postgres: Awaited<ReturnType<typeof startPostgres>>
  let anvil: Anvil
  let db: Database
  let dir: string
  let env: Record<string, string>
  let seededAccounts: readonly `0x${string}`[]
  const instances: Instance[] = []
  const call = (instance: Instance, path: string, body?: unknown) =>
    fetch(`${instance.url}${path}${path.includes('?') ? '&' : '?'}projectId=${PROJECT}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: { origin: SITE, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
  /** The instance that indexes now, and the one that does not. */
  const leaderAndFollower = async (pair: Instance[]) => {
    const answers = await Promise.all(pair.map(health))
    const leader = pair[answers.findIndex((a) => a?.indexer === 'leader')]!
    return { leader, follower: pair.find((i) => i !== leader)! }
  }
  /** Sends a transfer on the chain; answers a check of whether `instance`'s history of its receiver shows it yet. */
  const transferShownBy = async (instance: Instance) => {
    const [from, to] = seededAccounts
    const hash = await createWalletClient({ chain: foundry, transport: http(anvil.rpcUrl) }).sendTransaction({ account: from!, to: to!, value: 12_345n })
    return async () => ((await (await call(instance, `/v1/account/${to}/history?chainId=eip155:31337`)).json()) as { data: { id: string }[] }).data.some((t) => t.id.includes(hash))
  }
  const advisoryLocksHeld = async () => Number((await db.query<{ count: string }>("select count(*) from pg_locks where locktype = 'advisory' and granted"))[0]!.count)

  beforeAll(async () => {
    postgres = await startPostgres()
    anvil = await startAnvil({ port: (await freePorts()).anvil, chainId: 31337 })
    const seeded = await seedChain({ rpcUrl: anvil.rpcUrl })
    seededAccounts = seeded.devAccounts
    dir = mkdtempSync(join(tmpdir(), 'tessera-scale-out-'))
    const config = {
      projects: [{ id: PROJECT, allowedOrigins: [SITE] }],
      chains: [{ chainId: 31337, name: 'Local', rpcUrl: anvil.rpcUrl, multicall3: seeded.multicall3, nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, tokens: seeded.tokens }],
    }
    writeFileSync(join(dir, 'config.json'), JSON.stringify(config))
    env = { TESSERA_API_CONFIG: join(dir, 'config.json'), DATABASE_URL: postgres.url }
    // Both at once on an empty database: their migrations take turns.
    instances.push(...(await Promise.all([startInstance('A', env), startInstance('B', env)])))
    await Promise.all(instances.map((instance) => untilHealthy(instance)))
    db = await openDatabase({ databaseUrl: postgres.url })
  }, 120_000)

  afterAll(async () => {
    for (const instance of instances) instance.child.kill('SIGKILL')
    await Promise.all(instances.map((i) => i.exited))
    await db?.close()
    await anvil?.stop()
    postgres?.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  it('elects one indexer: one instance leads, the other follows, one lock is held, and both serve what it indexed', async () => {
    const [a, b] = instances as [Instance, Instance]
    await expect.poll(() => roles([a, b]), { timeout: 10_000 }).toEqual(['follower', 'leader'])
    expect(await advisoryLocksHeld()).toBe(1)
    const { follower } = await leaderAndFollower([a, b])
    expect(follower.output()).not.toContain('holds the indexer lock')
    // A transfer the leader indexes is in the follower's answers too (one database).
    await expect.poll(await transferShownBy(follower), { timeout: 10_000 }).toBe(true)
    for (const instance of [a, b]) expect(await (await fetch(`${instance.url}/ready`)).json()).toEqual({ status: 'ready', database: 'postgres' })
  }, 30_000)

  it('accepts a sign-in nonce issued by one instance once, through another, and refuses it the second time on either', async () => {
    const [a, b] = instances as [Instance, Instance]
    const { nonce } = (await (await call(a, '/v1/sessions/nonce', {})).json()) as { nonce: string }
    const message = createSiweMessage({ address: alice.address, chainId: 31337, domain: 'site.test', uri: SITE, version: '1', nonce, issuedAt: new Date() })
    const body = { message, signature: await alice.signMessage({ message }) }
    const first = await call(b, '/v1/sessions', body)
    expect(first.status).toBe(201)
    const { id } = (await first.json()) as { id: string }
    expect((await call(a, `/v1/sessions/${id}`)).status).toBe(200)
    for (const instance of [b, a]) {
      const again = await call(instance, '/v1/sessions', body)
      expect(again.status).toBe(409)
      expect(((await again.json()) as { error: { code: string } }).error.code).toBe('NONCE_USED')
    }
  })

  it('resolves a name registered through one instance on the other at once, and its cached history pages within their lifetime', async () => {
    const [a, b] = instances as [Instance, Instance]
    const historyNames = async () => {
      const page = (await (await call(b, `/v1/account/${alice.address}/history?chainId=eip155:31337`)).json()) as { data: { metadata: { sentToName: string | null } }[] }
      return page.data.map((t) => t.metadata.sentToName)
    }
    // B keeps this page (no name yet) in its cache.
    expect(await historyNames()).not.toContain('alice.tessera.id')
    const message = JSON.stringify({ name: 'alice', attributes: {}, timestamp: Math.floor(Date.now() / 1_000), coinType: 60 })
    const registered = await call(a, '/v1/profile/account', { coin_type: 60, address: alice.address, message, signature: await alice.signMessage({ message }) })
    const registeredAt = performance.now()
    expect(registered.status).toBe(200)
    expect(await (await call(b, '/v1/profile/account/alice')).json()).toMatchObject({ name: 'alice.tessera.id', addresses: { '60': { address: alice.address } } })
    expect(await (await call(b, `/v1/identity/${alice.address}`)).json()).toEqual({ name: 'alice.tessera.id', avatar: null })
    await expect.poll(historyNames, { timeout: 5_000, interval: 50 }).toContain('alice.tessera.id')
    expect(performance.now() - registeredAt).toBeLessThan(HISTORY_CACHE_MS + 500)
  })

  it('hands the indexing to the follower within 10 s of the leader’s death, and indexing goes on', async () => {
    const { leader, follower } = await leaderAndFollower(instances.slice(0, 2))
    leader.child.kill('SIGKILL')
    const killedAt = performance.now()
    await leader.exited
    await expect.poll(() => health(follower).then((h) => h?.indexer), { timeout: 10_000, interval: 50 }).toBe('leader')
    const takeoverMs = performance.now() - killedAt
    console.log(`indexer takeover after the leader's death: ${Math.round(takeoverMs)} ms`)
    expect(takeoverMs).toBeLessThan(10_000)
    expect(await advisoryLocksHeld()).toBe(1)
    await expect.poll(await transferShownBy(follower), { timeout: 10_000 }).toBe(true)
  }, 30_000)

  it('drains on SIGTERM: exits 0 and releases the lock, and a waiting instance takes over at its next try', async () => {
    const { leader } = await leaderAndFollower(instances.slice(0, 2))
    const waiting = await startInstance('C', env)
    instances.push(waiting)
    await untilHealthy(waiting)
    expect((await health(waiting))?.indexer).toBe('follower')
    leader.child.kill('SIGTERM')
    const stoppedAt = performance.now()
    expect(await leader.exited).toBe(0)
    await expect.poll(() => health(waiting).then((h) => h?.indexer), { timeout: 5_000, interval: 50 }).toBe('leader')
    console.log(`indexer takeover after a SIGTERM: ${Math.round(performance.now() - stoppedAt)} ms`)
  }, 90_000)
})
