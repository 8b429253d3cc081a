import { expose, transferHandlers } from 'comlink'
import { installErrorTransferHandler } from '../shared/protocol/errors'
import { createWorkerApi } from './api'

installErrorTransferHandler(transferHandlers)

const api = createWorkerApi()

export type ExposedWorkerApi = typeof api

expose(api)
