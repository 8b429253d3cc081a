import { readFileSync } from 'node:fs'
import { Hono, type Context } from 'hono'
import * as z from 'zod/mini'
import { errorBody, type ApiConfig, type WalletEntry } from '../config'
import { validate } from './validate'

const iconsDir = new URL('../wallets/icons/', import.meta.url)
const list = z.optional(z.pipe(z.string(), z.transform((v) => v.split(',').filter(Boolean))))

/** Loads the editable wallet list (services/api/wallets/wallets.json). */
export const loadWallets = (): WalletEntry[] => JSON.parse(readFileSync(new URL('../wallets/wallets.json', import.meta.url), 'utf8')) as WalletEntry[]

/**
 * The wallet registry (SPEC §7): /getWallets with paging, include/exclude, chains, search and badge filters, and the
 * image endpoints. Images are served as inert SVG (no script runs in them) from the bundled icons.
 */
export function walletRoutes({ wallets = loadWallets() }: ApiConfig) {
  const app = new Hono()
  app.get('/getWallets', async (c) => {
    const query = await validate(
      c,
      'query',
      z.object({
        page: z.optional(z.string().check(z.regex(/^[1-9]\d*$/, 'Expected a page number from 1'))),
        entries: z.optional(z.string().check(z.regex(/^([1-9]\d?|100)$/, 'Expected 1 to 100 entries'))),
        include: list,
        exclude: list,
        chains: list,
        search: z.optional(z.string().check(z.maxLength(100))),
        badge_type: z.optional(z.enum(['certified', 'none'])),
      }),
    )
    if (!query.ok) return query.response
    const { include, exclude, chains, search, badge_type } = query.data
    const page = Number(query.data.page ?? 1)
    const entries = Number(query.data.entries ?? 40)
    const matching = wallets.filter(
      (w) =>
        (!include?.length || include.includes(w.id)) &&
        !exclude?.includes(w.id) &&
        (!chains?.length || chains.some((chain) => w.chains.includes(chain))) &&
        (!search || w.name.toLowerCase().includes(search.toLowerCase())) &&
        (badge_type !== 'certified' || w.badge_type === 'certified'),
    )
    return c.json({ count: matching.length, data: matching.slice((page - 1) * entries, page * entries) })
  })

  const image = (c: Context) => {
    const id = c.req.param('id') ?? ''
    if (!/^[a-z0-9-]{1,64}$/.test(id)) return c.json(errorBody('INVALID_INPUT', 'id: Expected an image id of letters, digits and hyphens', 'id'), 400)
    let svg: Buffer
    try {
      svg = readFileSync(new URL(`${id}.svg`, iconsDir))
    } catch {
      return c.json(errorBody('NOT_FOUND', `No image ${id}`, 'id'), 404)
    }
    return c.body(new Uint8Array(svg), 200, {
      'content-type': 'image/svg+xml',
      'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
      'x-content-type-options': 'nosniff',
      'cache-control': 'public, max-age=86400',
    })
  }
  app.get('/getWalletImage/:id', image)
  app.get('/public/getAssetImage/:id', image)
  app.get('/public/getCurrencyImage/:id', image)
  app.get('/public/getTokenImage/:id', image)
  return app
}
