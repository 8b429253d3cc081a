import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { connect } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll } from 'vitest'
import { freePorts } from '../../stack/ports'

export type StartRedisParameters = {
  /** Keep every write in an append-only file (fsync'd each time), so a restart keeps what was stored. */
  appendOnly?: boolean
  /** The server binary (Debian's redis-server by default; `scripts/test.mjs` installs it). */
  redisServer?: string
}

/** Resolves once the server at `port` answers PING, or rejects after `timeoutMs`. */
async function waitForPong(port: number, timeoutMs = 5_000) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const isAnswering = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1')
      socket.setTimeout(500, () => socket.destroy())
      socket.once('connect', () => socket.write('PING\r\n'))
      socket.once('data', (data) => {
        socket.destroy()
        resolve(data.toString().startsWith('+PONG'))
      })
      socket.once('close', () => resolve(false))
      socket.once('error', () => {})
    })
    if (isAnswering) return
    if (Date.now() > deadline) throw new Error(`redis-server on port ${port} did not answer PING within ${timeoutMs} ms.`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/**
 * A throwaway redis-server for tests, on a free port with its files in a temporary directory: without persistence, or
 * with an fsync'd append-only file. `pause`/`resume` freeze it (SIGSTOP/SIGCONT: connections stay open, nothing is
 * answered); `restart` kills it and starts it again on the same port; `stop` kills it and removes its files.
 * @example const redis = await startRedis(); createRelay({ port, store: redisStore({ url: redis.url }) }); … await redis.stop()
 */
export async function startRedis({ appendOnly = false, redisServer = process.env.REDIS_SERVER ?? 'redis-server' }: StartRedisParameters = {}) {
  const directory = mkdtempSync(join(tmpdir(), 'tessera-redis-'))
  const port = (await freePorts()).relay // any free port: the stack's names don't matter here
  const persistence = appendOnly ? ['--appendonly', 'yes', '--appendfsync', 'always'] : ['--appendonly', 'no']
  let server: ChildProcess
  const start = async () => {
    server = spawn(redisServer, ['--port', String(port), '--bind', '127.0.0.1', '--dir', directory, '--save', '', ...persistence], { stdio: 'ignore' })
    const failed = new Promise<never>((_, reject) => server.once('error', (error) => reject(new Error(`${redisServer} could not start (${error.message}): install redis-server (apt-get install redis-server) or set REDIS_SERVER.`))))
    await Promise.race([waitForPong(port), failed])
  }
  const kill = async () => {
    if (server.exitCode !== null || server.signalCode !== null) return
    const exited = new Promise((resolve) => server.once('exit', resolve))
    server.kill('SIGKILL')
    await exited
  }
  await start()
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    pause: () => void server.kill('SIGSTOP'),
    resume: () => void server.kill('SIGCONT'),
    restart: async () => {
      await kill()
      await start()
    },
    /** Kills the server; `restart` brings it back. */
    kill,
    stop: async () => {
      server.kill('SIGCONT')
      await kill()
      rmSync(directory, { recursive: true, force: true })
    },
  }
}

export type RedisServer = Awaited<ReturnType<typeof startRedis>>

/**
 * A redis-server for the tests of the enclosing describe block (or file): started before them, stopped after them.
 * @example const redis = useRedisServer(); it('…', () => { redisStore({ url: redis().url }) })
 */
export function useRedisServer(parameters?: StartRedisParameters) {
  let server: RedisServer | undefined
  beforeAll(async () => {
    server = await startRedis(parameters)
  })
  afterAll(() => server?.stop())
  return () => server!
}
