/**
 * What one connection was given on one topic, in constant memory whatever the number of messages: every id up to
 * `fetchedUpTo`, and the ids in (`liveFrom`, `pushedUpTo`]. Message ids grow relay-wide, so a fetch walks up from
 * `fetchedUpTo` and pushes, which arrive in id order, extend `pushedUpTo`. The ids between `fetchedUpTo` and `liveFrom`
 * are what was stored before a batch subscription started pushing: they wait for irn_batchFetchMessages.
 */
export type DeliveryCursor = { fetchedUpTo: number; liveFrom: number; pushedUpTo: number }

/** A cursor of a connection that was given nothing yet. */
export const newDeliveryCursor = (): DeliveryCursor => ({ fetchedUpTo: 0, liveFrom: 0, pushedUpTo: 0 })

/** Whether the connection was given the message with this id. */
export const isDelivered = (cursor: DeliveryCursor, id: number) => id <= cursor.fetchedUpTo || (id > cursor.liveFrom && id <= cursor.pushedUpTo)

/**
 * Records that the connection has every message with an id in (fromId, toId] that it is to get. A range that starts
 * in neither part is not recorded: forgetting costs at most a message given twice, never one withheld.
 * @example markDelivered(cursor, cursor.pushedUpTo, pushed.id)
 */
export function markDelivered(cursor: DeliveryCursor, fromId: number, toId: number) {
  if (fromId <= cursor.fetchedUpTo) cursor.fetchedUpTo = Math.max(cursor.fetchedUpTo, toId)
  else if (fromId >= cursor.liveFrom && fromId <= cursor.pushedUpTo) cursor.pushedUpTo = Math.max(cursor.pushedUpTo, toId)
  // The two parts met: one range from 0.
  if (cursor.fetchedUpTo >= cursor.liveFrom) {
    const top = Math.max(cursor.fetchedUpTo, cursor.pushedUpTo)
    Object.assign(cursor, { fetchedUpTo: top, liveFrom: top, pushedUpTo: top })
  }
}

/**
 * Pushes start after `lastId` (the newest id when a batch subscription started); the messages up to it that the
 * connection was not given wait for a fetch. A pushed range from an earlier subscription is forgotten (see markDelivered).
 */
export function startPushesAfter(cursor: DeliveryCursor, lastId: number) {
  if (lastId <= cursor.pushedUpTo) return
  cursor.liveFrom = lastId
  cursor.pushedUpTo = lastId
}
