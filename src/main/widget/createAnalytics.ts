import { errorTable } from '../../shared/protocol/errorTable'
import type { CoreDataService } from '../core/createCore'
import type { Notifications } from '../state/createNotifications'

export type AnalyticsEvent = 'MODAL_CREATED' | 'MODAL_OPEN' | 'MODAL_CLOSE' | 'CONNECT_SUCCESS' | 'ERROR_FETCH_TRANSACTIONS' | 'SET_PREFERRED_ACCOUNT_TYPE'

/**
 * Analytics (SPEC §7): events go to the data service's /e only when the feature is on, never MODAL_CREATED. A 403
 * shows the 'Invalid App Configuration' notice once, until a later event goes through (SPEC §4).
 */
export function createAnalytics({
  isEnabled,
  dataService,
  notifications,
  getAddress,
  location = globalThis.location,
  now = Date.now,
}: {
  isEnabled: boolean
  dataService: CoreDataService | undefined
  notifications: Notifications
  getAddress: () => string | undefined
  location?: Pick<Location, 'href' | 'hostname'>
  now?: () => number
}) {
  let hasShownForbidden = false
  return {
    async track(event: AnalyticsEvent, properties: Record<string, unknown> = {}) {
      if (!isEnabled || !dataService || event === 'MODAL_CREATED') return false
      try {
        await dataService.sendAnalyticsEvent({
          eventId: crypto.randomUUID(),
          url: location?.href ?? '',
          domain: location?.hostname ?? '',
          timestamp: now(),
          address: getAddress(),
          event: { type: 'track', event, properties },
        })
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
  }
}

export type Analytics = ReturnType<typeof createAnalytics>
