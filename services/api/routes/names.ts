import { Hono, type Context } from 'hono'
import * as z from 'zod/mini'
import { isValidAccountName } from '../../../src/shared/protocol/rules'
import { errorBody, type ApiConfig } from '../config'
import { answerSignatureChainError, createEvmSignatureVerifier, MAX_CHAIN_ID, SignatureChainError } from './signInMessage'
import { boundedInt, boundedRecord, evmAddress, findUnsafeInput, hexSignature, invalidInput, MAX_TIMESTAMP_MS, PG_INTEGER_MAX, text, validate } from './validate'

const MAX_MESSAGE_AGE_S = 600
const MAX_CLOCK_SKEW_S = 60
/** A label is one DNS label: at most 63 characters (and at least 4, SPEC §5). */
export const NAME_LABEL_MAX_LENGTH = 63
/** What a name may carry besides its address: a few short text records (an avatar URL, say). */
export const NAME_ATTRIBUTE_LIMITS = { maxKeys: 16, keyMaxLength: 64, valueMaxLength: 2_048 } as const
/** Longest signed message: the JSON of the largest name and attributes, with room for escaping. */
const MESSAGE_MAX_LENGTH = 40_000
/** SLIP-44's Ethereum, the coin type of an address on Ethereum itself (ENSIP-9, ENSIP-11). */
const ETHEREUM_COIN_TYPE = 60
const ETHEREUM_CHAIN_ID = 1

type NameRow = { name: string; address: string; coin_type: number; attributes: Record<string, string>; registered_at: string | Date }

const profile = (row: NameRow) => ({
  name: row.name,
  registered: Math.floor(new Date(row.registered_at).getTime() / 1_000),
  addresses: { [String(row.coin_type)]: { address: row.address } },
  attributes: row.attributes,
})

/** A SLIP-44 coin type as the `integer` column holds it. */
const coinType = boundedInt({ min: 0, max: PG_INTEGER_MAX })

const registrationBody = z.object({ coin_type: coinType, address: evmAddress, message: text({ max: MESSAGE_MAX_LENGTH }), signature: hexSignature })
const addressParam = z.object({ address: evmAddress })

/**
 * Names (SPEC §7): register with a signature over {name, attributes, timestamp, coinType} (every stored field is
 * signed), look up, reverse, suggest. Names are 4 to 63 letters, digits and hyphens, with or without the suffix.
 * An EOA's signature is checked offline; a smart account's (ERC-6492, ERC-1271) on the chain the message names: its
 * optional signed `chainId`, else Ethereum (chain 1) for coin type 60, else none (so only an EOA can register). A
 * chain the service does not know cannot vouch for it; one whose node fails answers 503 or 502 naming the chain.
 */
