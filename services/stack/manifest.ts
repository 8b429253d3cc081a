import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import type { Address } from 'viem'

/** Everything the local stack chose: the demo, the services and the tests read this one file. */
export type StackManifest = {
  version: 1
  chains: StackChain[]
  devAccounts: Address[]
  /** The local Solana chain; absent when the stack was started with `solana: false`. */
  solana?: StackSolana
  services: { api: string; projectId: string; relay: string }
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
