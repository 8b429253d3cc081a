import { afterEach, describe, expect, it, vi } from 'vitest'
// eslint-disable-next-line no-restricted-imports -- the codec is checked against comlink's real handlers and a real round trip
import { expose, transferHandlers, wrap, type TransferHandler } from 'comlink'
import { errorTable, type ErrorCode } from './errorTable'
import {
  createWidgetError,
  fromRpcError,
  installErrorTransferHandler,
  isWidgetError,
  NodeError,
  ProviderRpcError,
  reviveError,
  RpcError,
  serializeError,
  ServiceError,
  WidgetError,
} from './errors'

describe('WidgetError', () => {
  it('fills the spec’s parameters', () => {
    expect(new WidgetError('EMAIL_LOGIN_THROTTLED', { params: { n: 12 } }).message).toBe('Please try again after 12 seconds')
    expect(new WidgetError('NAME_REGISTER_FAILED', { params: { name: 'alice' } }).shortMessage).toBe('Error registering name alice')
  })

  it('keeps shortMessage, details and cause apart', () => {
    const cause = new Error('socket hang up')
    const error = new WidgetError('TOKEN_BALANCE_UNAVAILABLE', { details: 'eip155:1 answered 503', cause })
    expect(error).toMatchObject({ code: 'TOKEN_BALANCE_UNAVAILABLE', shortMessage: 'Token Balance Unavailable', details: 'eip155:1 answered 503', cause })
    expect(error.message).toBe('Token Balance Unavailable\n\nDetails: eip155:1 answered 503')
  })

  it('has the spec’s exact sentence for every message of SPEC §5, §6 and §8', () => {
    const sentences = Object.fromEntries((Object.keys(errorTable) as ErrorCode[]).map((code) => [code, createWidgetError(code).shortMessage]))
    expect(sentences).toMatchInlineSnapshot(`
      {
        "ABI_DECODING_FAILED": "Could not decode the data returned by the contract.",
        "ACTION_NOT_ALLOWED": "Action not allowed",
        "ADAPTER_NOT_FOUND": "Adapter not found",
        "ATOMICITY_NOT_SUPPORTED": "The wallet does not support atomic execution but the request requires it.",
        "ATOMIC_READY_WALLET_REJECTED_UPGRADE": "The Wallet can support atomicity after an upgrade, but the user rejected the upgrade.",
        "AUTHENTICATING": "Authenticating...",
        "AUTH_CODE_ATTEMPTS_EXCEEDED": "Too many wrong codes. Please ask for a new one",
        "AUTH_CODE_EXPIRED": "This code has expired. Please ask for a new one",
        "AUTH_CODE_INVALID": "The code is not correct. Please check it and try again",
        "AUTH_CONNECTOR_NOT_FOUND": "Address or auth connector not found",
        "AUTH_DEVICE_NOT_APPROVED": "This device is not approved yet: open the link we sent by e-mail, then try again",
        "AUTH_EMAIL_NOT_SENT": "The e-mail could not be sent. Please try again later",
        "AUTH_EMAIL_TAKEN": "This e-mail address belongs to another account",
        "AUTH_EMAIL_UNCHANGED": "This is already your e-mail address",
        "AUTH_FARCASTER_FAILED": "The Farcaster sign-in could not be verified. Please try again",
        "AUTH_FARCASTER_PENDING": "The Farcaster sign-in is not approved yet: scan the QR code with your phone and approve it",
        "AUTH_FLOW_EXPIRED": "This sign-in has expired. Please start again",
        "AUTH_RATE_LIMITED": "Too many attempts. Please wait {n} min and try again",
        "AUTH_SESSION_EXPIRED": "Your session has ended. Please sign in again",
        "AUTH_SHARE_EXISTS": "This account already has its key share",
        "AUTH_SOCIAL_CANCELLED": "Sign-in with {provider} was cancelled",
        "AUTH_SOCIAL_FAILED": "Sign-in with {provider} failed. Please try again",
        "AUTH_SOCIAL_UNAVAILABLE": "Sign-in with {provider} is not available",
        "BITCOIN_ADDRESS_WRONG_NETWORK": "This is a {addressNetwork} address; the selected network is {network}",
        "BITCOIN_AMOUNT_BELOW_DUST": "The amount is below the dust limit: send at least {dust} sats to this address",
        "BITCOIN_AMOUNT_INVALID": "Enter an amount of BTC more than 0, with at most 8 decimals",
        "BITCOIN_BROADCAST_REFUSED": "The network refused the transaction: {reason}",
        "BITCOIN_INSUFFICIENT_FUNDS": "The amount and its network fee of {fee} sats are more than the {available} sats this account can spend",
        "BUNDLE_TOO_LARGE": "The call bundle is too large for the Wallet to process.",
        "CAIP_NETWORK_UNDEFINED": "CaipNetwork is undefined",
        "CALL_WOULD_FAIL": "Call {index} of {count} would fail ({reason}): nothing was sent",
        "CHAIN_ADAPTER_NOT_FOUND": "Chain adapter not found",
        "CHAIN_DISCONNECTED": "The Provider is not connected to the requested chain.",
        "CHAIN_NOT_SUPPORTED": "Chain is not supported",
        "CHAIN_REQUIRED": "Chain is required to update chain account data",
        "CONNECTION_CLIENT_NOT_SET": "ConnectionController client not set",
        "CONTRACT_FUNCTION_REVERTED": "The contract function reverted.",
        "CONTRACT_ZERO_DATA": "The contract function returned no data ("0x").",
        "CORE_DESTROYED": "The core was destroyed",
        "CORE_TIMEOUT": "The core did not answer in time",
        "CORE_WORKER_DIED": "The core worker stopped",
        "COUNTERFACTUAL_DEPLOYMENT_FAILED": "Deployment for counterfactual contract call failed.",
        "DISCONNECTED": "The Provider is disconnected from all chains.",
        "DISCONNECT_FAILED": "Failed to disconnect",
        "DUPLICATE_ID": "There is already a bundle submitted with this ID.",
        "EMAIL_DEPENDENCY_FAILED": "Unable to load email login dependency",
        "EMAIL_LOGIN_THROTTLED": "Please try again after {n} seconds",
        "EXECUTION_REVERTED": "Execution reverted for an unknown reason.",
        "FEE_CAP_TOO_HIGH": "The fee cap (\`maxFeePerGas\`) cannot be higher than the maximum allowed value (2^256-1).",
        "FEE_CAP_TOO_LOW": "The fee cap (\`maxFeePerGas\`) cannot be lower than the block base fee.",
        "FETCH_TRANSACTIONS_FAILED": "Failed to fetch transactions",
        "FRAME_ERROR": "An error occurred",
        "GAS_PRICE_NETWORK_UNSUPPORTED": "Network not supported for Gas Price",
        "HTTP_REQUEST_FAILED": "HTTP request failed.",
        "INSUFFICIENT_FUNDS": "The total cost (gas * gas fee + value) of executing this transaction exceeds the balance of the account.",
        "INTERNAL_ERROR": "An internal error was received.",
        "INTRINSIC_GAS_TOO_HIGH": "The amount of gas provided for the transaction exceeds the limit allowed for the block.",
        "INTRINSIC_GAS_TOO_LOW": "The amount of gas provided for the transaction is too low.",
        "INVALID_ADDRESS": "Address is invalid.",
        "INVALID_APP_CONFIGURATION": "Invalid App Configuration",
        "INVALID_CONFIG": "Invalid widget config",
        "INVALID_INPUT": "Missing or invalid parameters.",
        "INVALID_MESSAGE": "Invalid message",
        "INVALID_PARAMS": "Invalid parameters were provided to the RPC method.",
        "INVALID_REQUEST": "JSON is not a valid request object.",
        "JSON_RPC_VERSION_UNSUPPORTED": "Version of JSON-RPC protocol is not supported.",
        "KEY_COMMITMENT_MISMATCH": "The wallet could not be unlocked: its key shares do not match",
        "LIMIT_EXCEEDED": "Request exceeds defined limit.",
        "METHOD_NOT_FOUND": "The method does not exist / is not available.",
        "METHOD_NOT_SUPPORTED": "Method is not implemented.",
        "NAMES_FOR_ADDRESS_FAILED": "Error fetching names for address",
        "NAME_REGISTER_FAILED": "Error registering name {name}",
        "NAME_RESOLVE_FAILED": "Error resolving name",
        "NAME_SUGGESTIONS_FAILED": "Error fetching name suggestions",
        "NETWORK_CLIENT_NOT_SET": "NetworkController client not set",
        "NETWORK_NOT_FOUND": "Network not found",
        "NONCE_MAX_VALUE": "Nonce provided for the transaction has exceeded the maximum allowed nonce.",
        "NONCE_TOO_HIGH": "Nonce provided for the transaction is higher than the next one expected.",
        "NONCE_TOO_LOW": "Nonce provided for the transaction is lower than the current nonce of the account.",
        "NO_ACTIVE_CAIP_ADDRESS": "No ActiveCaipAddress found",
        "NO_RPC_URL": "No URL was provided to the Transport. Please provide a valid RPC URL to the Transport.",
        "ONRAMP_PURCHASE_FAILED": "The purchase did not go through: nothing was taken from you",
        "ONRAMP_UNAVAILABLE": "The payment provider could not be reached. Try again in a moment.",
        "PARSE_ERROR": "Invalid JSON was received by the server. An error occurred on the server while parsing the JSON text.",
        "POLKADOT_ADDRESS_WRONG_NETWORK": "This is a {addressNetwork} address; the selected network is {network}",
        "POLKADOT_BELOW_EXISTENTIAL_DEPOSIT": "An account must hold at least {existentialDeposit}: send at least {minimum} to this address",
        "POLKADOT_CANNOT_PAY_FEE": "This account cannot pay the network fee of this transaction",
        "POLKADOT_INSUFFICIENT_FUNDS": "The amount and its network fee of {fee} are more than the {available} this account can send while keeping its existential deposit of {existentialDeposit}",
        "POLKADOT_NODE_UNREACHABLE": "Could not connect to the {network} node. Check your connection and try again.",
        "POLKADOT_TRANSACTION_NOT_INCLUDED": "The transaction expired before a block included it: nothing was sent, you can send it again",
        "POLKADOT_TRANSACTION_REFUSED": "The network refused the transaction",
        "POLKADOT_TRANSACTION_STALE": "This transaction is out of date: prepare it again and sign the new one",
        "PROJECT_ID_MISSING": "Project ID is missing: set projectId in the widget config",
        "RECOVERY_PASSWORD_TOO_SHORT": "Choose a recovery password of at least {n} characters",
        "RECOVERY_PASSWORD_WRONG": "The recovery password is not correct",
        "REQUEST_ABORTED": "Request was aborted",
        "RESOURCE_NOT_FOUND": "Requested resource not found.",
        "RESOURCE_UNAVAILABLE": "Requested resource not available.",
        "RPC_NOT_ALLOWED": "Requested RPC call is not allowed",
        "RPC_REQUEST_FAILED": "RPC Request failed.",
        "RPC_TIMEOUT": "The request took too long to respond.",
        "SCHEMA_INVALID_INPUT": "Invalid input",
        "SCHEMA_INVALID_TYPE": "Expected {expected}, received {received}",
        "SCHEMA_REQUIRED": "Required",
        "SCHEMA_TOO_BIG": "String must contain at most {n} character(s)",
        "SCHEMA_TOO_SMALL": "String must contain at least {n} character(s)",
        "SEND_FEE_NOT_COVERED": "The balance does not cover this amount and its network fee",
        "SEND_FEE_UNAVAILABLE": "The network fee could not be estimated. Try again in a moment.",
        "SEND_INPUT_MISSING": "A token, an amount and a receiver are needed to send",
        "SEND_WOULD_FAIL": "This transfer would fail on chain. Check the amount and the receiver.",
        "SERVICE_BAD_RESPONSE": "The service answered with something unexpected",
        "SERVICE_NOT_CONFIGURED": "The data service is not configured",
        "SERVICE_TIMEOUT": "The service did not answer in time",
        "SERVICE_UNREACHABLE": "The service could not be reached",
        "SIGNATURE_DECLINED": "Signature declined",
        "SIWX_CONFIG_CONFLICT": "Cannot set both \`siweConfig\` and \`siwx\` options",
        "SIWX_INIT_FAILED": "A problem occurred while trying initialize authentication",
        "SIWX_NOT_ENABLED": "SIWX is not enabled",
        "SMART_ACCOUNT_UNSUPPORTED": "This application might not support Smart Accounts",
        "SOCIAL_LOGIN_TIMEOUT": "Social login timed out: please try again",
        "SOLANA_SEND_FAILED": "Failed to send transaction. Please try again.",
        "SOLANA_SEND_INVALID": "Please enter a valid amount and receiver address",
        "SOMETHING_WENT_WRONG": "Something went wrong",
        "SWAP_NETWORK_UNSUPPORTED": "Network not supported for Swaps",
        "SWAP_PRICE_MOVED": "The price moved past your slippage tolerance before the swap went through: nothing was swapped",
        "SWAP_QUOTE_UNAVAILABLE": "No price was found for this swap. Try again in a moment.",
        "SWAP_WOULD_FAIL": "This swap would fail on chain. Check the amounts and try again.",
        "SWITCH_NETWORK_NOT_FOUND": "The network to switch to was not found",
        "TIP_ABOVE_FEE_CAP": "The provided tip (\`maxPriorityFeePerGas\`) cannot be higher than the fee cap (\`maxFeePerGas\`).",
        "TOKEN_BALANCE_UNAVAILABLE": "Token Balance Unavailable",
        "TOO_MANY_PENDING_TRANSACTIONS": "Too many pending transactions",
        "TRANSACTIONS_NO_ACCOUNT": "Transactions can't be fetched without an accountAddress",
        "TRANSACTION_CONFIRMED": "Transaction confirmed",
        "TRANSACTION_FAILED": "Transaction failed: it was reverted on chain",
        "TRANSACTION_REJECTED": "Transaction creation failed.",
        "TRANSACTION_STARTED": "Transaction started",
        "TRANSACTION_TYPE_NOT_SUPPORTED": "The transaction type is not supported for this chain.",
        "TRANSACTION_UNCONFIRMED": "The transaction could not be confirmed. Check its status before sending again.",
        "UNAUTHORIZED": "The requested method and/or account has not been authorized by the user.",
        "UNKNOWN": "An error occurred",
        "UNKNOWN_BUNDLE_ID": "This bundle id is unknown / has not been submitted",
        "UNKNOWN_NODE_ERROR": "An error occurred while executing.",
        "UNKNOWN_RPC_ERROR": "An unknown RPC error occurred.",
        "UNRECOGNIZED_CHAIN": "Unrecognized chain.",
        "UNSUPPORTED_CHAIN": "Unsupported chain",
        "UNSUPPORTED_CHAIN_ID": "This Wallet does not support the requested chain ID.",
        "UNSUPPORTED_METHOD": "The Provider does not support the requested method.",
        "UNSUPPORTED_NON_OPTIONAL_CAPABILITY": "This Wallet does not support a capability that was not marked as optional.",
        "USER_REJECTED": "User rejected the request.",
        "WALLETCONNECT_NOT_CONFIGURED": "WalletConnect needs services.relay in the widget config",
        "WALLETCONNECT_UNAVAILABLE": "Could not reach the WalletConnect relay",
        "WALLET_BAD_RESPONSE": "The wallet answered with something unexpected",
        "WALLET_NOT_FOUND": "No wallet with this id was found on this page",
        "WIDGET_CODE_NOT_LOADED": "Tessera's code could not be loaded: check the connection, then try again or reload the page.",
      }
    `)
  })
})