export function nameRoutes({ db, nameSuffix = '.tessera.id', now = Date.now, historyCache, chains, evmSignatureVerifier, log = console.error }: ApiConfig) {
  const app = new Hono()
  const verifySignature = evmSignatureVerifier ?? createEvmSignatureVerifier({ chains })
  const fullName = (name: string) => (name.endsWith(nameSuffix) ? name : `${name}${nameSuffix}`)
  const label = (name: string) => (name.endsWith(nameSuffix) ? name.slice(0, -nameSuffix.length) : name)
  const isValidLabel = (name: string) => name.length <= NAME_LABEL_MAX_LENGTH && isValidAccountName(name)
  const nameText = text({ max: NAME_LABEL_MAX_LENGTH + nameSuffix.length, min: 1 })
  const nameParam = z.object({ name: nameText })
  const invalidName = (c: Context, field: string) =>
    c.json(errorBody('INVALID_NAME', `Name must be 4 to ${NAME_LABEL_MAX_LENGTH} characters: letters, digits and hyphens only`, field), 400)

  const messageSchema = z.object({
    name: nameText,
    attributes: boundedRecord(text({ max: NAME_ATTRIBUTE_LIMITS.keyMaxLength, min: 1 }), text({ max: NAME_ATTRIBUTE_LIMITS.valueMaxLength }), { maxKeys: NAME_ATTRIBUTE_LIMITS.maxKeys }),
    timestamp: boundedInt({ min: 0, max: MAX_TIMESTAMP_MS / 1_000 }),
    coinType,
    /** Where a smart account's signature is checked; not stored. */
    chainId: z.optional(boundedInt({ min: 1, max: MAX_CHAIN_ID })),
  })

  app.post('/v1/profile/account', async (c) => {
    const body = await validate(c, 'json', registrationBody)
    if (!body.ok) return body.response
    const { coin_type, address, message, signature } = body.data
    let parsedJson: unknown
    try {
      parsedJson = JSON.parse(message)
    } catch {
      return c.json(errorBody('INVALID_INPUT', 'message: Expected the JSON {name, attributes, timestamp, coinType}', 'message'), 400)
    }
    // The signed message is input too: the same checks as a body, then its own schema.
    const unsafe = findUnsafeInput(parsedJson, ['message'])
    if (unsafe) return invalidInput(c, unsafe.path, unsafe.message)
    const parsed = messageSchema.safeParse(parsedJson)
    if (!parsed.success) return invalidInput(c, ['message', ...parsed.error.issues[0]!.path], parsed.error.issues[0]!.message)
    const { name, attributes, timestamp, coinType: signedCoinType, chainId } = parsed.data
    if (signedCoinType !== coin_type) {
      return c.json(errorBody('INVALID_INPUT', `message.coinType: the signed coin type ${signedCoinType} is not the coin_type ${coin_type} of the request`, 'message.coinType'), 400)
    }
    if (!isValidLabel(label(name))) return invalidName(c, 'message.name')
    const nowS = Math.floor(now() / 1_000)
    if (timestamp < nowS - MAX_MESSAGE_AGE_S || timestamp > nowS + MAX_CLOCK_SKEW_S) {
      return c.json(errorBody('STALE_MESSAGE', 'The signed message is older than 10 minutes: sign a new one', 'message.timestamp'), 400)
    }
    let isSigner: boolean
    try {
      isSigner = await verifySignature({ chainId: chainId ?? (coin_type === ETHEREUM_COIN_TYPE ? ETHEREUM_CHAIN_ID : undefined), address, message, signature })
    } catch (error) {
      if (error instanceof SignatureChainError) return answerSignatureChainError(c, error, log)
      throw error
    }
    if (!isSigner) return c.json(errorBody('INVALID_SIGNATURE', 'The signature was not made by this address', 'signature'), 401)
    const inserted = await db.transaction((tx) =>
      tx.query('insert into names (name, address, coin_type, attributes) values ($1, $2, $3, $4) on conflict (name) do nothing returning name', [
        fullName(name).toLowerCase(),
        address,
        coin_type,
        JSON.stringify(attributes),
      ]),
    )
    if (inserted.length === 0) return c.json(errorBody('NAME_TAKEN', `${fullName(name)} is already registered`, 'message.name'), 409)
    // History pages name their parties: the cached ones may now miss this name.
    historyCache?.invalidate()
    return c.json({ success: true })
  })

  app.get('/v1/profile/account/:name', async (c) => {
    const params = await validate(c, 'param', nameParam)
    if (!params.ok) return params.response
    const { name } = params.data
    if (!isValidLabel(label(name))) return invalidName(c, 'name')
    const [row] = await db.query<NameRow>('select * from names where name = $1', [fullName(name).toLowerCase()])
    if (!row) return c.json(errorBody('NAME_NOT_FOUND', `${fullName(name)} is not registered`, 'name'), 404)
    return c.json(profile(row))
  })

  app.get('/v1/profile/reverse/:address', async (c) => {
    const params = await validate(c, 'param', addressParam)
    if (!params.ok) return params.response
    const rows = await db.query<NameRow>('select * from names where lower(address) = lower($1) order by registered_at, name', [params.data.address])
    return c.json(rows.map(profile))
  })

  // Suggestions take what the person typed so far: anything bounded, reduced to the characters a name may hold.
  app.get('/v1/profile/suggestions/:name', async (c) => {
    const params = await validate(c, 'param', nameParam)
    if (!params.ok) return params.response
    const base = label(params.data.name).toLowerCase().replace(/[^a-z0-9-]/g, '')
    const candidates = [base, `${base}-1`, `${base}-web3`, `my-${base}`, `${base}-${new Date(now()).getUTCFullYear()}`]
      .filter((candidate) => isValidLabel(candidate))
      .map(fullName)
    const taken = new Set((await db.query<{ name: string }>('select name from names where name = any($1)', [candidates])).map((r) => r.name))
    return c.json({ suggestions: candidates.map((name) => ({ name, registered: taken.has(name) })) })
  })

  app.get('/v1/identity/:address', async (c) => {
    const params = await validate(c, 'param', addressParam)
    if (!params.ok) return params.response
    const [row] = await db.query<NameRow>('select * from names where lower(address) = lower($1) order by registered_at limit 1', [params.data.address])
    return c.json({ name: row?.name ?? null, avatar: row?.attributes?.avatar ?? null })
  })
  return app
}
