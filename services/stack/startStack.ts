import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { PluginOption } from 'vite'
import { keccak256, stringToHex, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { startAnvil } from '../chain/anvil'
import { deployAccountAbstraction } from '../chain/accountAbstraction'
import { startBundler } from '../chain/bundler'
import { deployPaymaster } from '../paymaster/deployPaymaster'
import { startPaymaster } from '../paymaster/server'
import { seedChain } from '../chain/seedChain'
import { openDatabase } from '../api/db/createDatabase'
import { loadWallets } from '../api/routes/wallets'
import { startApiServer } from '../api/server'
import { createRelay } from '../relay/createRelay'
import { startLocalAuth } from '../auth/startLocalAuth'
import { frameConfigPlugin, frameRoot, localFrameConfig } from './frameApp'
import type { StackChain, StackManifest } from './manifest'
import type { StackPorts } from './ports'
import { startLocalBitcoin } from './startLocalBitcoin'
import { startLocalOnramp } from './startLocalOnramp'
import { startLocalPolkadot } from './startLocalPolkadot'
import { startLocalSolana } from './startLocalSolana'

export type DemoMode = 'dev' | 'preview' | 'none'

export type StartStackParameters = {
  ports: StackPorts
  host?: string
  /** 'dev' serves the demo with Vite's dev server, 'preview' builds it and serves the build. */
  demo?: DemoMode
  /** `false` leaves out the local Solana chain (and `solana` from the manifest). */
  solana?: boolean
  /** `false` leaves out the local Bitcoin chain (and `bitcoin` from the manifest). */
  bitcoin?: boolean
  /** `false` leaves out the local Polkadot chain (chopsticks; and `polkadot` from the manifest). */
  polkadot?: boolean
  /** `false` leaves out the auth service, its inbox and local identity providers (and `auth` from the manifest). */
  auth?: boolean
  manifestPath?: string
  blockTimeSeconds?: number
  /** Where the data service keeps its database (PGlite files); in memory without one. DATABASE_URL wins. */
  dataDir?: string
  /** More browser origins the demo project accepts (the test harness, say). */
  extraOrigins?: readonly string[]
  /** The gas the paymaster sponsors per smart account per UTC day (5,000,000 by default: about ten sends). */
  sponsoredGasPerAccountPerDay?: number
  log?: (line: string) => void
  /**
   * Stops the start (Ctrl-C while `npm start` is starting): at its next step it stops what it has started and rejects
   * with the signal's reason, instead of starting the rest first.
   */
  signal?: AbortSignal
}

/**
 * The local paymaster service's signer (the key its TesseraPaymaster trusts). TEST-ONLY, derivable by anyone: a real
 * deployment reads its own from configuration (services/paymaster/main.ts, TESSERA_PAYMASTER_SIGNER_KEY).
 */
export const localPaymasterSignerKey: Hex = keccak256(stringToHex('tessera local paymaster signer'))

/** The project id the demo and the tests use. */
export const DEMO_PROJECT_ID = 'tessera-demo'

/** Demo prices in USD for the data service's balance endpoint. */
const demoPrices = { ETH: 3_000, TUSD: 1, TSR: 2.5 }

export type Stack = { manifest: StackManifest; stop: () => Promise<void> }

const demoRoot = fileURLToPath(new URL('../../demo', import.meta.url))

const localChains = [
  { key: 'anvil', chainId: 31337, name: 'Tessera Local' },
  { key: 'anvil2', chainId: 31338, name: 'Tessera Local 2' },
] as const

/**
 * Starts both anvil chains (seeded with Multicall3, the demo tokens and Uniswap V2 with its pools; ERC-4337's EntryPoint,
 * the embedded wallet's account factory and the Alto bundler on the first), the local Solana chain (SOL and TUSD
 * for its dev keys), the local Bitcoin regtest chain (mature coins for its dev keys), the local Polkadot chain
 * (chopsticks, //Alice … //Ferdie funded), the data service and the demo
 * page, writes the manifest, and returns a stop() that ends every process it started.
 */
export async function startStack({
  ports,
  host = '127.0.0.1',
  demo = 'dev',
  solana: shouldStartSolana = true,
  bitcoin: shouldStartBitcoin = true,
  polkadot: shouldStartPolkadot = true,
  auth: shouldStartAuth = true,
  manifestPath,
  blockTimeSeconds = 2,
  dataDir,
  extraOrigins = [],
  sponsoredGasPerAccountPerDay = 5_000_000,
  log = () => {},
  signal,
}: StartStackParameters): Promise<Stack> {
  const stops: (() => Promise<void>)[] = []
  const stop = async () => {
    for (const stopOne of stops.splice(0).reverse()) await stopOne().catch(() => {})
  }
  /** Keeps the stop of a part just started; a start stopped meanwhile (`signal`) ends here, and stops it with the rest. */
  const keepStop = (stopOne: () => Promise<void>) => {
    stops.push(stopOne)
    signal?.throwIfAborted()
  }
  try {
    signal?.throwIfAborted()
    // The Polkadot chain is a process of its own that takes seconds to build its genesis: it starts first and in
    // parallel with the rest (its stop, registered first, waits for its start and runs last).
    const polkadotStarting = shouldStartPolkadot ? startLocalPolkadot({ host, port: ports.polkadot }) : undefined
    if (polkadotStarting) {
      polkadotStarting.catch(() => {}) // awaited below; a failure there fails the stack
      keepStop(async () => (await polkadotStarting.catch(() => undefined))?.stop())
    }
    const chains: StackChain[] = []
    let devAccounts: StackManifest['devAccounts'] = []
    for (const { key, chainId, name } of localChains) {
      const anvil = await startAnvil({ host, port: ports[key], chainId })
      keepStop(anvil.stop)
      const seeded = await seedChain({ rpcUrl: anvil.rpcUrl, blockTimeSeconds })
      devAccounts = seeded.devAccounts
      chains.push({
        chainId,
        caipNetworkId: `eip155:${chainId}`,
        name,
        rpcUrl: anvil.rpcUrl,
        blockTimeSeconds,
        multicall3: seeded.multicall3,
        tokens: seeded.tokens,
        uniswapV2: seeded.uniswapV2,
      })
      log(`anvil ${name} (chain ${chainId}) on ${anvil.rpcUrl}`)
    }
    // ERC-4337 on the first chain: the EntryPoint and the account factory, the bundler, our paymaster.
    const [smartChain] = chains
    if (smartChain) {
      const { entryPoint08, tesseraAccountFactory } = await deployAccountAbstraction({ rpcUrl: smartChain.rpcUrl })
      const bundler = await startBundler({ rpcUrl: smartChain.rpcUrl, host, port: ports.bundler, entryPoints: [entryPoint08] })
      keepStop(bundler.stop)
      log(`ERC-4337 bundler (Alto) for ${smartChain.name} on ${bundler.url}`)
      // The embedded wallet's operations come from the secure frame's page, the sites' own from theirs.
      const frameOrigin = `http://${host}:${ports.frame}`
      const demoOrigin = demo === 'none' ? [] : [`http://${host}:${ports.demo}`]
      const signer = privateKeyToAccount(localPaymasterSignerKey)
      const { address: paymasterAddress } = await deployPaymaster({ rpcUrl: smartChain.rpcUrl, signerAddress: signer.address })
      const paymaster = await startPaymaster({
        host,
        port: ports.paymaster,
        signerKey: localPaymasterSignerKey,
        chains: [{ chainId: smartChain.chainId, rpcUrl: smartChain.rpcUrl, paymasterAddress, entryPointAddress: entryPoint08 }],
        projects: [{ id: DEMO_PROJECT_ID, sponsorName: 'Tessera demo', allowedOrigins: [...new Set([frameOrigin, ...demoOrigin, ...extraOrigins])], chainIds: [smartChain.chainId], dailyGasPerAccount: sponsoredGasPerAccountPerDay }],
        log: (line) => log(line),
      })
      keepStop(paymaster.stop)
      smartChain.accountAbstraction = { entryPoint: entryPoint08, accountFactory: tesseraAccountFactory, bundlerUrl: bundler.url, paymaster: { url: paymaster.url, address: paymasterAddress } }
      log(`paymaster service on ${paymaster.url} (TesseraPaymaster ${paymasterAddress}, ${sponsoredGasPerAccountPerDay.toLocaleString('en')} gas per account per day)`)
    }

    let solana: StackManifest['solana']
    if (shouldStartSolana) {
      const local = await startLocalSolana({ host, port: ports.solana, wsPort: ports.solanaWs })
      keepStop(local.stop)
      solana = local.manifest
      log(`solana local on ${solana.rpcUrl} (PubSub ${solana.wsUrl}, ${solana.caipNetworkId})`)
    }

    let bitcoin: StackManifest['bitcoin']
    if (shouldStartBitcoin) {
      const local = await startLocalBitcoin({ host, port: ports.bitcoin, blockTimeSeconds })
      keepStop(local.stop)
      bitcoin = local.manifest
      log(`bitcoin regtest on ${bitcoin.apiUrl} (Esplora API, ${bitcoin.caipNetworkId})`)
    }

    let polkadot: StackManifest['polkadot']
    if (polkadotStarting) {
      polkadot = (await polkadotStarting).manifest
      log(`polkadot local (chopsticks, ${polkadot.chainName} runtime) on ${polkadot.rpcUrl} (${polkadot.caipNetworkId})`)
    }

    const demoUrl = demo === 'none' ? null : `http://${host}:${ports.demo}`
    // Buy: the sandbox provider pays on the first EVM chain (and Solana), and reports to the data service.
    const onramp = smartChain ? await startLocalOnramp({ host, port: ports.onramp, apiUrl: `http://${host}:${ports.api}`, chain: smartChain, solana, prices: demoPrices, log }) : undefined
    if (onramp) keepStop(onramp.stop)
    const db = await openDatabase({ databaseUrl: process.env.DATABASE_URL, dataDir })
    const api = await startApiServer({
      host,
      port: ports.api,
      db,
      projects: [{ id: DEMO_PROJECT_ID, allowedOrigins: [...(demoUrl ? [demoUrl] : []), ...extraOrigins] }],
      chains: chains.map((chain) => ({
        chainId: chain.chainId,
        name: chain.name,
        rpcUrl: chain.rpcUrl,
        multicall3: chain.multicall3,
        nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
        tokens: chain.tokens,
        swap: { kind: 'uniswapV2', name: 'Uniswap V2', router: chain.uniswapV2.router, factory: chain.uniswapV2.factory, wrappedNative: chain.uniswapV2.weth },
      })),
      prices: demoPrices,
      wallets: loadWallets(),
      ...(onramp && { onramp: { providers: onramp.providers } }),
      // Sign In With Solana says `Chain ID: localnet`; sessions for it are on the local chain's CAIP-2 reference.
      ...(solana ? { solanaLocalnetReference: solana.caipNetworkId.slice('solana:'.length) } : {}),
    }).catch(async (error: unknown) => {
      await db.close()
      throw error
    })
    keepStop(api.stop)
    log(`data service on ${api.url} (${db.kind}${db.kind === 'pglite' ? `, ${dataDir ?? 'in memory'}` : ''})`)

    const relay = createRelay({ host, port: ports.relay })
    await relay.ready
    keepStop(relay.close)
    log(`WalletConnect relay on ${relay.url}`)

    let auth: StackManifest['auth']
    if (shouldStartAuth) {
      // Same database as the data service (stopped before it: stops run in reverse).
      const local = await startLocalAuth({ host, ports, db, projectIds: [DEMO_PROJECT_ID], log })
      keepStop(local.stop)
      auth = local.manifest
    }

    const manifest: StackManifest = {
      version: 1,
      chains,
      devAccounts,
      ...(solana ? { solana } : {}),
      ...(bitcoin ? { bitcoin } : {}),
      ...(polkadot ? { polkadot } : {}),
      services: { api: api.url, projectId: DEMO_PROJECT_ID, relay: relay.url },
      ...(onramp && { onramp: { url: onramp.url, providers: onramp.providers.map(({ id, name }) => ({ id, name })) } }),
      ...(auth ? { auth } : {}),
      demo: demoUrl ? { url: demoUrl } : null,
    }
    if (manifestPath) {
      mkdirSync(dirname(manifestPath), { recursive: true })
      writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`)
      keepStop(async () => rmSync(manifestPath, { force: true }))
    }

    if (demo !== 'none') {
      // The secure frame of e-mail and social login, on its own origin (the auth service answers it only).
      if (auth) {
        const frameConfig = localFrameConfig({ manifest, projectId: DEMO_PROJECT_ID, allowedOrigins: [...(demoUrl ? [demoUrl] : []), ...extraOrigins] })
        const stopFrame = await serveViteApp({ root: frameRoot, mode: demo, host, port: ports.frame, manifest, plugins: [frameConfigPlugin(frameConfig)] })
        keepStop(stopFrame)
        log(`secure frame on ${auth.frameOrigin}`)
      }
      const stopDemo = await serveViteApp({ root: demoRoot, mode: demo, host, port: ports.demo, manifest })
      keepStop(stopDemo)
      log(`demo page on ${demoUrl}`)
    }
    return { manifest, stop }
  } catch (error) {
    await stop()
    throw error
  }
}

const repoRoot = fileURLToPath(new URL('../..', import.meta.url))

/**
 * Where a Vite app keeps its pre-bundled dependencies: a folder per app under `TESSERA_VITE_CACHE_DIR` (by default
 * node_modules/.vite). Vite's default is one folder for every app, and two dev servers side by side (the demo's and the
 * frame's under `npm start`) then overwrite each other's bundles: the other one answers 504 "Outdated Optimize Dep".
 */
export function viteCacheDir(root: string, env: NodeJS.ProcessEnv = process.env) {
  const app = relative(repoRoot, root).split(sep).join('-') || 'root'
  return join(env.TESSERA_VITE_CACHE_DIR || join(repoRoot, 'node_modules', '.vite'), app)
}

/**
 * Serves a Vite app (the demo, the secure frame, or a test harness) with the stack's manifest injected as __TESSERA_STACK__:
 * 'dev' with Vite's dev server, 'preview' built and served from its build; `plugins` join the app's own. Resolves to its stop().
 */
export async function serveViteApp({ root, mode, host, port, manifest, plugins = [] }: { root: string; mode: 'dev' | 'preview'; host: string; port: number; manifest: StackManifest; plugins?: PluginOption[] }) {
  const vite = await import('vite')
  const inline = {
    configFile: `${root}/vite.config.ts`,
    root,
    cacheDir: viteCacheDir(root),
    plugins,
    logLevel: 'warn' as const,
    define: { __TESSERA_STACK__: JSON.stringify(manifest) },
    server: { host, port, strictPort: true },
    preview: { host, port, strictPort: true },
  }
  if (mode === 'dev') {
    const server = await vite.createServer(inline)
    await server.listen()
    return () => server.close()
  }
  // A build folder per server, so two stacks (two test runs, or `npm start` beside a test run) never empty each other's.
  const outDir = mkdtempSync(join(tmpdir(), 'tessera-app-'))
  try {
    await vite.build({ ...inline, build: { outDir, emptyOutDir: true } })
    const server = await vite.preview({ ...inline, build: { outDir } })
    return async () => {
      await new Promise<void>((resolve) => server.httpServer.close(() => resolve()))
      rmSync(outDir, { recursive: true, force: true })
    }
  } catch (error) {
    rmSync(outDir, { recursive: true, force: true })
    throw error
  }
}
