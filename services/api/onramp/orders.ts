import { randomBytes } from 'node:crypto'
import type { Queryable } from '../db/createDatabase'
import type { OnrampOrderStatus, OnrampOrderUpdate, OnrampQuote } from './provider'

export type OnrampOrder = {
  id: string
  projectId: string
  provider: string
  providerOrderId: string | undefined
  partnerUserId: string
  destination: string
  network: string
  asset: string
  paymentCurrency: string
  paymentMethod: string
  paymentTotal: string
  purchaseAmount: string
  status: OnrampOrderStatus
  txHash: string | undefined
  failureReason: string | undefined
  createdAt: number
  updatedAt: number
}

type OrderRow = {
  id: string
  project_id: string
  provider: string
  provider_order_id: string | null
  partner_user_id: string
  destination: string
  network: string
  asset: string
  payment_currency: string
  payment_method: string
  payment_total: string
  purchase_amount: string
  status: OnrampOrderStatus
  tx_hash: string | null
  failure_reason: string | null
  created_at: Date | string
  updated_at: Date | string
}

const toOrder = (row: OrderRow): OnrampOrder => ({
  id: row.id,
  projectId: row.project_id,
  provider: row.provider,
  providerOrderId: row.provider_order_id ?? undefined,
  partnerUserId: row.partner_user_id,
  destination: row.destination,
  network: row.network,
  asset: row.asset,
  paymentCurrency: row.payment_currency,
  paymentMethod: row.payment_method,
  paymentTotal: row.payment_total,
  purchaseAmount: row.purchase_amount,
  status: row.status,
  txHash: row.tx_hash ?? undefined,
  failureReason: row.failure_reason ?? undefined,
  createdAt: new Date(row.created_at).getTime(),
  updatedAt: new Date(row.updated_at).getTime(),
})

/** Where an order may go from each status: forward only (a report that would go back is stale). */
const NEXT: Record<OnrampOrderStatus, readonly OnrampOrderStatus[]> = {
  pending: ['sent', 'completed', 'failed'],
  sent: ['completed', 'failed'],
  completed: [],
  failed: [],
}

export type OnrampOrderLimits = {
  /** Orders a visitor (project and partner user id) may have waiting for payment at once; past it, 429. */
  pendingPerUser: number
  /** Orders a project may have waiting for payment at once, whoever its visitors are; past it, 429. */
  pendingPerProject: number
  /** A pending order older than this is failed as expired when read. */
  pendingLifetimeMs: number
  /** Finished orders and report ids older than this are deleted by prune(). */
  retentionMs: number
}

export const defaultOnrampOrderLimits: OnrampOrderLimits = { pendingPerUser: 20, pendingPerProject: 10_000, pendingLifetimeMs: 24 * 3_600_000, retentionMs: 400 * 24 * 3_600_000 }

export type ApplyEventResult = 'applied' | 'replayed' | 'unknownOrder' | 'stale'

/**
 * The on-ramp orders in the data service's database: made at the hand-off to a provider's checkout, moved forward by
 * the provider's reports (each counted once) or by reading its status, found by id (an unguessable 128-bit id is the
 * widget's handle on its order) and by destination (history).
 */
