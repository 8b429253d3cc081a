import { describe, expect, it, vi } from 'vitest'
import { createWidgetError } from '../../shared/protocol/errors'
import type { CoreDataService } from '../core/createCore'
import { createNotifications } from '../state/createNotifications'
import { createAnalytics } from './createAnalytics'

const setup = (send: (args: unknown) => Promise<boolean>, isEnabled = true) => {
  const notifications = createNotifications()
  const shown = vi.spyOn(notifications, 'show')
  const analytics = createAnalytics({
    isEnabled,
    dataService: { sendAnalyticsEvent: send } as unknown as CoreDataService,
    notifications,
    getAddress: () => '0xabc',
    location: { href: 'http://dapp.test/x', hostname: 'dapp.test' },
    now: () => 42,
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
})
