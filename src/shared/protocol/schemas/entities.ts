import * as z from 'zod/mini'
import { isCaipAddress, isCaipNetworkId } from '../caip'

/** Schemas of the entities of SPEC §3, for data that crosses a trust boundary. */

export const chainNamespaceSchema = z.enum(['eip155', 'solana', 'polkadot', 'bip122'])
export const caipNetworkIdSchema = z.string().check(z.refine(isCaipNetworkId, 'Invalid CAIP-2 network id'))
export const caipAddressSchema = z.string().check(z.refine(isCaipAddress, 'Invalid CAIP-10 account id'))
export const accountTypeSchema = z.enum(['eoa', 'smartAccount', 'payment'])
export const themeModeSchema = z.enum(['light', 'dark'])
export const socialProviderSchema = z.enum(['google', 'github', 'apple', 'facebook', 'x', 'discord'])
const rpcUrlList = z.object({ http: z.array(z.string()), webSocket: z.optional(z.array(z.string())) })

export const networkSchema = z.object({
  chainNamespace: chainNamespaceSchema,
  caipNetworkId: caipNetworkIdSchema,
  id: z.union([z.number(), z.string()]),
  name: z.string().check(z.minLength(1)),
  nativeCurrency: z.object({ name: z.string(), symbol: z.string(), decimals: z.number().check(z.int(), z.nonnegative()) }),
  rpcUrls: z.object({ default: rpcUrlList, chainDefault: z.optional(rpcUrlList) }),
  blockExplorers: z.optional(z.object({ default: z.object({ name: z.string(), url: z.string() }) })),
  testnet: z.optional(z.boolean()),
  assets: z.optional(z.object({ imageId: z.optional(z.string()), imageUrl: z.optional(z.string()) })),
})

export const accountSchema = z.object({
  namespace: chainNamespaceSchema,
  address: z.string().check(z.minLength(1)),
  type: accountTypeSchema,
  publicKey: z.optional(z.string()),
  path: z.optional(z.string()),
})

export const userSchema = z.object({
  email: z.optional(z.nullable(z.string().check(z.email()))),
  address: z.string().check(z.minLength(1)),
  chainId: z.union([z.string(), z.number()]),
  accounts: z.optional(z.array(z.object({ address: z.string(), type: z.enum(['eoa', 'smartAccount']) }))),
  userName: z.optional(z.nullable(z.string())),
  smartAccountDeployed: z.optional(z.boolean()),
  preferredAccountType: z.optional(accountTypeSchema),
})

export const connectorSchema = z.object({
  id: z.string().check(z.minLength(1)),
  name: z.string(),
  imageUrl: z.optional(z.string()),
  imageId: z.optional(z.string()),
  chain: chainNamespaceSchema,
  type: z.enum(['ANNOUNCED', 'AUTH', 'MULTI_CHAIN', 'INJECTED', 'WALLET_CONNECT', 'EXTERNAL']),
  explorerId: z.optional(z.string()),
  info: z.optional(z.object({ rdns: z.optional(z.string()) })),
})

export const walletListingEntrySchema = z.object({
  id: z.string().check(z.minLength(1)),
  name: z.string().check(z.minLength(1)),
  image_id: z.optional(z.string()),
  rdns: z.optional(z.nullable(z.string())),
  chains: z.optional(z.array(caipNetworkIdSchema)),
  mobile_link: z.optional(z.nullable(z.string())),
  desktop_link: z.optional(z.nullable(z.string())),
  webapp_link: z.optional(z.nullable(z.string())),
})

const decimalString = z.string().check(z.regex(/^-?\d+(\.\d+)?$/, 'Expected a decimal string'))

export const tokenBalanceSchema = z.object({
  name: z.string(),
  symbol: z.string(),
  chainId: caipNetworkIdSchema,
  address: z.optional(caipAddressSchema),
  value: z.number(),
  price: z.number(),
  iconUrl: z.string(),
  quantity: z.object({ decimals: z.string().check(z.regex(/^\d+$/)), numeric: decimalString }),
})

export const assetSchema = z.object({
  address: z.string(),
  balance: z.string().check(z.regex(/^0x[0-9a-fA-F]*$/, 'Expected a hex string')),
  type: z.enum(['ERC20', 'NATIVE']),
  metadata: z.object({
    name: z.string(),
    symbol: z.string(),
    decimals: z.union([z.number(), z.string()]),
    price: z.optional(z.number()),
    iconUrl: z.optional(z.string()),
  }),
})

export const transferSchema = z.object({
  fungible_info: z.optional(
    z.object({
      name: z.optional(z.string()),
      symbol: z.string(),
      icon: z.optional(z.object({ url: z.string() })),
      /** Where the token lives (Zerion's shape): its contract on the entry's chain; none for the network's currency. */
      implementations: z.optional(z.array(z.object({ address: z.optional(z.nullable(z.string())) }))),
    }),
  ),
  nft_info: z.optional(
    z.object({
      name: z.optional(z.string()),
      content: z.optional(z.object({ preview: z.optional(z.object({ url: z.string() })) })),
      flags: z.optional(z.object({ is_spam: z.boolean() })),
    }),
  ),
  direction: z.optional(z.enum(['in', 'out', 'self'])),
  quantity: z.object({ numeric: decimalString }),
  value: z.optional(z.number()),
  price: z.optional(z.number()),
})

export const transactionSchema = z.object({
  id: z.string(),
  metadata: z.object({
    operationType: z.string(),
    hash: z.string(),
    minedAt: z.string(),
    sentFrom: z.string(),
    sentTo: z.string(),
    /** The names the parties registered, when the data service knows them (null or absent: none). */
    sentFromName: z.optional(z.nullable(z.string())),
    sentToName: z.optional(z.nullable(z.string())),
    status: z.string(),
    nonce: z.optional(z.number()),
    chain: caipNetworkIdSchema,
  }),
  transfers: z.array(transferSchema),
})

export const sendStateSchema = z.object({
  token: z.optional(tokenBalanceSchema),
  sendTokenAmount: z.optional(decimalString),
  receiverAddress: z.optional(z.string()),
  receiverProfileImageUrl: z.optional(z.string()),
  receiverProfileName: z.optional(z.string()),
  gasPrice: z.optional(z.custom<bigint>((value) => typeof value === 'bigint', { message: 'must be a bigint' })),
  gasPriceInUSD: z.optional(z.number()),
  networkBalanceInUSD: z.optional(z.string()),
  tokenBalances: z.array(tokenBalanceSchema),
  loading: z.boolean(),
  lastRetry: z.optional(z.number()),
})

export const notificationSchema = z.object({
  message: z.string(),
  variant: z.enum(['success', 'loading', 'error']),
  open: z.boolean(),
  autoClose: z.boolean(),
})

export type Network = z.infer<typeof networkSchema>
export type User = z.infer<typeof userSchema>
export type TokenBalance = z.infer<typeof tokenBalanceSchema>
export type Transaction = z.infer<typeof transactionSchema>
export type WalletListingEntry = z.infer<typeof walletListingEntrySchema>
