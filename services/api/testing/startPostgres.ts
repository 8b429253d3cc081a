import { execFileSync, spawnSync } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePorts } from '../../stack/ports'

const BIN = process.env.POSTGRES_BIN ?? '/usr/lib/postgresql/15/bin'
const isRoot = process.getuid?.() === 0

/** Installs Debian's PostgreSQL when it is missing and we are root; otherwise says what to install. */
function ensurePostgresInstalled() {
  if (existsSync(join(BIN, 'initdb'))) return
  if (!isRoot) throw new Error(`PostgreSQL is missing at ${BIN}: run \`sudo apt-get install -y postgresql\` (Debian) or set POSTGRES_BIN.`)
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' }
  for (const args of [['update', '-qq'], ['install', '-y', '-qq', '--no-install-recommends', 'postgresql']]) {
    const result = spawnSync('apt-get', args, { stdio: 'inherit', env })
    if (result.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed: PostgreSQL is needed for the data-service tests`)
  }
}

/** Runs a PostgreSQL binary, as the postgres user when we are root (the server refuses to run as root). */
const run = (binary: string, args: string[]) =>
  execFileSync(isRoot ? 'runuser' : join(BIN, binary), isRoot ? ['-u', 'postgres', '--', join(BIN, binary), ...args] : args, { stdio: 'pipe' })

/**
 * A throwaway PostgreSQL server on a free loopback port, in a temporary folder, for tests.
 * @example const pg = await startPostgres(); await openDatabase({ databaseUrl: pg.url }); … await pg.stop()
 */
export async function startPostgres() {
  ensurePostgresInstalled()
  const dir = mkdtempSync(join(tmpdir(), 'tessera-pg-'))
  if (isRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim())
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim())
    chownSync(dir, uid, gid)
  }
  const port = (await freePorts()).api
  run('initdb', ['-D', dir, '-A', 'trust', '-U', 'postgres', '--no-sync'])
  run('pg_ctl', ['-D', dir, '-o', `-k ${dir} -p ${port} -h 127.0.0.1 -F`, '-l', join(dir, 'log'), '-w', 'start'])
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop() {
      try {
        run('pg_ctl', ['-D', dir, '-m', 'immediate', '-w', 'stop'])
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    },
  }
}
