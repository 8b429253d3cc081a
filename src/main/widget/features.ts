import type { Address } from 'viem'
import { parseCaipNetworkId, type ChainNamespace } from '../../shared/protocol/caip'
import type { SendController } from '../families/types'
import type { Widget } from './createWidget'
import { createHistoryController, type HistoryController } from './createHistoryController'
import { createNamesController, type NamesController } from './createNamesController'
import { createWalletListController, type WalletListController } from './createWalletListController'

export type Features = {
  /** The send form of a family, its code fetched with the family's adapter on first use (one form per family). */
  send(namespace: ChainNamespace): Promise<SendController>
  history: HistoryController
  names: NamesController
  wallets: WalletListController
}

const byWidget = new WeakMap<Widget, Features>()

/**
 * The send, history and names controllers of a widget, created on first use. They live in the modal's chunk, so a
 * page pays for them only once a visitor opens those views. Each gets what it uses of the widget, by name.
 */
export function getFeatures(widget: Widget): Features {
  const existing = byWidget.get(widget)
  if (existing) return existing
  const { core, notifications, router, analytics, walletRequest } = widget
  const sends = new Map<ChainNamespace, Promise<SendController>>()
  const send = (namespace: ChainNamespace) => {
    const created =
      sends.get(namespace) ??
      widget
        .getAdapter(namespace)
        .then((adapter) => adapter.loadSend())
        .then((createSendController) =>
          createSendController({
            core,
            notifications,
            router,
            getAccount: () => {
              const state = widget.getState().namespaces[namespace]
              return { address: state?.address, caipNetworkId: state?.activeCaipNetworkId ?? '' }
            },
            getNetwork: (caipNetworkId) => widget.getNetworks().find((n) => n.caipNetworkId === caipNetworkId),
            getConnector: () => widget.getConnectedConnector(namespace, { review: false }),
            onConfirmed: () => void widget.refreshBalance(),
          }),
        )
    sends.set(namespace, created)
    // A failed load is tried again on the next visit to Send.
    created.catch(() => sends.delete(namespace))
    return created
  }
  const features: Features = {
    send,
    history: createHistoryController({ core, notifications, analytics, projectId: widget.config.projectId }),
    names: createNamesController({
      core,
      router,
      getAddress: () => widget.getState().namespaces.eip155?.address as Address | undefined,
      getChainId: () => Number(parseCaipNetworkId(widget.getState().namespaces.eip155?.activeCaipNetworkId ?? '')?.reference) || undefined,
      // The name's form is what the visitor reviews: its signature goes to the wallet as it is.
      walletRequest: (args) => walletRequest(args, { review: false }),
      onRegistered: widget.setProfileName,
    }),
    wallets: createWalletListController({ core, imageUrl: widget.walletImageUrl }),
  }
  // A network switch, and a switch to another family, reset the send form (SPEC §4): its token and fee belong to the old network.
  widget.subscribe(
    (state) => state.activeCaipNetworkId,
    () => {
      for (const created of sends.values()) void created.then((controller) => controller.reset({ keepBalances: false })).catch(() => {})
    },
  )
  byWidget.set(widget, features)
  return features
}
