import type { ServerResponse } from 'node:http'
import { fileURLToPath } from 'node:url'
import type { Plugin } from 'vite'
import type { FrameConfig } from '../../src/frame/config/frameConfig'
import type { StackManifest } from './manifest'

/** The secure frame's Vite app (its own vite.config.ts). */
export const frameRoot = fileURLToPath(new URL('../../src/frame', import.meta.url))

/**
 * The secure frame's config for the local stack: the demo project with the pages allowed to embed the frame, the auth
 * service, and the local chains the embedded wallet signs on (with its smart account where the chain has a bundler).
 */
export function localFrameConfig({ manifest, projectId, allowedOrigins }: { manifest: StackManifest; projectId: string; allowedOrigins: readonly string[] }): FrameConfig {
  return {
    projects: [{ id: projectId, allowedOrigins: [...new Set(allowedOrigins)] }],
    ...(manifest.auth && { authUrl: manifest.auth.url }),
    networks: {
      eip155: manifest.chains.map(({ chainId, name, rpcUrl, accountAbstraction: aa }) => ({
        chainId,
        name,
        rpcUrl,
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
        ...(aa && { smartAccount: { bundlerUrl: aa.bundlerUrl, factoryAddress: aa.accountFactory, entryPointAddress: aa.entryPoint, ...(aa.paymaster && { paymasterUrl: aa.paymaster.url }) } }),
      })),
      ...(manifest.solana && { solana: [{ caipNetworkId: manifest.solana.caipNetworkId, name: 'Solana Local', rpcUrl: manifest.solana.rpcUrl }] }),
    },
    // A quicker recovery-password cost than production's 2^17 would be weaker; the local stack keeps the default.
  }
}

/** Serves `/frame-config.json` (never cached) from the frame's own origin, in Vite's dev and preview servers alike. */
export function frameConfigPlugin(config: FrameConfig): Plugin {
  const body = JSON.stringify(config)
  // Returns nothing: a function returned from these hooks would be run by Vite as a post-hook.
  const serve = (server: { middlewares: { use: (path: string, handler: (req: unknown, res: ServerResponse) => void) => unknown } }): void => {
    server.middlewares.use('/frame-config.json', (_req, res) => {
      res.setHeader('content-type', 'application/json; charset=utf-8')
      res.setHeader('cache-control', 'no-store')
      res.end(body)
    })
  }
  return { name: 'tessera-frame-config', configureServer: serve, configurePreviewServer: serve }
}
