import { createSiweMessage } from 'viem/siwe'
import { createSolanaSignInMessage, type SolanaSignInChainId } from '../../shared/protocol/signInMessages/solana'
import type { CoreDataService } from '../core/createCore'
import type { WidgetStorage } from '../storage/createWidgetStorage'
import type { DefaultSiwxOptions, SIWXConfig, SIWXSession } from './siwxConfig'

const SESSION_LIFETIME_MS = 24 * 60 * 60 * 1_000

/** The public clusters by CAIP-2 id, as Sign In With Solana names them. */
const solanaClusterNames: Record<string, SolanaSignInChainId> = {
  'solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp': 'mainnet',
  'solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1': 'devnet',
  'solana:4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z': 'testnet',
}

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
  const stored = () => storage.get('siwxSessions') ?? []
  // EVM addresses are case-free; base58 ones are not.
  const sameAccount = (caipAddress: string, { accountAddress, caipNetworkId }: { accountAddress: string; caipNetworkId: string }) =>
    caipNetworkId.startsWith('eip155:') ? caipAddress.toLowerCase() === `${caipNetworkId}:${accountAddress}`.toLowerCase() : caipAddress === `${caipNetworkId}:${accountAddress}`
  return {
    async createMessage({ accountAddress, chainId, caipNetworkId }) {
      const { nonce } = await dataService.createSessionNonce()
      const fields = { address: accountAddress, domain: location.host, uri: location.origin, version: '1' as const, nonce, statement, issuedAt: new Date(now()), expirationTime: new Date(now() + expiresInMs) }
      // Sign In With Solana (CAIP-122) names the cluster; any other than the public three is the local one.
      if (caipNetworkId.startsWith('solana:')) return createSolanaSignInMessage({ ...fields, chainId: solanaClusterNames[caipNetworkId] ?? 'localnet' })
      return createSiweMessage({ ...fields, chainId })
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

