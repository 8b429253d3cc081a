import { describe, expect, it, vi } from 'vitest'
import { createWidgetError } from '../../shared/protocol/errors'
import type { CoreDataService } from '../core/createCore'
import { createNotifications } from '../state/createNotifications'
import { createAnalytics } from './createAnalytics'

const setup = (send: (args: unknown) => Promise<boolean>, isEnabled = true, whenIdle?: (run: () => void) => () => void) => {
  const notifications = createNotifications()
  const shown = vi.spyOn(notifications, 'show')
  const analytics = createAnalytics({
    isEnabled,
    dataService: { sendAnalyticsEvent: send } as unknown as CoreDataService,
    notifications,
    getAddress: () => '0xabc',
    location: { href: 'http://dapp.test/x', hostname: 'dapp.test' },
    now: () => 42,
    ...(whenIdle && { whenIdle }),
  })
  return { analytics, shown, notifications }
}

describe('analytics', () => {
  it('sends events with the page, the time and the address', async () => {
    const send = vi.fn(async () => true)
    const { analytics } = setup(send)
    expect(await analytics.track('MODAL_OPEN', { connected: false })).toBe(true)
    expect(send).toHaveBeenCalledWith(expect.objectContaining({ url: 'http://dapp.test/x', domain: 'dapp.test', timestamp: 42, address: '0xabc', event: { type: 'track', event: 'MODAL_OPEN', properties: { connected: false } } }))
  })

  it('never sends MODAL_CREATED, nor anything when the feature is off', async () => {
    const send = vi.fn(async () => true)
    expect(await setup(send).analytics.track('MODAL_CREATED')).toBe(false)
    expect(await setup(send, false).analytics.track('MODAL_OPEN')).toBe(false)
    expect(send).not.toHaveBeenCalled()
  })

  it("shows 'Invalid App Configuration' once, and again only after an event went through", async () => {
    let isForbidden = true
    const send = vi.fn(async () => {
      if (isForbidden) throw createWidgetError('INVALID_APP_CONFIGURATION', { status: 403 })
      return true
    })
    const { analytics, shown, notifications } = setup(send)
    await analytics.track('MODAL_OPEN')
    await analytics.track('MODAL_CLOSE')
    expect(shown).toHaveBeenCalledTimes(1)
    // By its code, which the UI says in the widget's locale; the English sentence is the spec's.
    expect(notifications.store.getState()).toMatchObject({ open: true, variant: 'error', code: 'INVALID_APP_CONFIGURATION', message: 'Invalid App Configuration' })
    isForbidden = false
    await analytics.track('MODAL_OPEN')
    isForbidden = true
    await analytics.track('MODAL_OPEN')
    expect(shown).toHaveBeenCalledTimes(2)
  })

  it('sends an event once the page is idle, as the page was when it happened; destroy() drops those still waiting', async () => {
    const send = vi.fn(async () => true)
    const idleRuns: (() => void)[] = []
    const cancelled: number[] = []
    const whenIdle = (run: () => void) => {
      idleRuns.push(run)
      const index = idleRuns.length - 1
      return () => void cancelled.push(index)
    }
    let address = '0xabc'
    const notifications = createNotifications()
    const analytics = createAnalytics({ isEnabled: true, dataService: { sendAnalyticsEvent: send } as unknown as CoreDataService, notifications, getAddress: () => address, location: { href: 'http://dapp.test/x', hostname: 'dapp.test' }, now: () => 42, whenIdle })
    const opened = analytics.track('MODAL_OPEN', { connected: false })
    await Promise.resolve()
    // In the click that opened the modal, nothing is sent.
    expect(send).not.toHaveBeenCalled()
    address = '0xdef'
    idleRuns[0]!()
    expect(await opened).toBe(true)
    expect(send).toHaveBeenCalledWith(expect.objectContaining({ address: '0xabc', timestamp: 42, event: { type: 'track', event: 'MODAL_OPEN', properties: { connected: false } } }))

    const closed = analytics.track('MODAL_CLOSE')
    analytics.destroy()
    expect(await closed).toBe(false)
    expect(cancelled).toEqual([1])
    expect(send).toHaveBeenCalledTimes(1)
  })
})
