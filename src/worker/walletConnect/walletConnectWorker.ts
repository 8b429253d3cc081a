import { expose, transferHandlers } from 'comlink'
import { installErrorTransferHandler } from '../../shared/protocol/errors'
import { createWalletConnectWorkerApi } from './createWalletConnectWorkerApi'

installErrorTransferHandler(transferHandlers)

/** The WalletConnect worker: the sign client, its crypto and its socket, off the page's main thread. */
expose(createWalletConnectWorkerApi())
