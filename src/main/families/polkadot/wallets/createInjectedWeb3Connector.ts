import type { PolkadotSignerPayload } from '../../../../shared/families/polkadot/coreApi'
import { decodeSs58 } from '../../../../shared/families/polkadot/address'
import { createWidgetError } from '../../../../shared/protocol/errors'
import type { ErrorCode } from '../../../../shared/protocol/errorTable'
import type { Injected, InjectedAccount, InjectedWindowProvider, SignerPayloadRaw } from './injectedWeb3'
import { toPolkadotWalletError } from './toPolkadotWalletError'

type Hex = `0x${string}`

export type PolkadotConnectorEvents = {
  /** The extension's accounts for this site changed; never empty (none left is onDisconnect). */
  onAccountsChanged?: (accounts: InjectedAccount[]) => void
  /** The extension no longer gives this site any account. */
  onDisconnect?: () => void
}

/**
 * A Polkadot extension as the polkadot adapter drives it. Accounts are as the extension gives them (SS58, any prefix):
 * the adapter writes them in the network's format. Every error is a WidgetError (a declined prompt is USER_REJECTED).
 */
export type PolkadotConnector = {
  readonly id: string
  readonly name: string
  readonly type: 'INJECTED'
  readonly namespace: 'polkadot'
  /** Extensions give no icon through injectedWeb3. */
  readonly imageUrl: undefined
  /** Its key in `window.injectedWeb3`. */
  readonly key: string
  /** `enable(appName)` (the extension shows its prompt the first time), then its accounts. */
  connect: () => Promise<InjectedAccount[]>
  /** Whether the extension lets this site in without asking (it remembers sites it let in): for reconnect on load. */
  isAuthorized: () => Promise<boolean>
  getAccounts: () => Promise<InjectedAccount[]>
  /** Extensions have no call to end a site's access: the connector forgets it and stops listening. */
  disconnect: () => Promise<void>
  /** The payload's signature (hex) by `signer.signPayload`; UNSUPPORTED_METHOD where the extension has none. */
  signPayload: (payload: PolkadotSignerPayload) => Promise<Hex>
  /** The signature (hex) of `raw.data` by `signer.signRaw` (`bytes` data is wrapped in <Bytes>…</Bytes> by the extension). */
  signRaw: (raw: SignerPayloadRaw) => Promise<Hex>
  /** Whether the extension signs payloads (else a transfer goes by signRaw of its bytes). */
  canSignPayload: () => boolean
  watch: (events: PolkadotConnectorEvents) => () => void
}

export type InjectedWeb3ConnectorParameters = {
  key: string
  provider: InjectedWindowProvider
  /** The site's name the extension shows in its prompt (`enable(appName)`). */
  appName: string
  /** How long a prompt (enable, a signature) may wait for the visitor. */
  promptTimeoutMs?: number
  /** How long enable may take on reconnect, where the extension should answer without a prompt. */
  authorizeTimeoutMs?: number
  /** How long reading the accounts may take. */
  readTimeoutMs?: number
}

/** Names of the extensions that inject under a short key. */
const knownNames: Readonly<Record<string, string>> = {
  'polkadot-js': 'polkadot{.js}',
  talisman: 'Talisman',
  'subwallet-js': 'SubWallet',
  'fearless-wallet': 'Fearless Wallet',
  enkrypt: 'Enkrypt',
  polkagate: 'PolkaGate',
  'aleph-zero-signer': 'Aleph Zero Signer',
}

/**
 * The name shown for an injectedWeb3 key: a known extension's own, else the key's words capitalized
 * ('tessera-dev-polkadot' is 'Tessera Dev Polkadot').
 */
export const extensionName = (key: string) =>
  knownNames[key] ??
  key
    .split(/[-_\s]+/)
    .filter(Boolean)
    .map((word) => `${word[0]!.toUpperCase()}${word.slice(1)}`)
    .join(' ')

/** More accounts than this from one extension are not read. */
const MAX_ACCOUNTS = 50

/** The accounts of an extension's answer that are SS58 account addresses (32-byte keys): ethereum-type ones are dropped. */
export function toInjectedAccounts(value: unknown): InjectedAccount[] {
  if (!Array.isArray(value)) return []
  return value.slice(0, MAX_ACCOUNTS).flatMap((entry: Partial<InjectedAccount> | null) => {
    if (typeof entry?.address !== 'string' || entry.address.length > 64 || !decodeSs58(entry.address)) return []
    const genesisHash = typeof entry.genesisHash === 'string' && /^0x[0-9a-fA-F]{64}$/.test(entry.genesisHash) ? entry.genesisHash.toLowerCase() : null
    const name = typeof entry.name === 'string' ? entry.name.slice(0, 64) : undefined
    return [{ address: entry.address, genesisHash, ...(name ? { name } : {}), ...(typeof entry.type === 'string' ? { type: entry.type } : {}) }]
  })
}

const sameAccounts = (a: readonly InjectedAccount[], b: readonly InjectedAccount[]) => a.length === b.length && a.every((account, i) => account.address === b[i]!.address && account.genesisHash === b[i]!.genesisHash)

/** `run()`, or `code` once `ms` have passed without an answer (the extension's late answer is then ignored). */
function within<T>(run: () => Promise<T>, ms: number, code: ErrorCode, details: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(createWidgetError(code, { details })), ms)
    Promise.resolve()
      .then(run)
      .then(resolve, reject)
      .finally(() => clearTimeout(timer))
  })
}

