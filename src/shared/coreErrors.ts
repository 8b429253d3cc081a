// Interim: replaced by src/shared/protocol's WidgetError table and RPC method lists once they land.
const messages = {
  CORE_WORKER_DIED: 'The core worker stopped',
  CORE_TIMEOUT: 'The core did not answer in time',
  CORE_DESTROYED: 'The core was destroyed',
  REQUEST_ABORTED: 'Request was aborted',
} as const

export type CoreErrorCode = keyof typeof messages

export class CoreError extends Error {
  readonly code: CoreErrorCode
  readonly shortMessage: string
  readonly details: string | undefined
  constructor(code: CoreErrorCode, { details, cause }: { details?: string; cause?: unknown } = {}) {
    super(details ? `${messages[code]}. ${details}` : messages[code], { cause })
    this.name = 'CoreError'
    this.code = code
    this.shortMessage = messages[code]
    this.details = details
  }
}

const safeMethods = new Set(['eth_accounts', 'eth_call', 'eth_getBalance', 'eth_chainId', 'eth_getLogs', 'eth_blockNumber'])
export const isSafeRpcMethod = (method: string) => safeMethods.has(method)
