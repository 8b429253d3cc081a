import { createPublicClient, http, isAddressEqual, parseAbi, verifyMessage, type Address, type Hex } from 'viem'
import { parseSiweMessage, validateSiweMessage } from 'viem/siwe'
import * as z from 'zod/mini'
import type { FarcasterConfig, FarcasterCustody } from './config'
import { fetchJson, OutboundError } from './outbound'

/** The Farcaster IdRegistry on OP Mainnet. */
export const ID_REGISTRY_ADDRESS: Address = '0x00000000Fc6c5F01Fc30151999387Bb99A9f489b'
const idRegistryAbi = parseAbi(['function custodyOf(uint256 fid) view returns (address)'])

/**
 * Who holds a Farcaster id: fixed pairs in development, or the IdRegistry's `custodyOf(fid)` through an RPC.
 * @example const custodyOf = createCustodyResolver({ kind: 'idRegistry', rpcUrl: 'https://mainnet.optimism.io' })
 */
export function createCustodyResolver(custody: FarcasterCustody, { timeoutMs }: { timeoutMs: number }): (fid: number) => Promise<Address | undefined> {
  if (custody.kind === 'static') return async (fid) => custody.accounts[String(fid)]
  const client = createPublicClient({ transport: http(custody.rpcUrl, { timeout: timeoutMs, retryCount: 1 }) })
  return async (fid) => {
    const address = await client.readContract({ address: custody.address ?? ID_REGISTRY_ADDRESS, abi: idRegistryAbi, functionName: 'custodyOf', args: [BigInt(fid)] })
    return /^0x0{40}$/i.test(address) ? undefined : address
  }
}

export type SignInWithFarcasterExpectation = { domain: string; siweUri: string; nonce: string }

/**
 * Checks a Sign In With Farcaster message (EIP-4361 with Farcaster's rules) and its signature:
 * 1. it parses, says 'Farcaster Auth', version 1, chain 10, and names exactly our domain, URI and nonce;
 * 2. it is within its Not Before / Expiration Time, and was issued at most `maxAgeMs` ago;
 * 3. its only resource is `farcaster://fid/<fid>` for the fid the relay reported;
 * 4. the signature over it recovers to the message's address (viem verifyMessage);
 * 5. that address is the fid's custody address.
 * Answers the fid, or why not (for the log).
 */
export async function verifySignInWithFarcaster({
  message,
  signature,
  fid,
  expected,
  nowMs,
  maxAgeMs,
  custodyOf,
}: {
  message: string
  signature: Hex
  fid: number
  expected: SignInWithFarcasterExpectation
  nowMs: number
  maxAgeMs: number
  custodyOf: (fid: number) => Promise<Address | undefined>
}): Promise<{ ok: true; fid: number; custody: Address } | { ok: false; reason: string }> {
  const parsed = parseSiweMessage(message)
  if (!parsed.address || !parsed.domain || !parsed.uri || !parsed.nonce || !parsed.issuedAt) return { ok: false, reason: 'the message is not a complete EIP-4361 message' }
  if (parsed.statement !== 'Farcaster Auth') return { ok: false, reason: 'the statement is not "Farcaster Auth"' }
  if (parsed.version !== '1' || parsed.chainId !== 10) return { ok: false, reason: 'the version or chain id is not Farcaster\'s (1, 10)' }
  if (parsed.domain !== expected.domain) return { ok: false, reason: `the message is for domain ${parsed.domain}, not ${expected.domain}` }
  if (parsed.uri !== expected.siweUri) return { ok: false, reason: 'the message names another URI' }
  if (parsed.nonce !== expected.nonce) return { ok: false, reason: 'the nonce is not the one this sign-in was given' }
  if (!validateSiweMessage({ message: parsed, domain: expected.domain, nonce: expected.nonce, time: new Date(nowMs) })) return { ok: false, reason: 'the message is expired or not yet valid' }
  const age = nowMs - parsed.issuedAt.getTime()
  if (age > maxAgeMs || age < -60_000) return { ok: false, reason: 'the message was not issued during this sign-in' }
  if (parsed.resources?.length !== 1 || parsed.resources[0] !== `farcaster://fid/${fid}`) return { ok: false, reason: `the message is not for fid ${fid} alone` }
  const isValid = await verifyMessage({ address: parsed.address, message, signature }).catch(() => false)
  if (!isValid) return { ok: false, reason: 'the signature is not the message address\'s' }
  const custody = await custodyOf(fid)
  if (!custody || !isAddressEqual(custody, parsed.address)) return { ok: false, reason: `${parsed.address} is not the custody address of fid ${fid}` }
  return { ok: true, fid, custody }
}

const channelSchema = z.object({ channelToken: z.string().check(z.minLength(8), z.maxLength(256)), url: z.string().check(z.url(), z.maxLength(2_048)) })
const completedSchema = z.object({
  state: z.literal('completed'),
  message: z.string().check(z.maxLength(4_096)),
  signature: z.string().check(z.regex(/^0x[0-9a-fA-F]{130,2000}$/)),
  fid: z.number().check(z.int(), z.positive()),
  username: z.optional(z.string().check(z.maxLength(64))),
  displayName: z.optional(z.string().check(z.maxLength(128))),
})

/**
 * The auth service's side of a Farcaster Auth relay (relay.farcaster.xyz's API, or the local one): open a channel with
 * our nonce and domain, then read its status until the person's Farcaster client has signed.
 */
export function createFarcasterRelayClient(config: FarcasterConfig, { timeoutMs }: { timeoutMs: number }) {
  const base = config.relayUrl.replace(/\/$/, '')
  return {
    async openChannel({ nonce }: { nonce: string }) {
      const { status, json } = await fetchJson(`${base}/v1/channel`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ siweUri: config.siweUri, domain: config.domain, nonce }),
        timeoutMs,
      })
      const channel = channelSchema.safeParse(json)
      if ((status !== 200 && status !== 201) || !channel.success) throw new OutboundError(`farcaster relay: opening a channel answered ${status}`)
      return channel.data
    },
    /** The signed answer once the channel completed, or undefined while it is pending. */
    async status(channelToken: string) {
      const { status, json } = await fetchJson(`${base}/v1/channel/status`, { headers: { authorization: `Bearer ${channelToken}` }, timeoutMs })
      if (status === 202) return undefined
      const completed = completedSchema.safeParse(json)
      if (status !== 200 || !completed.success) throw new OutboundError(`farcaster relay: channel status answered ${status}${completed.success ? '' : ' without a valid signed message'}`)
      return completed.data
    },
  }
}