const isHexSignature = (value: unknown): value is Hex => typeof value === 'string' && /^0x(?:[0-9a-fA-F]{2}){64,66}$/.test(value)

/**
 * A connector for one `window.injectedWeb3` extension (polkadot{.js}, Talisman, SubWallet, …): `enable(appName)`, its
 * accounts and their `subscribe` changes, `signer.signPayload` and `signer.signRaw`.
 * @example const connector = createInjectedWeb3Connector({ key: 'polkadot-js', provider: window.injectedWeb3['polkadot-js'], appName: 'My dApp' })
 */
export function createInjectedWeb3Connector({ key, provider, appName, promptTimeoutMs = 300_000, authorizeTimeoutMs = 3_000, readTimeoutMs = 10_000 }: InjectedWeb3ConnectorParameters): PolkadotConnector {
  const name = extensionName(key)
  let injected: Injected | undefined
  let enabling: Promise<Injected> | undefined
  // The accounts as last read: an extension's subscription answers them again at once, which is no change.
  let known: InjectedAccount[] = []

  /** enable(appName), once at a time; a bad answer is WALLET_BAD_RESPONSE. */
  const enable = (timeoutMs: number) =>
    (enabling ??= within(
      async () => {
        if (typeof provider.enable !== 'function') throw createWidgetError('UNSUPPORTED_METHOD', { details: `${name} has no enable()` })
        const answer = (await provider.enable(appName)) as Partial<Injected> | null
        if (typeof answer?.accounts?.get !== 'function' || typeof answer.signer !== 'object' || answer.signer === null) {
          throw createWidgetError('WALLET_BAD_RESPONSE', { details: `${name}'s enable() answered no accounts or signer` })
        }
        injected = answer as Injected
        return injected
      },
      timeoutMs,
      'RPC_TIMEOUT',
      `${name} did not answer enable() within ${timeoutMs} ms`,
    )
      .catch((error: unknown) => {
        throw toPolkadotWalletError(error)
      })
      .finally(() => (enabling = undefined)))

  const readAccounts = async (from: Injected) => {
    try {
      known = toInjectedAccounts(await within(() => from.accounts.get(), readTimeoutMs, 'RPC_TIMEOUT', `${name} did not list its accounts within ${readTimeoutMs} ms`))
      return known
    } catch (error) {
      throw toPolkadotWalletError(error, { otherwise: 'WALLET_BAD_RESPONSE' })
    }
  }
  const signer = () => {
    if (!injected) throw createWidgetError('UNAUTHORIZED', { details: `${name} is not connected` })
    return injected.signer
  }
  const signed = async (sign: () => Promise<unknown>, what: string): Promise<Hex> => {
    let result: unknown
    try {
      result = await within(sign, promptTimeoutMs, 'RPC_TIMEOUT', `${name} did not answer ${what} within ${promptTimeoutMs} ms`)
    } catch (error) {
      throw toPolkadotWalletError(error)
    }
    const signature = (result as { signature?: unknown } | null)?.signature
    if (!isHexSignature(signature)) throw createWidgetError('WALLET_BAD_RESPONSE', { details: `${name} answered ${what} without a hex signature` })
    return signature.toLowerCase() as Hex
  }

  return {
    id: `injectedWeb3:${key}`,
    name,
    type: 'INJECTED',
    namespace: 'polkadot',
    imageUrl: undefined,
    key,
    async connect() {
      const accounts = await readAccounts(await enable(promptTimeoutMs))
      if (accounts.length === 0) throw createWidgetError('UNAUTHORIZED', { details: `${name} gave this site no Polkadot account` })
      return accounts
    },
    async isAuthorized() {
      try {
        return (await readAccounts(injected ?? (await enable(authorizeTimeoutMs)))).length > 0
      } catch {
        return false
      }
    },
    getAccounts: async () => (injected ? readAccounts(injected) : []),
    async disconnect() {
      injected = undefined
      known = []
    },
    async signPayload(payload) {
      const { signPayload } = signer()
      if (typeof signPayload !== 'function') throw createWidgetError('UNSUPPORTED_METHOD', { details: `${name} has no signer.signPayload` })
      return signed(() => signPayload(payload), 'signPayload')
    },
    async signRaw(raw) {
      const { signRaw } = signer()
      if (typeof signRaw !== 'function') throw createWidgetError('UNSUPPORTED_METHOD', { details: `${name} has no signer.signRaw` })
      return signed(() => signRaw(raw), 'signRaw')
    },
    canSignPayload: () => typeof injected?.signer.signPayload === 'function',
    watch({ onAccountsChanged, onDisconnect }) {
      const from = injected
      if (!from || typeof from.accounts.subscribe !== 'function') return () => {}
      let last = known
      let isStopped = false
      let stop: unknown
      try {
        stop = from.accounts.subscribe((value) => {
          const next = toInjectedAccounts(value)
          if (isStopped || injected !== from || sameAccounts(next, last)) return
          last = next
          if (next.length > 0) onAccountsChanged?.(next)
          else onDisconnect?.()
        })
      } catch {
        // an extension whose subscription fails still signs
      }
      return () => {
        isStopped = true
        try {
          if (typeof stop === 'function') (stop as () => void)()
        } catch {
          // nothing more to stop
        }
      }
    },
  }
}
