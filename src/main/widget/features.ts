import type { Widget } from './createWidget'
import { createHistoryController, type HistoryController } from './createHistoryController'
import { createNamesController, type NamesController } from './createNamesController'
import { createSendController, type SendController } from './createSendController'
import { createWalletListController, type WalletListController } from './createWalletListController'

export type Features = { send: SendController; history: HistoryController; names: NamesController; wallets: WalletListController }

const byWidget = new WeakMap<Widget, Features>()

/**
 * The send, history and names controllers of a widget, created on first use. They live in the modal's chunk, so a
 * page pays for them only once a visitor opens those views.
 */
export function getFeatures(widget: Widget): Features {
  const existing = byWidget.get(widget)
  if (existing) return existing
  const { core, notifications, router, analytics, projectId, getAccount, walletRequest, onBalancesChanged, setProfileName } = widget.context
  const features: Features = {
    send: createSendController({ core, notifications, router, getAccount, walletRequest, onConfirmed: onBalancesChanged }),
    history: createHistoryController({ core, notifications, analytics, projectId }),
    names: createNamesController({ core, router, getAddress: () => getAccount().address, walletRequest, onRegistered: setProfileName }),
    wallets: createWalletListController({ core, imageUrl: widget.walletImageUrl }),
  }
  // A network switch resets the send form (SPEC §4): its token and fee belong to the old network.
  widget.subscribe((state) => state.activeCaipNetworkId, () => features.send.reset({ keepBalances: false }))
  byWidget.set(widget, features)
  return features
}