export function createOnrampOrders(db: Queryable & { transaction: <T>(run: (tx: Queryable) => Promise<T>) => Promise<T> }, { limits = defaultOnrampOrderLimits, now = Date.now }: { limits?: OnrampOrderLimits; now?: () => number } = {}) {
  const iso = (ms: number) => new Date(ms).toISOString()

  async function get(id: string): Promise<OnrampOrder | undefined> {
    const [row] = await db.query<OrderRow>('select * from onramp_orders where id = $1', [id])
    if (!row) return undefined
    const order = toOrder(row)
    if (order.status === 'pending' && now() - order.createdAt > limits.pendingLifetimeMs) {
      await update(order.id, order.provider, { status: 'failed', failureReason: 'The payment was not made in time' })
      return { ...order, status: 'failed', failureReason: 'The payment was not made in time' }
    }
    return order
  }

  /** Moves an order forward; a change that would go back (or sideways) is refused as stale. */
  async function update(id: string, provider: string, change: OnrampOrderUpdate, tx: Queryable = db): Promise<'applied' | 'stale' | 'unknownOrder'> {
    const [row] = await tx.query<Pick<OrderRow, 'status' | 'provider'>>('select status, provider from onramp_orders where id = $1 for update', [id])
    if (!row || row.provider !== provider) return 'unknownOrder'
    if (row.status === change.status && change.status !== 'completed' && change.status !== 'failed') {
      // The same status again may carry what was missing (a hash once sent).
      if (change.txHash) await tx.query('update onramp_orders set tx_hash = coalesce(tx_hash, $2), updated_at = $3 where id = $1', [id, change.txHash, iso(now())])
      return 'applied'
    }
    if (!NEXT[row.status].includes(change.status)) return 'stale'
    await tx.query('update onramp_orders set status = $2, tx_hash = coalesce($3, tx_hash), purchase_amount = coalesce($4, purchase_amount), failure_reason = $5, updated_at = $6 where id = $1', [
      id,
      change.status,
      change.txHash ?? null,
      change.purchaseAmount ?? null,
      change.status === 'failed' ? (change.failureReason ?? 'The provider did not complete the purchase').slice(0, 300) : null,
      iso(now()),
    ])
    return 'applied'
  }

  return {
    get,
    update,
    /** Whether the visitor, and the project, may have one more order waiting for payment (`limits.pending*`). */
    async hasRoomFor(projectId: string, partnerUserId: string) {
      const [row] = await db.query<{ mine: string | number; total: string | number }>(
        "select count(*) filter (where partner_user_id = $2) as mine, count(*) as total from onramp_orders where project_id = $1 and status = 'pending' and created_at > $3",
        [projectId, partnerUserId, iso(now() - limits.pendingLifetimeMs)],
      )
      return Number(row?.mine ?? 0) < limits.pendingPerUser && Number(row?.total ?? 0) < limits.pendingPerProject
    },
    newId: () => randomBytes(16).toString('hex'),
    /** Records the hand-off: the order as quoted, waiting for payment. */
    async create({ id, projectId, partnerUserId, destination, quote, providerOrderId }: { id: string; projectId: string; partnerUserId: string; destination: string; quote: OnrampQuote; providerOrderId?: string }) {
      await db.query(
        `insert into onramp_orders (id, project_id, provider, provider_order_id, partner_user_id, destination, network, asset, payment_currency, payment_method, payment_total, purchase_amount, status, created_at, updated_at)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 'pending', $13, $13)`,
        [id, projectId, quote.provider, providerOrderId ?? null, partnerUserId, destination, quote.network, quote.asset, quote.paymentCurrency, quote.paymentMethod, quote.paymentTotal, quote.purchaseAmount, iso(now())],
      )
    },
    /** A provider's report, counted once per event id: replays and reports for orders we never made are refused. */
    async applyEvent({ provider, eventId, orderId, update: change }: { provider: string; eventId: string; orderId: string; update: OnrampOrderUpdate }): Promise<ApplyEventResult> {
      return db.transaction(async (tx) => {
        const seen = await tx.query('insert into onramp_events (provider, event_id, received_at) values ($1, $2, $3) on conflict do nothing returning event_id', [provider, eventId, iso(now())])
        if (seen.length === 0) return 'replayed'
        const result = await update(orderId, provider, change, tx)
        // A refused report is not kept as seen: nothing of it was applied.
        if (result !== 'applied') await tx.query('delete from onramp_events where provider = $1 and event_id = $2', [provider, eventId])
        return result
      })
    },
    /** The address's purchases, newest first (history with `onramp`). */
    async byDestination(destination: string, limit: number): Promise<OnrampOrder[]> {
      const rows = await db.query<OrderRow>('select * from onramp_orders where lower(destination) = lower($1) order by created_at desc limit $2', [destination, limit])
      return rows.map(toOrder)
    },
    /** Deletes finished orders and report ids past their retention. */
    async prune() {
      const before = iso(now() - limits.retentionMs)
      await db.query("delete from onramp_orders where status in ('completed', 'failed') and updated_at < $1", [before])
      await db.query('delete from onramp_events where received_at < $1', [before])
    },
  }
}

export type OnrampOrders = ReturnType<typeof createOnrampOrders>
