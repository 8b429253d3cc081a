import { expose } from 'comlink'

/** What a call rejected with, as plain data the page can compare. */
export type Rejection = { isError: true; name: string; message: string } | { isError: false; value: unknown }

/** The host page's own comlink worker: it knows nothing of Tessera and throws what any app might. */
const api = {
  fail(): never {
    throw new Error('host failure')
  },
  failWithObject(): never {
    throw { reason: 'host object', attempts: 2 }
  },
  /** Calls back into the page (a comlink proxy) and tells what the page's throw arrived as: the page serialised it. */
  async rejectionOf(callback: () => Promise<unknown>): Promise<Rejection | 'resolved'> {
    try {
      await callback()
      return 'resolved'
    } catch (error) {
      return error instanceof Error ? { isError: true, name: error.name, message: error.message } : { isError: false, value: error }
    }
  },
}

export type HostWorkerApi = typeof api

expose(api)
