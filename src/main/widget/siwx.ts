import { createSiweMessage } from 'viem/siwe'
import type { CoreDataService } from '../core/createCore'
import type { WidgetStorage } from '../storage/createWidgetStorage'
import type { DefaultSiwxOptions, SIWXConfig, SIWXSession } from './siwxConfig'

const SESSION_LIFETIME_MS = 24 * 60 * 60 * 1_000

/**
 * The default SIWX: EIP-4361 messages (viem's createSiweMessage, parseable by the `siwe` package) carrying a nonce the
 * data service issued, sessions stored and checked by that service (/v1/sessions), remembered in browser storage.
 */
export function createDefaultSiwx({
  dataService,
  storage,
  location = globalThis.location,
  required = false,
  statement = 'Sign in with your wallet.',
  expiresInMs = SESSION_LIFETIME_MS,
  now = Date.now,
}: DefaultSiwxOptions & { dataService: CoreDataService; storage: WidgetStorage; location?: Pick<Location, 'host' | 'origin'>; now?: () => number }): SIWXConfig {
  const caip = (chainId: number, address: string) => `eip155:${chainId}:${address}`
  const stored = () => storage.get('siwxSessions') ?? []
  return {
    async createMessage({ accountAddress, chainId }) {
      const { nonce } = await dataService.createSessionNonce()
      return createSiweMessage({
        address: accountAddress,
        chainId,
        domain: location.host,
        uri: location.origin,
        version: '1',
        nonce,
        statement,
        issuedAt: new Date(now()),
        expirationTime: new Date(now() + expiresInMs),
      })
    },
    async addSession(session) {
      const created = await dataService.createSession({ message: session.message, signature: session.signature })
      storage.set('siwxSessions', [
        ...stored().filter((s) => s.caipAddress !== session.caipAddress),
        { caipAddress: session.caipAddress, message: session.message, signature: session.signature, expiresAt: created.expiresAt ?? undefined, id: created.id },
      ] as never)
    },
    async getSessions({ accountAddress, chainId }) {
      const mine = stored().filter((s) => s.caipAddress.toLowerCase() === caip(chainId, accountAddress).toLowerCase())
      const valid: SIWXSession[] = []
      for (const session of mine) {
        const id = (session as SIWXSession).id
        if (!id || (session.expiresAt !== undefined && session.expiresAt <= now())) continue
        const remote = await dataService.getSession({ id }).catch(() => undefined)
        if (remote && !remote.revoked) valid.push(session as SIWXSession)
      }
      return valid
    },
    async revokeSession({ accountAddress, chainId }) {
      storage.set('siwxSessions', stored().filter((s) => s.caipAddress.toLowerCase() !== caip(chainId, accountAddress).toLowerCase()) as never)
    },
    getRequired: () => required,
  }
}

