import { Hono } from 'hono'
import * as z from 'zod/mini'
import { errorBody, type ApiConfig } from '../config'
import { validate } from './validate'

/** Analytics (SPEC §7): POST /e stores an event when the page's origin is on the project's allowlist. */
export function analyticsRoutes({ db, projects }: ApiConfig) {
  const app = new Hono()
  app.get('/getAnalyticsConfig', (c) => c.json({ isAnalyticsEnabled: true }))
  app.post('/e', async (c) => {
    const project = projects.find((p) => p.id === c.req.query('projectId'))!
    const origin = c.req.header('origin')
    if (origin !== undefined && !project.allowedOrigins.includes(origin)) {
      return c.json(errorBody('ORIGIN_NOT_ALLOWED', `Origin ${origin} is not on the allowlist of project ${project.id}`, 'origin'), 403)
    }
    const body = await validate(
      c,
      'json',
      z.object({
        eventId: z.string().check(z.minLength(1), z.maxLength(128)),
        url: z.string().check(z.maxLength(2_048)),
        domain: z.string().check(z.maxLength(255)),
        timestamp: z.number().check(z.int(), z.nonnegative()),
        props: z.object({ type: z.string(), event: z.string().check(z.minLength(1)), properties: z.optional(z.record(z.string(), z.unknown())), address: z.optional(z.string()) }),
      }),
    )
    if (!body.ok) return body.response
    const { eventId, url, domain, timestamp, props } = body.data
    await db.query('insert into analytics_events (project_id, event_id, origin, url, domain, timestamp, props) values ($1, $2, $3, $4, $5, $6, $7)', [
      project.id, eventId, origin ?? null, url, domain, timestamp, JSON.stringify(props),
    ])
    return c.json({ success: true }, 202)
  })
  return app
}
