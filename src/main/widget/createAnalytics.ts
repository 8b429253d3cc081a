import { errorTable } from '../../shared/protocol/errorTable'
import type { CoreDataService } from '../core/createCore'
import { whenPageIdle } from '../core/whenPageIdle'
import type { Notifications } from '../state/createNotifications'

/** An event waits at most this long for an idle page: what the visitor did (open, connect) shows first. */
const SEND_IDLE_TIMEOUT_MS = 1_000

export type AnalyticsEvent = 'MODAL_CREATED' | 'MODAL_OPEN' | 'MODAL_CLOSE' | 'CONNECT_SUCCESS' | 'ERROR_FETCH_TRANSACTIONS' | 'SET_PREFERRED_ACCOUNT_TYPE'

/**
 * Analytics (SPEC §7): events go to the data service's /e only when the feature is on, never MODAL_CREATED, each
 * once the page is idle (not in the click that opened the modal). A 403 shows the 'Invalid App Configuration' notice
 * once, until a later event goes through (SPEC §4). `destroy()` drops the events not yet sent.
 */
export function createAnalytics({
  isEnabled,
  dataService,
  notifications,
  getAddress,
  location = globalThis.location,
  now = Date.now,
  whenIdle = (run) => whenPageIdle(run, { timeoutMs: SEND_IDLE_TIMEOUT_MS }),
}: {
  isEnabled: boolean
  dataService: CoreDataService | undefined
  notifications: Notifications
  getAddress: () => string | undefined
  location?: Pick<Location, 'href' | 'hostname'>
  now?: () => number
  whenIdle?: (run: () => void) => () => void
}) {
  let hasShownForbidden = false
  /** The events waiting for an idle page, by their cancel. */
  const waiting = new Set<() => void>()
  const idle = () =>
    new Promise<boolean>((resolve) => {
      let cancel = () => {}
      const drop = () => {
        cancel()
        resolve(false)
      }
      waiting.add(drop)
      cancel = whenIdle(() => {
        waiting.delete(drop)
        resolve(true)
      })
    })
  return {
    async track(event: AnalyticsEvent, properties: Record<string, unknown> = {}) {
      if (!isEnabled || !dataService || event === 'MODAL_CREATED') return false
      // What the page was when it happened, sent once the page is idle.
      const happened = { url: location?.href ?? '', domain: location?.hostname ?? '', timestamp: now(), address: getAddress() }
      if (!(await idle())) return false
      try {
        await dataService.sendAnalyticsEvent({ eventId: crypto.randomUUID(), ...happened, event: { type: 'track', event, properties } })
        hasShownForbidden = false
        return true
      } catch (error) {
        if ((error as { code?: string }).code === 'INVALID_APP_CONFIGURATION' && !hasShownForbidden) {
          hasShownForbidden = true
          notifications.show({ code: 'INVALID_APP_CONFIGURATION', message: errorTable.INVALID_APP_CONFIGURATION.message }, { variant: 'error' })
        }
        return false
      }
    },
    /** Drops the events still waiting to be sent. */
    destroy() {
      for (const drop of [...waiting]) drop()
    },
  }
}

export type Analytics = ReturnType<typeof createAnalytics>
