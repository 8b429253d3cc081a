import { Hono } from 'hono'
import { getAddress } from 'viem'
import * as z from 'zod/mini'
import { formatUnits } from '../../../src/shared/protocol/display'
import { errorBody, type ApiConfig } from '../config'
import { eip155ChainId, evmAddress, PG_BIGINT_MAX, text, validate } from './validate'

const PAGE_SIZE = 50

/**
 * A transfer as the history statement answers it, in one JSON array per row: id, chain id, block, tx hash, log index,
 * from, to, token (null: native), value, status, timestamp, then the names of from and to (null without one).
 */
type TransferTuple = [string, number, string, string, number, string, string, string | null, string, string, string, string | null, string | null]

const encodeCursor = (blockNumber: string, id: string) => Buffer.from(`${blockNumber}:${id}`).toString('base64url')
/** A cursor this service issued: base64url of `block:id`, both within PostgreSQL's bigint (the columns' type). */
const decodeCursor = (cursor: string) => {
  const match = /^(\d{1,19}):(\d{1,19})$/.exec(Buffer.from(cursor, 'base64url').toString())
  if (!match || BigInt(match[1]!) > PG_BIGINT_MAX || BigInt(match[2]!) > PG_BIGINT_MAX) return undefined
  return { blockNumber: match[1]!, id: match[2]! }
}

/** The first name registered for an address, as /v1/identity answers: the first entry of names_first, no sort. */
const nameOf = (column: string) => `(select n.name from names n where lower(n.address) = lower(${column}) order by n.registered_at, n.name limit 1)`

/** The columns a page shows: every one is in the walks' indexes, so a walk never reads the table. */
const PAGE_COLUMNS = 'id, chain_id, block_number, tx_hash, log_index, from_address, to_address, token, value, status, timestamp'

/**
 * One page of an account's transfers, newest first, as one JSON text built by the database (one column, one row: no
 * per-row decoding in the driver). The account as sender and as receiver are two index-only range scans down their
 * own indexes (transfers_from_page, transfers_to_page: address, then the sort key, then the chain, carrying the
 * page's columns), each stopping after a page, merged. One `where from = $1 or to = $1` would instead fetch and sort
 * every transfer of the account (seconds for one with 50,000). A transfer to itself is taken from the senders' walk
 * only. The parties' names are looked up for the page's rows only. Parameters: $1 account, then the chain id, then
 * the cursor's block and id, when given.
 */
export function historyQuery({ hasChainId, hasCursor }: { hasChainId: boolean; hasCursor: boolean }) {
  const chain = hasChainId ? ' and chain_id = $2::integer' : ''
  const before = hasCursor ? ` and (block_number, id) < (${hasChainId ? '$3::bigint, $4::bigint' : '$2::bigint, $3::bigint'})` : ''
  const walk = (party: string, extra = '') =>
    `(select ${PAGE_COLUMNS} from transfers where lower(${party}) = lower($1::text)${extra}${chain}${before} order by block_number desc, id desc limit ${PAGE_SIZE + 1})`
  return `select coalesce(json_agg(json_build_array(p.id::text, p.chain_id, p.block_number::text, p.tx_hash, p.log_index, p.from_address, p.to_address,
           p.token, p.value::text, p.status, p.timestamp::text, ${nameOf('p.from_address')}, ${nameOf('p.to_address')}) order by p.block_number desc, p.id desc)::text, '[]') as page
    from (select * from (${walk('from_address')} union all ${walk('to_address', ' and lower(from_address) <> lower($1::text)')}) as walks
           order by block_number desc, id desc
           limit ${PAGE_SIZE + 1}) as p`
}

const accountParam = z.object({ account: evmAddress })
const pageQuery = z.object({
  cursor: z.optional(text({ max: 64, pattern: /^[A-Za-z0-9_-]*$/, patternMessage: 'not a cursor this service issued' })),
  chainId: z.optional(eip155ChainId),
  onramp: z.optional(text({ max: 64 })),
})

/**
 * Transaction history (SPEC §7) from the indexer's transfers, newest first, with a stable cursor. Each entry carries
 * the names its two parties registered (`sentFromName`, `sentToName`, null without one), and a transfer from the
 * account to itself has the direction `self`. Pages are kept in `historyCache` when given (see createHistoryCache).
 */
