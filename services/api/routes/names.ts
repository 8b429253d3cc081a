import { Hono } from 'hono'
import { verifyMessage, type Address, type Hex } from 'viem'
import * as z from 'zod/mini'
import { isValidAccountName } from '../../../src/shared/protocol/rules'
import { errorBody, type ApiConfig } from '../config'
import { evmAddress, validate } from './validate'

const MAX_MESSAGE_AGE_S = 600
const MAX_CLOCK_SKEW_S = 60
const ETHEREUM_COIN_TYPE = 60

type NameRow = { name: string; address: string; coin_type: number; attributes: Record<string, string>; registered_at: string | Date }

const profile = (row: NameRow) => ({
  name: row.name,
  registered: Math.floor(new Date(row.registered_at).getTime() / 1_000),
  addresses: { [String(row.coin_type)]: { address: row.address } },
  attributes: row.attributes,
})

const messageSchema = z.object({
  name: z.string(),
  attributes: z.record(z.string(), z.string()),
  timestamp: z.number().check(z.int()),
})

/** Names (SPEC §7): register with a signature over {name, attributes, timestamp}, look up, reverse, suggest. */
export function nameRoutes({ db, nameSuffix = '.tessera.id', now = Date.now }: ApiConfig) {
  const app = new Hono()
  const fullName = (name: string) => (name.endsWith(nameSuffix) ? name : `${name}${nameSuffix}`)
  const label = (name: string) => (name.endsWith(nameSuffix) ? name.slice(0, -nameSuffix.length) : name)

  app.post('/v1/profile/account', async (c) => {
    const body = await validate(c, 'json', z.object({ coin_type: z.number().check(z.int()), address: evmAddress, message: z.string(), signature: z.string().check(z.regex(/^0x[0-9a-fA-F]+$/, 'Expected a hex signature')) }))
    if (!body.ok) return body.response
    const { coin_type, address, message, signature } = body.data
    let parsedJson: unknown
    try {
      parsedJson = JSON.parse(message)
    } catch {
      return c.json(errorBody('INVALID_INPUT', 'message: Expected the JSON {name, attributes, timestamp}', 'message'), 400)
    }
    const parsed = messageSchema.safeParse(parsedJson)
    if (!parsed.success) {
      const field = `message.${parsed.error.issues[0]!.path.join('.')}`
      return c.json(errorBody('INVALID_INPUT', `${field}: ${parsed.error.issues[0]!.message}`, field), 400)
    }
    const { name, attributes, timestamp } = parsed.data
    if (!isValidAccountName(label(name))) {
      return c.json(errorBody('INVALID_NAME', 'Name must be at least 4 characters: letters, digits and hyphens only', 'message.name'), 400)
    }
    const nowS = Math.floor(now() / 1_000)
    if (timestamp < nowS - MAX_MESSAGE_AGE_S || timestamp > nowS + MAX_CLOCK_SKEW_S) {
      return c.json(errorBody('STALE_MESSAGE', 'The signed message is older than 10 minutes: sign a new one', 'message.timestamp'), 400)
    }
    const isSigner = await verifyMessage({ address: address as Address, message, signature: signature as Hex }).catch(() => false)
    if (!isSigner) return c.json(errorBody('INVALID_SIGNATURE', 'The signature was not made by this address', 'signature'), 401)
    const inserted = await db.transaction((tx) =>
      tx.query('insert into names (name, address, coin_type, attributes) values ($1, $2, $3, $4) on conflict (name) do nothing returning name', [
        fullName(name).toLowerCase(),
        address,
        coin_type ?? ETHEREUM_COIN_TYPE,
        JSON.stringify(attributes),
      ]),
    )
    if (inserted.length === 0) return c.json(errorBody('NAME_TAKEN', `${fullName(name)} is already registered`, 'message.name'), 409)
    return c.json({ success: true })
  })

  app.get('/v1/profile/account/:name', async (c) => {
    const [row] = await db.query<NameRow>('select * from names where name = $1', [fullName(c.req.param('name')).toLowerCase()])
    if (!row) return c.json(errorBody('NAME_NOT_FOUND', `${fullName(c.req.param('name'))} is not registered`, 'name'), 404)
    return c.json(profile(row))
  })

  app.get('/v1/profile/reverse/:address', async (c) => {
    const address = evmAddress.safeParse(c.req.param('address'))
    if (!address.success) return c.json(errorBody('INVALID_INPUT', 'address: Expected a 0x address of 40 hex digits', 'address'), 400)
    const rows = await db.query<NameRow>('select * from names where lower(address) = lower($1) order by registered_at, name', [address.data])
    return c.json(rows.map(profile))
  })

  app.get('/v1/profile/suggestions/:name', async (c) => {
    const base = label(c.req.param('name')).toLowerCase().replace(/[^a-z0-9-]/g, '')
    const candidates = [base, `${base}-1`, `${base}-web3`, `my-${base}`, `${base}-${new Date(now()).getUTCFullYear()}`]
      .filter((candidate) => isValidAccountName(candidate))
      .map(fullName)
    const taken = new Set((await db.query<{ name: string }>('select name from names where name = any($1)', [candidates])).map((r) => r.name))
    return c.json({ suggestions: candidates.map((name) => ({ name, registered: taken.has(name) })) })
  })

  app.get('/v1/identity/:address', async (c) => {
    const address = evmAddress.safeParse(c.req.param('address'))
    if (!address.success) return c.json(errorBody('INVALID_INPUT', 'address: Expected a 0x address of 40 hex digits', 'address'), 400)
    const [row] = await db.query<NameRow>('select * from names where lower(address) = lower($1) order by registered_at limit 1', [address.data])
    return c.json({ name: row?.name ?? null, avatar: row?.attributes?.avatar ?? null })
  })
  return app
}
