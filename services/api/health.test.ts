import { describe, expect, it } from 'vitest'
import { createApiApp } from './app'
import type { ApiInstanceState } from './config'
import { openDatabase } from './db/createDatabase'

describe('health and readiness', () => {
  it('answers /health and /ready without a project id, /ready 503 with the reason once the database is gone', async () => {
    const db = await openDatabase({})
    const app = createApiApp({ db, projects: [{ id: 'site', allowedOrigins: [] }], chains: [] })
    expect(await (await app.request('/health')).json()).toEqual({ status: 'ok', service: 'tessera-api', database: 'pglite' })
    const ready = await app.request('/ready')
    expect(ready.status).toBe(200)
    expect(await ready.json()).toEqual({ status: 'ready', database: 'pglite' })
    await db.close()
    const gone = await app.request('/ready')
    expect(gone.status).toBe(503)
    expect(await gone.json()).toEqual({ status: 'unavailable', reason: expect.stringMatching(/^The database did not answer: /) })
    // Liveness does not depend on the database: the process is up.
    expect((await app.request('/health')).status).toBe(200)
  })

  it('says which instance indexes, and answers /ready 503 once the instance drains', async () => {
    const db = await openDatabase({})
    const instance: { -readonly [K in keyof ApiInstanceState]: ApiInstanceState[K] } = { indexerRole: 'follower', isDraining: false }
    const app = createApiApp({ db, projects: [], chains: [], instance })
    expect(await (await app.request('/health')).json()).toMatchObject({ indexer: 'follower' })
    instance.isDraining = true
    const draining = await app.request('/ready')
    expect(draining.status).toBe(503)
    expect(await draining.json()).toEqual({ status: 'unavailable', reason: 'The instance is shutting down' })
    await db.close()
  })
})
