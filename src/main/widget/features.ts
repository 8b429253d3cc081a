import type { Widget } from './createWidget'
import { createHistoryController, type HistoryController } from './createHistoryController'
import { createNamesController, type NamesController } from './createNamesController'
import { createSendController, type SendController } from './createSendController'
import { createSolanaSendController, type SolanaSendController } from './createSolanaSendController'
import { createWalletListController, type WalletListController } from './createWalletListController'

export type Features = { send: SendController; solanaSend: SolanaSendController; history: HistoryController; names: NamesController; wallets: WalletListController }

const byWidget = new WeakMap<Widget, Features>()

/**
 * The send, history and names controllers of a widget, created on first use. They live in the modal's chunk, so a
 * page pays for them only once a visitor opens those views. Each gets what it uses of the widget, by name.
 */
export function getFeatures(widget: Widget): Features {
  const existing = byWidget.get(widget)
  if (existing) return existing
  const { core, notifications, router, analytics, getAccount, walletRequest } = widget
  const features: Features = {
    send: createSendController({ core, notifications, router, getAccount, walletRequest, onConfirmed: () => void widget.refreshBalance() }),
    solanaSend: createSolanaSendController({
      core,
      notifications,
      router,
      getAccount: () => {
        const solana = widget.getState().namespaces.solana
        return { address: solana?.address, caipNetworkId: solana?.activeCaipNetworkId ?? '' }
      },
      getKnownTokens: (caipNetworkId) => {
        const network = widget.getNetworks().find((n) => n.caipNetworkId === caipNetworkId)
        return network?.chainNamespace === 'solana' ? (network.tokens ?? []) : []
      },
      signTransaction: widget.signSolanaTransaction,
      onConfirmed: () => void widget.refreshBalance(),
    }),
    history: createHistoryController({ core, notifications, analytics, projectId: widget.config.projectId }),
    names: createNamesController({ core, router, getAddress: () => getAccount().address, walletRequest, onRegistered: widget.setProfileName }),
    wallets: createWalletListController({ core, imageUrl: widget.walletImageUrl }),
  }
  // A network switch, and a switch to another family, reset the send form (SPEC §4): its token and fee belong to the old network.
  widget.subscribe(
    (state) => state.activeCaipNetworkId,
    () => {
      features.send.reset({ keepBalances: false })
      features.solanaSend.reset({ keepBalances: false })
    },
  )
  byWidget.set(widget, features)
  return features
}
