/** The version of what the widget keeps in browser storage: keys of other versions are dropped when read. */
export const STORAGE_VERSION = 1

/**
 * The browser-storage key of one of the widget's items (`tessera:v1:walletId`). Apart from createWidgetStorage (and
 * its schemas) so that the page's first script can look for a remembered connection without loading them.
 */
export const storageKey = (item: string, prefix = 'tessera') => `${prefix}:v${STORAGE_VERSION}:${item}`