describe('fromRpcError (SPEC §8)', () => {
  it.each([
    [-32700, 'PARSE_ERROR', RpcError], [-32600, 'INVALID_REQUEST', RpcError], [-32601, 'METHOD_NOT_FOUND', RpcError],
    [-32602, 'INVALID_PARAMS', RpcError], [-32603, 'INTERNAL_ERROR', RpcError], [-32000, 'INVALID_INPUT', RpcError],
    [-32001, 'RESOURCE_NOT_FOUND', RpcError], [-32002, 'RESOURCE_UNAVAILABLE', RpcError], [-32003, 'TRANSACTION_REJECTED', RpcError],
    [-32004, 'METHOD_NOT_SUPPORTED', RpcError], [-32005, 'LIMIT_EXCEEDED', RpcError], [-32006, 'JSON_RPC_VERSION_UNSUPPORTED', RpcError],
    [4001, 'USER_REJECTED', ProviderRpcError], [4100, 'UNAUTHORIZED', ProviderRpcError], [4200, 'UNSUPPORTED_METHOD', ProviderRpcError],
    [4900, 'DISCONNECTED', ProviderRpcError], [4901, 'CHAIN_DISCONNECTED', ProviderRpcError], [4902, 'UNRECOGNIZED_CHAIN', ProviderRpcError],
    [5700, 'UNSUPPORTED_NON_OPTIONAL_CAPABILITY', ProviderRpcError], [5710, 'UNSUPPORTED_CHAIN_ID', ProviderRpcError],
    [5720, 'DUPLICATE_ID', ProviderRpcError], [5730, 'UNKNOWN_BUNDLE_ID', ProviderRpcError], [5740, 'BUNDLE_TOO_LARGE', ProviderRpcError],
    [5750, 'ATOMIC_READY_WALLET_REJECTED_UPGRADE', ProviderRpcError], [5760, 'ATOMICITY_NOT_SUPPORTED', ProviderRpcError],
    [-1, 'UNKNOWN_RPC_ERROR', RpcError], [12345, 'UNKNOWN_RPC_ERROR', RpcError],
  ] as const)('%i → %s', (rpcCode, code, ErrorClass) => {
    const error = fromRpcError({ code: rpcCode, message: 'from the node' })
    expect(error).toBeInstanceOf(ErrorClass)
    expect(error.code).toBe(code)
    expect(error.details).toBe('from the node')
  })

  it.each([
    ['execution reverted: not owner', 'EXECUTION_REVERTED'],
    ['nonce too low: next nonce 5, tx nonce 4', 'NONCE_TOO_LOW'],
    ['nonce too high', 'NONCE_TOO_HIGH'],
    ['insufficient funds for gas * price + value', 'INSUFFICIENT_FUNDS'],
    ['max fee per gas less than block base fee', 'FEE_CAP_TOO_LOW'],
    ['intrinsic gas too low', 'INTRINSIC_GAS_TOO_LOW'],
    ['max priority fee per gas higher than max fee per gas', 'TIP_ABOVE_FEE_CAP'],
  ])('classifies the node message %j as %s', (message, code) => {
    const error = fromRpcError({ code: -32000, message })
    expect(error).toBeInstanceOf(NodeError)
    expect(error.code).toBe(code)
  })
})

