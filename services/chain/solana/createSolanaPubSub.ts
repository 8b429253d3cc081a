import { WebSocket } from 'ws'
import type { ChainAccount, LiteSvmChain } from './createLiteSvmChain'
import { SYSTEM_PROGRAM } from './decodeTransaction'
import { encodeAccount, readAccountEncoding, type AccountEncodingOptions } from './encodeAccount'
import { answerJsonRpcBody, invalidParams, RpcError, rpcErrorCodes, stringifyJson, type RpcMethod } from './jsonRpc'
import { readAddress, readConfig, readInteger, readSignature } from './rpcParams'
import { readMint } from './splToken'

export type SolanaPubSubParameters = {
  chain: LiteSvmChain
  maxConnections?: number
  maxSubscriptionsPerConnection?: number
  /** A client that lets this much pile up unread is disconnected. */
  maxBufferedBytes?: number
  maxBatchLength?: number
}

type Subscription =
  | { id: number; socket: WebSocket; kind: 'account'; address: string; options: AccountEncodingOptions }
  | { id: number; socket: WebSocket; kind: 'signature'; signature: string }
  | { id: number; socket: WebSocket; kind: 'slot' }

const closedAccount: ChainAccount = { lamports: 0n, data: new Uint8Array(0), owner: SYSTEM_PROGRAM, executable: false, rentEpoch: 0n }

/**
 * Solana's PubSub WebSocket API over a LiteSVM chain: accountSubscribe, signatureSubscribe and
 * slotSubscribe with their unsubscribe methods. Signature subscriptions fire once, as on agave,
 * and at once when the signature has already landed.
 * @example const pubsub = createSolanaPubSub({ chain }); wss.on('connection', pubsub.handleConnection)
 */
