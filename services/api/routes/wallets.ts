import { readFileSync } from 'node:fs'
import { Hono, type Context } from 'hono'
import * as z from 'zod/mini'
import { errorBody, type ApiConfig, type WalletEntry } from '../config'
import { intText, text, validate } from './validate'

const iconsDir = new URL('../wallets/icons/', import.meta.url)
/** A comma-separated list: at most 100 items of at most 128 characters each (wallet ids, CAIP-2 chains). */
const list = z.optional(
  z.pipe(
    z.pipe(text({ max: 100 * 129 }), z.transform((v) => v.split(',').filter(Boolean))),
    z.array(text({ max: 128 })).check(z.maxLength(100, 'must have at most 100 items')),
  ),
)

/** Loads the editable wallet list (services/api/wallets/wallets.json). */
export const loadWallets = (): WalletEntry[] => JSON.parse(readFileSync(new URL('../wallets/wallets.json', import.meta.url), 'utf8')) as WalletEntry[]

const walletsQuery = z.object({
  page: z.optional(intText({ min: 1, max: 100_000 })),
  entries: z.optional(intText({ min: 1, max: 100 })),
  include: list,
  exclude: list,
  chains: list,
  search: z.optional(text({ max: 100 })),
  badge_type: z.optional(z.enum(['certified', 'none'])),
})
const imageParam = z.object({
  id: text({ max: 64, min: 1, pattern: /^[a-z0-9-]+$/, patternMessage: 'Expected an image id of letters, digits and hyphens' }),
})

/**
 * The wallet registry (SPEC §7): /getWallets with paging, include/exclude, chains, search and badge filters, and the
 * image endpoints. Images are served as inert SVG (no script runs in them) from the bundled icons.
 */
export function walletRoutes({ wallets = loadWallets() }: ApiConfig) {
  const app = new Hono()
  app.get('/getWallets', async (c) => {
    const query = await validate(c, 'query', walletsQuery)
    if (!query.ok) return query.response
    const { include, exclude, chains, search, badge_type } = query.data
    const { page = 1, entries = 40 } = query.data
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

  const image = async (c: Context) => {
    const params = await validate(c, 'param', imageParam)
    if (!params.ok) return params.response
    const { id } = params.data
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