describe('error codec across worker and frame boundaries', () => {
  it('revives a WidgetError with its class, code and fields through structured clone', () => {
    const original = new ServiceError('NAME_REGISTER_FAILED', { params: { name: 'alice' }, details: 'name taken', status: 409, field: 'name', cause: new Error('conflict') })
    const revived = reviveError(structuredClone(serializeError(original)))
    expect(revived).toBeInstanceOf(ServiceError)
    expect(revived).toMatchObject({ code: 'NAME_REGISTER_FAILED', shortMessage: 'Error registering name alice', details: 'name taken', status: 409, field: 'name' })
    expect((revived.cause as Error).message).toBe('conflict')
  })

  it('keeps a foreign error’s name and numeric code', () => {
    const viemLike = Object.assign(new Error('User rejected the request.'), { name: 'UserRejectedRequestError', code: 4001, shortMessage: 'User rejected the request.' })
    expect(reviveError(serializeError(viemLike))).toMatchObject({ name: 'UserRejectedRequestError', code: 4001, shortMessage: 'User rejected the request.' })
  })

  it.each([null, undefined, 42, 'boom', { code: 'NOT_A_CODE' }, { message: 5 }, []])('never throws on %j', (value) => {
    expect(() => reviveError(value)).not.toThrow()
    expect(() => serializeError(value)).not.toThrow()
  })

  it('stops following causes after 8 levels (cycles included)', () => {
    const a = new Error('a') as Error & { cause?: unknown }
    a.cause = a
    let depth = 0
    for (let e: { cause?: unknown } | undefined = serializeError(a); e; e = e.cause as typeof e) depth++
    expect(depth).toBe(9)
  })
})

