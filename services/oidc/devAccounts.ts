import { keccak256, toHex, type Address, type Hex } from 'viem'
import { privateKeyToAddress } from 'viem/accounts'
import { socialProviderSchema } from '../../src/shared/protocol/schemas/entities'

/** The social providers signed in with by OpenID Connect (SPEC §5's list; farcaster has its own flow). */
export const socialProviderNames = socialProviderSchema.options
export type SocialProviderName = (typeof socialProviderNames)[number]

/**
 * A person the local identity providers know. TEST-ONLY: the passwords are public by design (the login pages show
 * them); the same people exist at every local provider, each with a subject of that provider's own.
 */
export type DevUser = { id: string; email: string; name: string; password: string }

export const devUsers: readonly DevUser[] = [
  { id: 'alice', email: 'alice@tessera.test', name: 'Alice Example', password: 'alice-dev-password' },
  { id: 'bob', email: 'bob@tessera.test', name: 'Bob Example', password: 'bob-dev-password' },
]

/** The subject a local provider gives a dev user: stable, and different at every provider (as real ones are). */
export const devSubject = (provider: string, user: DevUser) => `${provider}-${user.id}-0001`

/**
 * A Farcaster account the local relay's dev client can sign in with. TEST-ONLY keys, derived from public text: the
 * custody key signs Sign In With Farcaster messages; never hold anything with it.
 */
export type DevFarcasterAccount = { fid: number; username: string; displayName: string; custodyPrivateKey: Hex; custodyAddress: Address }

const devKey = (label: string) => keccak256(toHex(`tessera-dev-farcaster-custody:${label}`))

export const devFarcasterAccounts: readonly DevFarcasterAccount[] = [
  { fid: 20_001, username: 'alice', displayName: 'Alice on Farcaster', custodyPrivateKey: devKey('alice'), custodyAddress: privateKeyToAddress(devKey('alice')) },
  { fid: 20_002, username: 'bob', displayName: 'Bob on Farcaster', custodyPrivateKey: devKey('bob'), custodyAddress: privateKeyToAddress(devKey('bob')) },
]
