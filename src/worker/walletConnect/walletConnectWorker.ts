import { expose, transferHandlers } from 'comlink'
import { toWalletError } from '../../shared/protocol/eip1193'
import { installErrorTransferHandler } from '../../shared/protocol/errors'
import { createWalletConnectWorkerApi } from './createWalletConnectWorkerApi'

installErrorTransferHandler(transferHandlers)

/**
 * Every failure crosses to the page as a WidgetError (a wallet's or the sign client's own codes classified), so it
 * keeps its code and fields: the transfer handler serialises only Tessera's errors its own way.
 */
function withWidgetErrors<Api extends Record<string, unknown>>(api: Api): Api {
  const wrapped: Record<string, unknown> = {}
  for (const [name, member] of Object.entries(api)) {
    wrapped[name] =
      typeof member === 'function'
        ? async (...args: unknown[]) => {
            try {
              return await (member as (...a: unknown[]) => unknown)(...args)
            } catch (error) {
              throw toWalletError(error)
            }
          }
        : member
  }
  return wrapped as Api
}

/** The WalletConnect worker: the sign client, its crypto and its socket, off the page's main thread. */
expose(withWidgetErrors(createWalletConnectWorkerApi()))