describe('installErrorTransferHandler on a page that uses comlink itself', () => {
  const comlinkThrow = transferHandlers.get('throw')!
  const ports: MessagePort[] = []
  afterEach(() => {
    transferHandlers.set('throw', comlinkThrow)
    for (const port of ports.splice(0)) port.close()
  })

  /** A real comlink round trip in one process: both ends share the transfer handlers, as a host page and our core do. */
  function connect<T extends object>(api: T) {
    const { port1, port2 } = new MessageChannel()
    ports.push(port1, port2)
    expose(api, port1)
    return wrap<T>(port2)
  }
  const outcome = (promise: Promise<unknown>) => promise.then(() => 'resolved', (error: unknown) => error)

  const host = {
    fail: () => {
      throw new Error('host failure')
    },
    failWithObject: () => {
      throw { reason: 'host object', attempts: 2 }
    },
    failWithCode: () => {
      throw Object.assign(new Error('host failure'), { code: 'HOST_CODE' })
    },
    failOurWay: () => {
      throw createWidgetError('NAME_REGISTER_FAILED', { params: { name: 'alice' }, details: 'name taken', field: 'name', status: 409 })
    },
  }

  it('keeps our errors’ class, code and fields', async () => {
    installErrorTransferHandler(transferHandlers)
    const error = await outcome(connect(host).failOurWay())
    expect(error).toBeInstanceOf(ServiceError)
    expect(error).toMatchObject({ code: 'NAME_REGISTER_FAILED', shortMessage: 'Error registering name alice', details: 'name taken', field: 'name', status: 409 })
  })

  it('leaves everything else to comlink’s default: a plain Error keeps its message only, an object stays as it is', async () => {
    installErrorTransferHandler(transferHandlers)
    const remote = connect(host)
    const error = await outcome(remote.fail())
    expect(error).toBeInstanceOf(Error)
    expect(error).toMatchObject({ name: 'Error', message: 'host failure' })
    expect(isWidgetError(error)).toBe(false)
    expect(Object.keys(error as object)).toEqual(['name']) // comlink adds name, message and stack, nothing of ours
    expect(await outcome(remote.failWithCode())).not.toHaveProperty('code')
    expect(await outcome(remote.failWithObject())).toEqual({ reason: 'host object', attempts: 2 })
  })

  it('leaves the host’s errors to a throw handler the host installed before ours', async () => {
    const hostThrow: TransferHandler<unknown, unknown> = {
      canHandle: comlinkThrow.canHandle,
      serialize: (thrown) => [{ hostError: (thrown as { value: Error }).value.message }, []],
      deserialize: (serialized) => {
        throw Object.assign(new Error((serialized as { hostError: string }).hostError), { isHostRevived: true })
      },
    }
    transferHandlers.set('throw', hostThrow)
    installErrorTransferHandler(transferHandlers)
    const remote = connect(host)
    expect(await outcome(remote.fail())).toMatchObject({ message: 'host failure', isHostRevived: true })
    expect(await outcome(remote.failOurWay())).toMatchObject({ code: 'NAME_REGISTER_FAILED', field: 'name' })
  })

  it('does not wrap itself when installed twice (two widgets, two copies of Tessera)', async () => {
    const serialize = vi.spyOn(comlinkThrow, 'serialize')
    installErrorTransferHandler(transferHandlers)
    const installed = transferHandlers.get('throw')
    installErrorTransferHandler(transferHandlers)
    expect(transferHandlers.get('throw')).toBe(installed)
    await outcome(connect(host).fail())
    expect(serialize).toHaveBeenCalledTimes(1)
    serialize.mockRestore()
  })

  it('revives our errors as Errors with their fields even through a handler that is not ours', () => {
    const handlers = new Map([['throw', comlinkThrow]])
    installErrorTransferHandler(handlers)
    const [wire] = handlers.get('throw')!.serialize({ value: createWidgetError('REQUEST_ABORTED') })
    expect(() => comlinkThrow.deserialize(structuredClone(wire))).toThrow(expect.objectContaining({ code: 'REQUEST_ABORTED', message: 'Request was aborted' }))
  })

  it('needs a throw handler to delegate to', () => {
    expect(() => installErrorTransferHandler(new Map())).toThrow("comlink has no 'throw' transfer handler to replace")
  })
})
