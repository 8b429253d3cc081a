import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import type { Address } from 'viem'
import type { StackAuth } from '../auth/startLocalAuth'
import type { UniswapV2Deployment } from '../chain/uniswapV2'

/** Everything the local stack chose: the demo, the services and the tests read this one file. */
export type StackManifest = {
  version: 1
  chains: StackChain[]
  devAccounts: Address[]
  /** The local Solana chain; absent when the stack was started with `solana: false`. */
  solana?: StackSolana
  /** The local Bitcoin chain (bcoin regtest); absent when the stack was started with `bitcoin: false`. */
  bitcoin?: StackBitcoin
  /** The local Polkadot-SDK chain (chopsticks); absent when the stack was started with `polkadot: false`. */
  polkadot?: StackPolkadot
  services: { api: string; projectId: string; relay: string }
  /** The on-ramp sandbox (services/onramp): its origin, where its checkout page opens; absent without a local chain. */
  onramp?: { url: string; providers: { id: string; name: string }[] }
  /** E-mail and social sign-in: the auth service, its inbox and local providers; absent when started with `auth: false`. */
  auth?: StackAuth
  demo: { url: string } | null
  /** The browser-test harness page (test/harness), when the test setup serves it. */
  harness?: { url: string }
  /** Where the packed-package tests serve their host apps (one at a time): an origin the data service accepts. */
  hostApp?: { url: string; port: number }
}

export type StackChain = {
  chainId: number
  caipNetworkId: `eip155:${number}`
  name: string
  rpcUrl: string
  blockTimeSeconds: number | null
  multicall3: Address
  tokens: { address: Address; name: string; symbol: string; decimals: number }[]
  /**
   * Uniswap V2 from its published artifacts (services/chain/uniswapV2.ts): WETH9, the factory, Router02, and the pools
   * seeded by the liquidity provider (ETH/TUSD, ETH/TSR, TUSD/TSR at the demo prices).
   */
  uniswapV2: UniswapV2Deployment
  /**
   * ERC-4337 on this chain (the first local chain only): EntryPoint v0.8, the embedded wallet's account factory, the
   * Alto bundler, and our paymaster service when it runs.
   */
  accountAbstraction?: StackAccountAbstraction
}

export type StackAccountAbstraction = {
  entryPoint: Address
  /** TesseraAccountFactory: the embedded wallet's smart account (SimpleAccount v0.8 with ERC-1271). */
  accountFactory: Address
  bundlerUrl: string
  paymaster?: { url: string; address: Address }
}

export type StackSolana = {
  /** `solana:` + the first 32 characters of the chain's genesis hash (CAIP-2), fixed across starts. */
  caipNetworkId: `solana:${string}`
  rpcUrl: string
  /** PubSub (accountSubscribe, signatureSubscribe, …). */
  wsUrl: string
  /** base58 addresses, 1,000 SOL and 1,000,000 TUSD each. */
  devAccounts: string[]
  /** The demo SPL token (Token program); dev account 0 is its mint authority. */
  mint: { address: string; symbol: string; decimals: number }
}

export type StackBitcoin = {
  /** `bip122:` + the first 32 hex characters of the regtest genesis block hash (CAIP-2), fixed across starts. */
  caipNetworkId: `bip122:${string}`
  /** Esplora-style REST: /blocks/tip/height, /address/:a, /address/:a/utxo, /address/:a/txs, /tx/:id, POST /tx, /fee-estimates. */
  apiUrl: string
  /** Seconds between mined blocks; null when blocks are mined only on demand. */
  blockTimeSeconds: number | null
  /** The BIP39 phrase of the dev accounts (anvil's): payment on BIP84 m/84'/1'/0'/0/i, ordinals on BIP86 m/86'/1'/0'/0/i. */
  mnemonic: string
  /**
   * Each with mature coinbase coins on its payment address. TEST-ONLY keys, public by design: the private keys and
   * WIFs are here because the dev wallet signs with them. Never send real coins to them.
   */
  devAccounts: { payment: StackBitcoinKey; ordinals: StackBitcoinKey }[]
}

export type StackBitcoinKey = {
  /** `bcrt1q…` (P2WPKH) for payment, `bcrt1p…` (P2TR, key path) for ordinals. */
  address: string
  /** Hex: 33-byte compressed key for payment, 32-byte x-only internal key for ordinals. */
  publicKey: string
  /** Hex, 32 bytes; for ordinals the untweaked key (sign with its BIP86 tweak). Test-only. */
  privateKey: string
  /** The same private key in wallet import format (regtest). Test-only. */
  wif: string
  derivationPath: string
}

export type StackPolkadot = {
  /** `polkadot:` + the first 32 hex characters of the genesis hash (CAIP-2), fixed across starts. */
  caipNetworkId: `polkadot:${string}`
  /** JSON-RPC over WebSocket (what @polkadot/api and extensions speak). */
  rpcUrl: string
  /** The same JSON-RPC over HTTP POST, without subscriptions. */
  httpUrl: string
  genesisHash: `0x${string}`
  /** What the chain calls itself (system_chain; chopsticks answers the spec's id, `asset-hub-rococo`). */
  chainName: string
  /** The runtime's SS58 prefix: its addresses' format. */
  ss58Prefix: number
  token: { symbol: string; decimals: number }
  /** Planck (decimal string): an account holding less is removed, so a first transfer to an account sends at least this. */
  existentialDeposit: string
  /** A block is built for each transaction, and is final at once. */
  blockBuildMode: 'instant'
  /**
   * //Alice, //Bob, //Charlie, //Dave, //Eve, //Ferdie (sr25519), each holding `fundedPlanck`. TEST-ONLY keys, public by
   * design: the dev extension signs with them by their secret URI.
   */
  devAccounts: { name: string; uri: string; address: string; publicKey: `0x${string}` }[]
  /** Planck (decimal string) each dev account held at start. */
  fundedPlanck: string
}

export const defaultManifestPath = resolve('.tessera', 'stack.json')

/** Reads the manifest written by `npm start` or the test setup (TESSERA_MANIFEST overrides the path). */
export function readManifest(path = process.env.TESSERA_MANIFEST ?? defaultManifestPath): StackManifest {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch {
    throw new Error(`No stack manifest at ${path}: start the local stack with \`npm start\` first.`)
  }
  const manifest = JSON.parse(text) as StackManifest
  if (manifest.version !== 1) throw new Error(`Stack manifest at ${path} has version ${String(manifest.version)}, expected 1.`)
  return manifest
}