export function historyRoutes({ db, chains, prices = {}, historyCache }: ApiConfig) {
  const app = new Hono()
  app.get('/v1/account/:account/history', async (c) => {
    const params = await validate(c, 'param', accountParam)
    if (!params.ok) return params.response
    const account = params.data.account
    const query = await validate(c, 'query', pageQuery)
    if (!query.ok) return query.response
    const cursor = query.data.cursor ? decodeCursor(query.data.cursor) : undefined
    if (query.data.cursor && !cursor) return c.json(errorBody('INVALID_INPUT', 'cursor: not a cursor this service issued', 'cursor'), 400)
    const chainId = query.data.chainId ? Number(query.data.chainId.split(':')[1]) : null
    const cacheKey = `${account.toLowerCase()} ${chainId ?? ''} ${query.data.cursor ?? ''}`
    const cached = historyCache?.get(cacheKey)
    if (cached !== undefined) return c.body(cached, 200, { 'content-type': 'application/json' })
    const readAt = historyCache?.version

    const hasChainId = chainId !== null
    const hasCursor = cursor !== undefined
    const [result] = await db.prepared<{ page: string }>(`history_page${hasChainId ? '_chain' : ''}${hasCursor ? '_cursor' : ''}`, historyQuery({ hasChainId, hasCursor }), [
      account,
      ...(hasChainId ? [chainId] : []),
      ...(cursor ? [cursor.blockNumber, cursor.id] : []),
    ])
    const rows = JSON.parse(result?.page ?? '[]') as TransferTuple[]
    const page = rows.slice(0, PAGE_SIZE)
    const last = page.at(-1)
    const self = account.toLowerCase()
    // Transfers that paid an on-ramp purchase (Buy) are marked as such: the widget shows them as bought.
    const hashes = [...new Set(page.map((row) => row[3]))]
    const purchases = new Set(
      hashes.length === 0 ? [] : (await db.query<{ tx_hash: string }>("select lower(tx_hash) as tx_hash from onramp_orders where status = 'completed' and lower(tx_hash) = any($1)", [hashes.map((h) => h.toLowerCase())])).map((r) => r.tx_hash),
    )
    const data = page.map(([, rowChainId, , txHash, logIndex, from, to, rowToken, value, status, timestamp, fromName, toName]) => {
      const chain = chains.find((ch) => ch.chainId === rowChainId)
      const token = rowToken ? chain?.tokens.find((t) => t.address.toLowerCase() === rowToken.toLowerCase()) : undefined
      // A token no longer configured: its symbol and decimals are unknown, so its amount is in base units, unnamed.
      const isUnknownToken = rowToken !== null && !token
      const symbol = isUnknownToken ? '' : (token?.symbol ?? chain?.nativeCurrency.symbol ?? 'ETH')
      const numeric = formatUnits(BigInt(value), isUnknownToken ? 0 : (token?.decimals ?? chain?.nativeCurrency.decimals ?? 18))
      const isSend = from.toLowerCase() === self
      const isSelf = isSend && to.toLowerCase() === self
      return {
        id: `${txHash}:${logIndex}`,
        metadata: {
          operationType: isSend ? 'send' : purchases.has(txHash.toLowerCase()) ? 'buy' : 'receive',
          hash: txHash,
          minedAt: new Date(Number(timestamp) * 1_000).toISOString(),
          sentFrom: from,
          sentTo: to,
          sentFromName: fromName,
          sentToName: toName,
          status,
          chain: `eip155:${rowChainId}`,
        },
        transfers: [
          {
            fungible_info: {
              name: isUnknownToken ? '' : (token?.name ?? chain?.nativeCurrency.name ?? 'Ether'),
              symbol,
              icon: { url: token?.iconUrl ?? '' },
              implementations: rowToken ? [{ chain_id: `eip155:${rowChainId}`, address: getAddress(rowToken) }] : [],
            },
            direction: isSelf ? 'self' : isSend ? 'out' : 'in',
            quantity: { numeric },
            price: isUnknownToken ? 0 : (prices[symbol] ?? 0),
          },
        ],
      }
    })
    const body = JSON.stringify({ data, next: rows.length > PAGE_SIZE && last ? encodeCursor(last[2], last[0]) : null })
    if (readAt !== undefined) historyCache?.set(cacheKey, body, readAt)
    return c.body(body, 200, { 'content-type': 'application/json' })
  })
  return app
}
