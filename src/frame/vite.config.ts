import { defineConfig } from 'vite'
import { widgetAliases } from '../../vite.aliases.ts'

/**
 * The secure frame: a page of its own, served from its own origin (the local stack serves it on `ports.frame`, with
 * `/frame-config.json` written from the stack's manifest; services/stack/startStack.ts). It imports src/shared only.
 */
export default defineConfig({
  root: import.meta.dirname,
  resolve: { alias: widgetAliases },
  build: { target: 'es2022' },
  // Pre-bundled at the dev server's start, so the first request never makes Vite reload the frame.
  optimizeDeps: {
    include: [
      '@noble/curves/abstract/modular',
      '@noble/curves/ed25519',
      '@noble/curves/secp256k1',
      '@noble/hashes/hkdf.js',
      '@noble/hashes/scrypt.js',
      '@noble/hashes/sha2.js',
      '@noble/hashes/sha3.js',
      '@scure/base',
      'shamir-secret-sharing',
      'viem',
      'viem/accounts',
      'viem/actions',
      'zod/mini',
    ],
  },
})
