import { Hono } from 'hono'
import * as z from 'zod/mini'
import { formatUnits } from '../../../src/shared/protocol/display'
import { errorBody, type ApiConfig } from '../config'
import { eip155ChainId, evmAddress, PG_BIGINT_MAX, text, validate } from './validate'

const PAGE_SIZE = 50

type TransferRow = {
  id: string
  chain_id: number
  block_number: string
  tx_hash: string
  log_index: number
  from_address: string
  to_address: string
  token: string | null
  value: string
  status: string
  timestamp: string
}

const encodeCursor = (blockNumber: string, id: string) => Buffer.from(`${blockNumber}:${id}`).toString('base64url')
/** A cursor this service issued: base64url of `block:id`, both within PostgreSQL's bigint (the columns' type). */
const decodeCursor = (cursor: string) => {
  const match = /^(\d{1,19}):(\d{1,19})$/.exec(Buffer.from(cursor, 'base64url').toString())
  if (!match || BigInt(match[1]!) > PG_BIGINT_MAX || BigInt(match[2]!) > PG_BIGINT_MAX) return undefined
  return { blockNumber: match[1]!, id: match[2]! }
}

const TRANSFER_COLUMNS = 'id::text, chain_id, block_number::text, tx_hash, log_index, from_address, to_address, token, value::text, status, timestamp::text'

/**
 * One page of an account's transfers, newest first: the account as sender and as receiver are two walks down their own
 * indexes (transfers_from, transfers_to), each stopping after a page, merged. One `where from = $1 or to = $1` would
 * instead fetch and sort every transfer of the account (seconds for one with 50,000). A transfer to itself is taken
 * from the senders' walk only. Parameters: $1 account, then the chain id, then the cursor's block and id, when given.
 */
export function historyQuery({ hasChainId, hasCursor }: { hasChainId: boolean; hasCursor: boolean }) {
  const chain = hasChainId ? ' and chain_id = $2' : ''
  const before = hasCursor ? ` and (block_number, id) < (${hasChainId ? '$3::bigint, $4::bigint' : '$2::bigint, $3::bigint'})` : ''
  const walk = (party: string, extra = '') =>
    `(select * from transfers where lower(${party}) = lower($1)${extra}${chain}${before} order by block_number desc, id desc limit ${PAGE_SIZE + 1})`
  return `select ${TRANSFER_COLUMNS}
    from (${walk('from_address')} union all ${walk('to_address', ' and lower(from_address) <> lower($1)')}) as page
   order by page.block_number desc, page.id desc
   limit ${PAGE_SIZE + 1}`
}

/**
 * Transaction history (SPEC §7) from the indexer's transfers, newest first, with a stable cursor. Each entry carries
 * the names its two parties registered (`sentFromName`, `sentToName`, null without one), and a transfer from the
 * account to itself has the direction `self`. Pages are kept in `historyCache` when given (see createHistoryCache).
 */
export function historyRoutes({ db, chains, prices = {}, historyCache }: ApiConfig) {
  const app = new Hono()
  app.get('/v1/account/:account/history', async (c) => {
    const params = await validate(c, 'param', z.object({ account: evmAddress }))
    if (!params.ok) return params.response
    const account = params.data.account
    const query = await validate(
      c,
      'query',
      z.object({
        cursor: z.optional(text({ max: 64, pattern: /^[A-Za-z0-9_-]*$/, patternMessage: 'not a cursor this service issued' })),
        chainId: z.optional(eip155ChainId),
        onramp: z.optional(text({ max: 64 })),
      }),
    )
    if (!query.ok) return query.response
    const cursor = query.data.cursor ? decodeCursor(query.data.cursor) : undefined
    if (query.data.cursor && !cursor) return c.json(errorBody('INVALID_INPUT', 'cursor: not a cursor this service issued', 'cursor'), 400)
    const chainId = query.data.chainId ? Number(query.data.chainId.split(':')[1]) : null
    const cacheKey = `${account.toLowerCase()} ${chainId ?? ''} ${query.data.cursor ?? ''}`
    const cached = historyCache?.get(cacheKey)
    if (cached !== undefined) return c.body(cached, 200, { 'content-type': 'application/json' })
    const readAt = historyCache?.version

    const rows = await db.query<TransferRow>(historyQuery({ hasChainId: chainId !== null, hasCursor: cursor !== undefined }), [
      account,
      ...(chainId !== null ? [chainId] : []),
      ...(cursor ? [cursor.blockNumber, cursor.id] : []),
    ])
    const page = rows.slice(0, PAGE_SIZE)
    const last = page.at(-1)
    // The names of the page's parties, one query: the first registered for an address, as /v1/identity answers.
    const parties = [...new Set(page.flatMap((row) => [row.from_address.toLowerCase(), row.to_address.toLowerCase()]))]
    const names = new Map(
      parties.length === 0
        ? []
        : (
            await db.query<{ address: string; name: string }>(
              `select distinct on (lower(address)) lower(address) as address, name
                 from names
                where lower(address) = any($1::text[])
                order by lower(address), registered_at, name`,
              [parties],
            )
          ).map((row) => [row.address, row.name]),
    )
    const data = page.map((row) => {
      const chain = chains.find((ch) => ch.chainId === row.chain_id)
      const token = row.token ? chain?.tokens.find((t) => t.address.toLowerCase() === row.token!.toLowerCase()) : undefined
      // A token no longer configured: its symbol and decimals are unknown, so its amount is in base units, unnamed.
      const isUnknownToken = row.token !== null && !token
      const symbol = isUnknownToken ? '' : (token?.symbol ?? chain?.nativeCurrency.symbol ?? 'ETH')
      const numeric = formatUnits(BigInt(row.value), isUnknownToken ? 0 : (token?.decimals ?? chain?.nativeCurrency.decimals ?? 18))
      const isSend = row.from_address.toLowerCase() === account.toLowerCase()
      const isSelf = isSend && row.to_address.toLowerCase() === account.toLowerCase()
      return {
        id: `${row.tx_hash}:${row.log_index}`,
        metadata: {
          operationType: isSend ? 'send' : 'receive',
          hash: row.tx_hash,
          minedAt: new Date(Number(row.timestamp) * 1_000).toISOString(),
          sentFrom: row.from_address,
          sentTo: row.to_address,
          sentFromName: names.get(row.from_address.toLowerCase()) ?? null,
          sentToName: names.get(row.to_address.toLowerCase()) ?? null,
          status: row.status,
          chain: `eip155:${row.chain_id}`,
        },
        transfers: [
          {
            fungible_info: { name: isUnknownToken ? '' : (token?.name ?? chain?.nativeCurrency.name ?? 'Ether'), symbol, icon: { url: token?.iconUrl ?? '' } },
            direction: isSelf ? 'self' : isSend ? 'out' : 'in',
            quantity: { numeric },
            price: isUnknownToken ? 0 : (prices[symbol] ?? 0),
          },
        ],
      }
    })
    const body = JSON.stringify({ data, next: rows.length > PAGE_SIZE && last ? encodeCursor(last.block_number, last.id) : null })
    if (readAt !== undefined) historyCache?.set(cacheKey, body, readAt)
    return c.body(body, 200, { 'content-type': 'application/json' })
  })
  return app
}
