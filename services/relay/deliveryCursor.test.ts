import { describe, expect, it } from 'vitest'
import { isDelivered, markDelivered, newDeliveryCursor, startPushesAfter, type DeliveryCursor } from './deliveryCursor'

const cursor = (fetchedUpTo: number, liveFrom: number, pushedUpTo: number): DeliveryCursor => ({ fetchedUpTo, liveFrom, pushedUpTo })
const delivered = (of: DeliveryCursor) => Array.from({ length: 12 }, (_, index) => index + 1).filter((id) => isDelivered(of, id))

describe('delivery cursor', () => {
  it.each<[string, DeliveryCursor, [number, number], DeliveryCursor]>([
    ['a fetch from nothing', newDeliveryCursor(), [0, 4], cursor(4, 4, 4)],
    ['a push after a fetch', cursor(4, 4, 4), [4, 5], cursor(5, 5, 5)],
    ['pushes after a batch subscription', cursor(2, 6, 6), [6, 8], cursor(2, 6, 8)],
    ['a fetch page inside the backlog', cursor(2, 6, 8), [2, 4], cursor(4, 6, 8)],
    ['a fetch that reaches the pushed range: one range again', cursor(4, 6, 8), [4, 7], cursor(8, 8, 8)],
    ['a fetch past the pushed range', cursor(4, 6, 8), [4, 10], cursor(10, 10, 10)],
    ['a range starting in neither part (forgotten)', cursor(2, 6, 8), [4, 5], cursor(2, 6, 8)],
  ])('records %s', (_name, before, [fromId, toId], after) => {
    const recorded = { ...before }
    markDelivered(recorded, fromId, toId)
    expect(recorded).toEqual(after)
  })

  it('knows what it gave: everything up to fetchedUpTo and the pushed range, not the backlog between', () => {
    expect(delivered(cursor(2, 6, 8))).toEqual([1, 2, 7, 8])
    expect(delivered(cursor(5, 5, 5))).toEqual([1, 2, 3, 4, 5])
  })

  it('starts pushes after the newest id, leaving the backlog to a fetch, and never goes back', () => {
    const started = cursor(2, 2, 2)
    startPushesAfter(started, 6)
    expect(started).toEqual(cursor(2, 6, 6))
    startPushesAfter(started, 5)
    expect(started).toEqual(cursor(2, 6, 6))
    // A pushed range from an earlier subscription is forgotten: messages may come twice, none is withheld.
    const resubscribed = cursor(2, 6, 8)
    startPushesAfter(resubscribed, 10)
    expect(delivered(resubscribed)).toEqual([1, 2])
  })
})
