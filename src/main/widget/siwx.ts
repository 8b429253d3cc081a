import { parseCaipAddress } from '../../shared/protocol/caip'
import type { CoreDataService } from '../core/createCore'
import type { SignInMessageFields } from '../families/types'
import type { WidgetStorage } from '../storage/createWidgetStorage'
import type { DefaultSiwxOptions, SIWXAccount, SIWXConfig, SIWXSession } from './siwxConfig'

const SESSION_LIFETIME_MS = 24 * 60 * 60 * 1_000

/**
 * The default SIWX: CAIP-122 messages in the account's family's format (EIP-4361 on eip155, SIWS on solana, written by
 * the family's adapter) carrying a nonce the data service issued, sessions stored and checked by that service
 * (/v1/sessions), remembered in browser storage.
 */
export function createDefaultSiwx({
  dataService,
  createSignInMessage,
  storage,
  location = globalThis.location,
  required = false,
  statement = 'Sign in with your wallet.',
  expiresInMs = SESSION_LIFETIME_MS,
  now = Date.now,
}: DefaultSiwxOptions & {
  dataService: CoreDataService
  /** Writes the message in the format of the family of `caipNetworkId`. */
  createSignInMessage: (fields: SignInMessageFields) => Promise<string>
  storage: WidgetStorage
  location?: Pick<Location, 'host' | 'origin'>
  now?: () => number
}): SIWXConfig {
  const stored = () => storage.get('siwxSessions') ?? []
  // A session is one address's on one network (SPEC §4). EVM addresses are case-free; base58 ones are not.
  const isSameCaipAddress = (a: string, b: string) => (parseCaipAddress(a)?.namespace === 'eip155' ? a.toLowerCase() === b.toLowerCase() : a === b)
  const isAccountOf = (caipAddress: string, { accountAddress, caipNetworkId }: Pick<SIWXAccount, 'accountAddress' | 'caipNetworkId'>) =>
    isSameCaipAddress(caipAddress, `${caipNetworkId}:${accountAddress}`)
  /** Ends sessions at the service, proving we hold each with its own sign-in signature; rejects with the first failure. */
  const endAtService = async (sessions: readonly SIWXSession[]) => {
    const results = await Promise.allSettled(sessions.flatMap(({ id, signature }) => (id ? [dataService.revokeSession({ id, pci: id, signature })] : [])))
    const failed = results.find((r) => r.status === 'rejected')
    if (failed) throw failed.reason
  }
  return {
    async createMessage({ accountAddress, caipNetworkId }) {
      const { nonce } = await dataService.createSessionNonce()
      return createSignInMessage({ address: accountAddress, caipNetworkId, domain: location.host, uri: location.origin, nonce, statement, issuedAt: new Date(now()), expirationTime: new Date(now() + expiresInMs) })
    },
    async addSession(session) {
      const created = await dataService.createSession({ message: session.message, signature: session.signature })
      const replaced = stored().filter((s) => isSameCaipAddress(s.caipAddress, session.caipAddress))
      storage.set('siwxSessions', [
        ...stored().filter((s) => !isSameCaipAddress(s.caipAddress, session.caipAddress)),
        { caipAddress: session.caipAddress, message: session.message, signature: session.signature, expiresAt: created.expiresAt ?? undefined, id: created.id },
      ])
      // The one it replaces ends too: once forgotten here, nobody could prove they hold it.
      await endAtService(replaced).catch(() => {})
    },
    async getSessions(account) {
      const mine = stored().filter((s) => isAccountOf(s.caipAddress, account))
      const valid: SIWXSession[] = []
      for (const session of mine) {
        if (!session.id || (session.expiresAt !== undefined && session.expiresAt <= now())) continue
        const remote = await dataService.getSession({ id: session.id }).catch(() => undefined)
        if (remote && !remote.revoked) valid.push(session)
      }
      return valid
    },
    /** Signs the account out on that network: its sessions are forgotten here at once, then revoked at the service. */
    async revokeSession(account) {
      const all = stored()
      storage.set('siwxSessions', all.filter((s) => !isAccountOf(s.caipAddress, account)))
      await endAtService(all.filter((s) => isAccountOf(s.caipAddress, account)))
    },
    getRequired: () => required,
  }
}

