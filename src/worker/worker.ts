import { expose, proxy } from 'comlink'
import { createWorkerApi } from './api'

const api = createWorkerApi()

const exposed = {
  ...api,
  // A function returned to the main thread must cross the boundary as a proxy.
  watchBlockNumber: (...args: Parameters<typeof api.watchBlockNumber>) => proxy(api.watchBlockNumber(...args)),
}

export type ExposedWorkerApi = typeof exposed

expose(exposed)
