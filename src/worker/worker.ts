import { expose, transferHandlers } from 'comlink'
import { installErrorTransferHandler } from '../shared/protocol/errors'
import { createWorkerApi } from './api'
import { lendToModules } from './moduleHost/lendToModules'

installErrorTransferHandler(transferHandlers)
lendToModules()

const api = createWorkerApi()

export type ExposedWorkerApi = typeof api

expose(api)
