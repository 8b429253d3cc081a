import * as z from 'zod/mini'
import { parseOrThrow } from '../../shared/protocol/schemas/parse'
import { caipNetworkIdSchema } from '../../shared/protocol/schemas/entities'

const origin = z.string().check(
  z.refine((value) => {
    try {
      const url = new URL(value)
      return (url.protocol === 'https:' || url.protocol === 'http:') && url.origin === value
    } catch {
      return false
    }
  }, 'Expected a bare origin such as https://app.example'),
)
const httpUrl = z.string().check(z.url({ protocol: /^https?$/ }))
const address = z.string().check(z.regex(/^0x[0-9a-fA-F]{40}$/, 'Expected an address starting 0x'))

/**
 * The frame's deployment config, served as `/frame-config.json` from the frame's own origin (the stack writes it from
 * its manifest; a self-hoster puts the file beside the built frame):
 * - projects: each project id with the exact origins of the pages allowed to embed and talk to the frame;
 * - authUrl: the auth service (services/auth);
 * - networks: the chains the frame signs for, with the RPC it reads and sends through; an EVM network with
 *   `smartAccount` gives the embedded wallet an ERC-4337 account there (TesseraAccountFactory's, on EntryPoint v0.8),
 *   its operations sent through `bundlerUrl` and sponsored by `paymasterUrl` (ERC-7677) when the policy allows.
 */
export const frameConfigSchema = z.object({
  projects: z.array(z.object({ id: z.string().check(z.minLength(1)), allowedOrigins: z.array(origin).check(z.maxLength(100)) })).check(z.maxLength(1000)),
  authUrl: z.optional(httpUrl),
  networks: z.object({
    eip155: z.array(
      z.object({
        chainId: z.number().check(z.int(), z.positive()),
        name: z.string().check(z.minLength(1)),
        rpcUrl: httpUrl,
        nativeCurrency: z.object({ name: z.string(), symbol: z.string().check(z.minLength(1)), decimals: z.number().check(z.int(), z.nonnegative()) }),
        smartAccount: z.optional(z.object({ bundlerUrl: httpUrl, paymasterUrl: z.optional(httpUrl), factoryAddress: address, entryPointAddress: z.optional(address) })),
      }),
    ),
    solana: z.optional(z.array(z.object({ caipNetworkId: caipNetworkIdSchema, name: z.string().check(z.minLength(1)), rpcUrl: httpUrl }))),
  }),
  /** The recovery password's scrypt cost (default N = 2^17, r = 8, p = 1). */
  recoveryKdf: z.optional(z.object({ N: z.number().check(z.int()), r: z.number().check(z.int()), p: z.number().check(z.int()) })),
})

export type FrameConfig = z.infer<typeof frameConfigSchema>
export type FrameEvmNetwork = FrameConfig['networks']['eip155'][number]
export type FrameSolanaNetwork = NonNullable<FrameConfig['networks']['solana']>[number]

/** Reads and checks the frame's config; INVALID_MESSAGE (naming the field) when it is not one. */
export const parseFrameConfig = (value: unknown): FrameConfig => parseOrThrow(frameConfigSchema, value, 'frame config')

/**
 * Fetches `/frame-config.json` from the frame's own origin, never from the cache.
 * @example const config = await loadFrameConfig(new URL('/frame-config.json', location.href))
 */
export async function loadFrameConfig(url: URL, fetchFn: typeof fetch = fetch): Promise<FrameConfig> {
  const response = await fetchFn(url, { cache: 'no-store', credentials: 'omit' })
  if (!response.ok) throw new Error(`${url.pathname}: HTTP ${response.status}`)
  return parseFrameConfig(await response.json())
}
