import type { OnrampPaymentMethod } from '../api/onramp/provider'
import type { SandboxAsset, SandboxPartner } from './config'
import type { SandboxOrder } from './protocol'

export type OrderStatus = SandboxOrder['status']

/** An order as the sandbox keeps it. `status` moves pending → sent → completed, or to failed from pending or sent. */
export type OrderRecord = {
  orderId: string
  partner: SandboxPartner
  partnerOrderId: string
  partnerUserId: string
  redirectUrl?: string
  asset: SandboxAsset
  destination: string
  paymentCurrency: string
  paymentMethod: OnrampPaymentMethod
  paymentTotalCents: bigint
  providerFeeCents: bigint
  networkFeeCents: bigint
  /** Decimal, in the asset's units. */
  purchaseAmount: string
  purchaseBaseUnits: bigint
  createdAt: number
  /** Set once, by the first payment accepted: from then on no other is. */
  paidAt?: number
  status: OrderStatus
  txHash?: string
  failureReason?: string
}

/** The order as the protocol shows it to its partner. */
export const orderView = (order: OrderRecord): SandboxOrder => ({
  orderId: order.orderId,
  partnerOrderId: order.partnerOrderId,
  status: order.status,
  network: order.asset.network,
  asset: order.asset.symbol,
  destination: order.destination,
  purchaseAmount: order.purchaseAmount,
  ...(order.txHash ? { txHash: order.txHash } : {}),
  ...(order.failureReason ? { failureReason: order.failureReason } : {}),
})

export const isFinished = (status: OrderStatus) => status === 'completed' || status === 'failed'

export type OrderStore = {
  /** Adds an order, dropping the oldest finished one when full; false (nothing added) when full of open orders. */
  add: (order: OrderRecord) => boolean
  get: (orderId: string) => OrderRecord | undefined
  /** Call once an order is completed or failed: it may then be dropped. */
  markFinished: (order: OrderRecord) => void
  /** The orders in the order they were made (oldest first), for the expiry sweep. */
  values: () => IterableIterator<OrderRecord>
  size: () => number
}

/**
 * The orders, at most `maxOrders`. A full store drops its oldest finished order (the one finished first) for a new one;
 * open orders (waiting for payment, or paid and settling) are never dropped, so a full store of them refuses new ones
 * until some finish or expire.
 * @example const orders = createOrderStore({ maxOrders: 10_000 })
 */
export function createOrderStore({ maxOrders }: { maxOrders: number }): OrderStore {
  const orders = new Map<string, OrderRecord>()
  // In the order they finished: the first is the one to drop.
  const finished = new Set<string>()
  return {
    add: (order) => {
      if (orders.size >= maxOrders) {
        const oldest = finished.values().next()
        if (oldest.done) return false
        finished.delete(oldest.value)
        orders.delete(oldest.value)
      }
      orders.set(order.orderId, order)
      return true
    },
    get: (orderId) => orders.get(orderId),
    markFinished: (order) => {
      if (orders.get(order.orderId) === order) finished.add(order.orderId)
    },
    values: () => orders.values(),
    size: () => orders.size,
  }
}
