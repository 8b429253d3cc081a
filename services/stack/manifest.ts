import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import type { Address } from 'viem'

/** Everything the local stack chose: the demo, the services and the tests read this one file. */
export type StackManifest = {
  version: 1
  chains: StackChain[]
  devAccounts: Address[]
  services: { api: string; projectId: string; relay: string }
  demo: { url: string } | null
  /** The browser-test harness page (test/harness), when the test setup serves it. */
  harness?: { url: string }
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
