import { createRepeatingTask } from '../createRepeatingTask'
import { withTimeout } from '../withTimeout'
import type { Database, DatabaseConnection } from './database'

export type LeaderRole = 'leader' | 'follower'

export type LeaderLockParameters = {
  db: Pick<Database, 'openConnection'>
  /** The lock's name: the instances that use one name on one database elect one leader. */
  name: string
  /** How often a follower tries to take the lock, and the leader checks that its connection still holds it. */
  retryMs?: number
  /** Called when this instance becomes the leader. */
  onLead: () => void
  /** Called when it stops being the leader (its connection was lost, or stop()); resolves once what it led stopped. */
  onFollow: () => Promise<void>
  onError?: (error: unknown) => void
}

export type LeaderLock = {
  readonly role: LeaderRole
  start(): void
  /** Stops leading or trying to, and releases the lock (another instance takes it at its next try). */
  stop(): Promise<void>
}

/**
 * One leader among the instances on one PostgreSQL: the instance whose connection holds the session advisory lock
 * `name` (pg_try_advisory_lock). The lock lives as long as that connection, so when the leader's process dies the
 * server frees it at once (or, for a host that vanished, within seconds: the connection asks the server for TCP
 * keepalives and an idle_session_timeout the heartbeat stays under), and a follower takes it at its next try.
 * 1. A follower tries every `retryMs` on a connection of its own, kept open between tries.
 * 2. The leader checks its connection every `retryMs`; a connection lost or silent makes it a follower (onFollow).
 * 3. On PGlite (no `openConnection`: one process on its own data) the instance simply leads.
 * @example const lock = createLeaderLock({ db, name: 'tessera:indexer', onLead: start, onFollow: stop }); lock.start()
 */
export function createLeaderLock({ db, name, retryMs = 2_000, onLead, onFollow, onError = () => {} }: LeaderLockParameters): LeaderLock {
  let role: LeaderRole = 'follower'
  let connection: DatabaseConnection | undefined
  // One change at a time: a connection lost while a try runs waits for the try.
  let turn: Promise<void> = Promise.resolve()
  const serial = (run: () => Promise<void>) => (turn = turn.then(run).catch(onError))

  const follow = async () => {
    if (role !== 'leader') return
    role = 'follower'
    await onFollow()
  }
  const drop = (lost: DatabaseConnection) => {
    if (connection !== lost) return
    connection = undefined
    void lost.close().catch(() => {})
  }

  const open = async (openConnection: NonNullable<Database['openConnection']>) => {
    const opened = await openConnection()
    opened.onLost(() => void serial(async () => {
      if (connection !== opened) return
      drop(opened)
      await follow()
    }))
    // The server notices a vanished client in about 5 s, and ends a session silent for four tries (the heartbeat is
    // one query per try). Settings this server does not have are skipped.
    try {
      await opened.query(
        `select set_config(name, value, false) from (values ('tcp_keepalives_idle', '2'), ('tcp_keepalives_interval', '1'),
           ('tcp_keepalives_count', '3'), ('idle_session_timeout', $1)) as wanted (name, value) where name in (select name from pg_settings)`,
        [String(4 * retryMs)],
      )
    } catch (error) {
      void opened.close().catch(() => {})
      throw error
    }
    return opened
  }

  const attempt = async () => {
    if (!db.openConnection) {
      if (role === 'follower') {
        role = 'leader'
        onLead()
      }
      return
    }
    let current: DatabaseConnection | undefined
    try {
      current = connection ??= await open(db.openConnection)
      if (role === 'leader') {
        await withTimeout(current.query('select 1'), 2 * retryMs, 'The leader lock connection’s heartbeat')
        return
      }
      const [row] = await withTimeout(current.query<{ locked: boolean }>('select pg_try_advisory_lock(hashtextextended($1, 0)) as locked', [name]), 2 * retryMs, 'Taking the leader lock')
      if (row?.locked && trying.isRunning) {
        role = 'leader'
        onLead()
      }
    } catch (error) {
      onError(error)
      if (current) drop(current)
      await follow()
    }
  }

  const trying = createRepeatingTask({ run: () => serial(attempt), delayMs: () => retryMs })

  return {
    get role() {
      return role
    },
    start: trying.start,
    async stop() {
      await trying.stop()
      await serial(async () => {
        await follow()
        const held = connection
        connection = undefined
        // Ending the session releases its advisory locks.
        if (held) await withTimeout(held.close(), retryMs, 'Closing the leader lock connection').catch(onError)
      })
    },
  }
}
