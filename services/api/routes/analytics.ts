import { Hono } from 'hono'
import * as z from 'zod/mini'
import { errorBody, resolveLimits, type ApiConfig } from '../config'
import { boundedInt, boundedJson, MAX_TIMESTAMP_MS, text, validate } from './validate'

/** Bounds on an event's `props` as stored: serialized size, nesting (props itself is level 1) and keys plus items. */
export const ANALYTICS_PROPS_LIMITS = { maxBytes: 8_192, maxDepth: 5, maxEntries: 64 } as const

const eventSchema = z.object({
  eventId: text({ max: 128, min: 1 }),
  url: text({ max: 2_048 }),
  domain: text({ max: 255 }),
  timestamp: boundedInt({ min: 0, max: MAX_TIMESTAMP_MS }),
  props: z.pipe(
    boundedJson(ANALYTICS_PROPS_LIMITS),
    z.object({
      type: text({ max: 64 }),
      event: text({ max: 128, min: 1 }),
      properties: z.optional(z.record(text({ max: 128 }), z.unknown())),
      address: z.optional(text({ max: 128 })),
    }),
  ),
})

/**
 * Analytics (SPEC §7): POST /e stores an event when the page's origin is on the project's allowlist. A project with an
 * allowlist takes events from browsers only (a request without Origin is refused); one without takes none from browsers.
 * A project keeps at most `analyticsEventsPerProject` events, none older than `analyticsRetentionMs`.
 */
export function analyticsRoutes({ db, projects, limits: configuredLimits, now = Date.now }: ApiConfig) {
  const app = new Hono()
  const limits = resolveLimits(configuredLimits)
  const insertsSincePrune = new Map<string, number>()
  const prune = (projectId: string) =>
    db.query(
      `delete from analytics_events where project_id = $1 and (received_at < $2 or id <= (
         select id from analytics_events where project_id = $1 order by id desc offset $3 limit 1))`,
      [projectId, new Date(now() - limits.analyticsRetentionMs).toISOString(), limits.analyticsEventsPerProject],
    )
  app.get('/getAnalyticsConfig', (c) => c.json({ isAnalyticsEnabled: true }))
  app.post('/e', async (c) => {
    const project = projects.find((p) => p.id === c.req.query('projectId'))!
    const origin = c.req.header('origin')
    if (origin === undefined && project.allowedOrigins.length > 0) {
      return c.json(errorBody('ORIGIN_REQUIRED', `Project ${project.id} takes analytics only from its allowed origins, and this request names no Origin`, 'origin'), 403)
    }
    // Another origin never gets here: the app refuses it for every route (originNotAllowed).
    const body = await validate(c, 'json', eventSchema)
    if (!body.ok) return body.response
    const { eventId, url, domain, timestamp, props } = body.data
    await db.query('insert into analytics_events (project_id, event_id, origin, url, domain, timestamp, props, received_at) values ($1, $2, $3, $4, $5, $6, $7, $8)', [
      project.id, eventId, origin ?? null, url, domain, timestamp, JSON.stringify(props), new Date(now()).toISOString(),
    ])
    // Counted per configured project only, so this map is as small as the configuration.
    const inserts = (insertsSincePrune.get(project.id) ?? 0) + 1
    insertsSincePrune.set(project.id, inserts % limits.analyticsPruneEvery)
    if (inserts >= limits.analyticsPruneEvery) await prune(project.id)
    return c.json({ success: true }, 202)
  })
  return app
}