export function createSolanaPubSub({
  chain,
  maxConnections = 256,
  maxSubscriptionsPerConnection = 1_000,
  maxBufferedBytes = 4 * 1024 * 1024,
  maxBatchLength = 10,
}: SolanaPubSubParameters) {
  let nextId = 0
  const sockets = new Map<WebSocket, Map<number, Subscription>>()
  const accountSubscriptions = new Map<string, Set<Subscription>>()
  const signatureSubscriptions = new Map<string, Set<Subscription>>()
  const slotSubscriptions = new Set<Subscription>()

  const decimalsOf = (mint: string) => {
    const account = chain.getAccount(mint)
    return account ? readMint(account.owner, account.data)?.decimals : undefined
  }

  function send(socket: WebSocket, text: string) {
    if (socket.readyState !== WebSocket.OPEN) return
    if (socket.bufferedAmount > maxBufferedBytes) {
      socket.terminate()
      return
    }
    socket.send(text)
  }

  function notify(subscription: Subscription, method: string, result: unknown) {
    send(subscription.socket, stringifyJson({ jsonrpc: '2.0', method, params: { result, subscription: subscription.id } }))
  }

  function index(subscription: Subscription): Set<Subscription> {
    if (subscription.kind === 'slot') return slotSubscriptions
    const [map, key] =
      subscription.kind === 'account' ? [accountSubscriptions, subscription.address] : [signatureSubscriptions, subscription.signature]
    let set = map.get(key)
    if (!set) map.set(key, (set = new Set()))
    return set
  }

  function remove(subscription: Subscription) {
    sockets.get(subscription.socket)?.delete(subscription.id)
    const set = index(subscription)
    set.delete(subscription)
    if (set.size > 0 || subscription.kind === 'slot') return
    if (subscription.kind === 'account') accountSubscriptions.delete(subscription.address)
    else signatureSubscriptions.delete(subscription.signature)
  }

  function notifySignature(subscription: Subscription, slot: bigint, err: unknown) {
    notify(subscription, 'signatureNotification', { context: { slot }, value: { err } })
    remove(subscription)
  }

  const stopSlots = chain.onSlot(({ slot, parent }) => {
    for (const subscription of slotSubscriptions) notify(subscription, 'slotNotification', { parent, root: slot, slot })
  })

  const stopTransactions = chain.onTransaction(({ record, writableAccounts }) => {
    for (const subscription of [...(signatureSubscriptions.get(record.signature) ?? [])]) notifySignature(subscription, record.slot, record.err)
    for (const address of new Set(writableAccounts)) {
      const subscriptions = accountSubscriptions.get(address)
      if (!subscriptions) continue
      const account = chain.getAccount(address) ?? closedAccount
      for (const subscription of subscriptions) {
        if (subscription.kind !== 'account') continue
        notify(subscription, 'accountNotification', { context: { slot: record.slot }, value: encodeAccount(account, subscription.options, decimalsOf) })
      }
    }
  })

  function methodsFor(socket: WebSocket, subscriptions: Map<number, Subscription>, afterResponse: (() => void)[]): Map<string, RpcMethod> {
    const add = (subscription: Subscription) => {
      if (subscriptions.size >= maxSubscriptionsPerConnection) {
        throw new RpcError(rpcErrorCodes.serverError, `Too many subscriptions: a connection holds at most ${maxSubscriptionsPerConnection}`)
      }
      subscriptions.set(subscription.id, subscription)
      index(subscription).add(subscription)
      return subscription.id
    }
    const unsubscribe = (kind: Subscription['kind']) => (params: unknown[]) => {
      const id = readInteger(params, 0, 'subscription id', { min: 0, max: Number.MAX_SAFE_INTEGER })
      const subscription = subscriptions.get(id)
      if (!subscription || subscription.kind !== kind) throw invalidParams(`params[0] (subscription id) ${id} is not a ${kind} subscription of this connection`)
      remove(subscription)
      return true
    }
    return new Map<string, RpcMethod>([
      [
        'accountSubscribe',
        (params) => {
          const { address } = readAddress(params, 0, 'address')
          const options = readAccountEncoding(readConfig(params, 1), 'base58')
          return add({ id: nextId++, socket, kind: 'account', address, options })
        },
      ],
      [
        'signatureSubscribe',
        (params) => {
          const signature = readSignature(params[0], 'params[0] (signature)')
          readConfig(params, 1)
          const subscription: Subscription = { id: nextId++, socket, kind: 'signature', signature }
          const id = add(subscription)
          const landed = chain.getTransaction(signature)
          if (landed) afterResponse.push(() => notifySignature(subscription, landed.slot, landed.err))
          return id
        },
      ],
      ['slotSubscribe', () => add({ id: nextId++, socket, kind: 'slot' })],
      ['accountUnsubscribe', unsubscribe('account')],
      ['signatureUnsubscribe', unsubscribe('signature')],
      ['slotUnsubscribe', unsubscribe('slot')],
    ])
  }

  /** Serves one WebSocket connection until it closes. */
  function handleConnection(socket: WebSocket) {
    if (sockets.size >= maxConnections) {
      socket.close(1013, 'Too many connections')
      return
    }
    const subscriptions = new Map<number, Subscription>()
    sockets.set(socket, subscriptions)
    socket.on('message', (data, isBinary) => {
      const afterResponse: (() => void)[] = []
      const methods = methodsFor(socket, subscriptions, afterResponse)
      const body = isBinary ? '' : data.toString()
      const response = answerJsonRpcBody({ body, methods, maxBatchLength })
      if (response !== undefined) send(socket, response)
      for (const action of afterResponse) action()
    })
    socket.on('error', () => socket.terminate())
    socket.on('close', () => {
      for (const subscription of [...subscriptions.values()]) remove(subscription)
      sockets.delete(socket)
    })
  }

  return {
    handleConnection,
    /** Subscriptions open now, for tests and limits. */
    subscriptionCount: () => [...sockets.values()].reduce((total, subscriptions) => total + subscriptions.size, 0),
    stop() {
      stopSlots()
      stopTransactions()
      for (const socket of sockets.keys()) socket.terminate()
    },
  }
}
