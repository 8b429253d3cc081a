import { parseCaipNetworkId } from '../../shared/protocol/caip'
import type { CoreDataService } from '../core/createCore'
import type { SignInMessageFields } from '../namespaces/types'
import type { WidgetStorage } from '../storage/createWidgetStorage'
import type { DefaultSiwxOptions, SIWXConfig, SIWXSession } from './siwxConfig'

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
  // EVM addresses are case-free; base58 ones are not.
  const sameAccount = (caipAddress: string, { accountAddress, caipNetworkId }: { accountAddress: string; caipNetworkId: string }) =>
    parseCaipNetworkId(caipNetworkId)?.namespace === 'eip155' ? caipAddress.toLowerCase() === `${caipNetworkId}:${accountAddress}`.toLowerCase() : caipAddress === `${caipNetworkId}:${accountAddress}`
  return {
    async createMessage({ accountAddress, caipNetworkId }) {
      const { nonce } = await dataService.createSessionNonce()
      return createSignInMessage({ address: accountAddress, caipNetworkId, domain: location.host, uri: location.origin, nonce, statement, issuedAt: new Date(now()), expirationTime: new Date(now() + expiresInMs) })
    },
    async addSession(session) {
      const created = await dataService.createSession({ message: session.message, signature: session.signature })
      storage.set('siwxSessions', [
        ...stored().filter((s) => s.caipAddress !== session.caipAddress),
        { caipAddress: session.caipAddress, message: session.message, signature: session.signature, expiresAt: created.expiresAt ?? undefined, id: created.id },
      ] as never)
    },
    async getSessions(account) {
      const mine = stored().filter((s) => sameAccount(s.caipAddress, account))
      const valid: SIWXSession[] = []
      for (const session of mine) {
        const id = (session as SIWXSession).id
        if (!id || (session.expiresAt !== undefined && session.expiresAt <= now())) continue
        const remote = await dataService.getSession({ id }).catch(() => undefined)
        if (remote && !remote.revoked) valid.push(session as SIWXSession)
      }
      return valid
    },
    async revokeSession(account) {
      storage.set('siwxSessions', stored().filter((s) => !sameAccount(s.caipAddress, account)) as never)
    },
    getRequired: () => required,
  }
}

