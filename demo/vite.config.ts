import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'
import { widgetAliases } from '../vite.aliases.ts'
import { compactWidgetCss } from '../vite.widgetCss.ts'
import { lentToWorkerModules } from '../vite.workerModules.ts'

/**
 * What the widget's workers import (the core's, with its Solana, Bitcoin and Polkadot clients and its review engine, and
 * WalletConnect's with its sign client). Vite's dev server finds a page's dependencies by crawling its imports, but not into
 * `new Worker(new URL(...))`: each of these would be found when first loaded (the first WalletConnect click, say), and
 * Vite would bundle it and reload the page. vite.config.test.ts keeps this list complete.
 */
export const workerDependencies = [
  '@noble/curves/secp256k1',
  '@noble/hashes/blake2.js',
  '@noble/hashes/sha2.js',
  '@noble/hashes/sha3.js',
  '@noble/hashes/utils.js',
  '@polkadot/x-ws',
  '@scure/base',
  '@solana/kit',
  '@walletconnect/sign-client',
  'bitcoinjs-lib',
  'comlink',
  'dedot',
  'dedot/codecs',
  'dedot/utils',
  'viem',
  'viem/account-abstraction',
  'viem/actions',
  'zod/mini',
  'zustand/vanilla',
]

/** The demo dApp. The local stack injects its manifest as __TESSERA_STACK__ (services/stack/startStack.ts). */
export default defineConfig({
  plugins: [react(), compactWidgetCss()],
  resolve: { alias: widgetAliases },
  worker: { format: 'es', plugins: () => [lentToWorkerModules()] },
  build: { target: 'es2022' },
  optimizeDeps: { include: workerDependencies },
})
