import react from '@vitejs/plugin-react'
import { fileURLToPath } from 'node:url'
import type { ChunkingContext } from 'rolldown'
import { defineConfig } from 'vite'
import { widgetAliases } from './vite.aliases.ts'
import { compactWidgetCss } from './vite.widgetCss.ts'
import { lentToWorkerModules } from './vite.workerModules.ts'

/** What the host brings: React, and for the library adapters wagmi and ethers (peer dependencies). */
const hostPackages = ['react', 'react-dom', 'wagmi', 'ethers']
const isHostImport = (id: string) => hostPackages.some((name) => id === name || id.startsWith(`${name}/`))

/**
 * Imports the adapters' sources make under one name and a host has under another: the ethers 5 adapter is written
 * against the `ethers5` alias of our dev dependencies (a host has it as `ethers`); the wagmi adapter against
 * `@wagmi/core`, which `wagmi` re-exports (npm may nest `@wagmi/core` under `wagmi` in a host, out of our reach).
 */
const hostNames: Record<string, string> = { ethers5: 'ethers', '@wagmi/core': 'wagmi' }
const coreClient = /src\/main\/core\/(createCore|createWorkerClient|createStoreMirror|pageWorker)\.ts$|node_modules\/comlink\//

/** What a page renders before the first click: `createWidget`, the provider, the buttons and the modal's shell. */
const startUpRoots = ['createWidget.ts', 'react/WidgetProvider.tsx', 'ui/ConnectButton/ConnectButton.tsx', 'ui/AccountButton/AccountButton.tsx', 'ui/NetworkButton/NetworkButton.tsx', 'ui/WidgetModal.tsx'].map(
  (path) => fileURLToPath(new URL(`./src/main/${path}`, import.meta.url)),
)

/** The start-up roots and every module they import statically, the core's client (and what only it imports) left out. */
const startUpModules = memoizeByContext((ctx) => {
  const found = new Set<string>()
  const visit = (id: string) => {
    if (found.has(id) || coreClient.test(id) || isHostImport(id)) return
    found.add(id)
    for (const next of ctx.getModuleInfo(id)?.importedIds ?? []) visit(next)
  }
  for (const root of startUpRoots) {
    if (!ctx.getModuleInfo(root)) throw new Error(`vite.lib.config.ts: the start-up module ${root} is not in the build: update startUpRoots`)
    visit(root)
  }
  return found
})

function memoizeByContext<T>(compute: (ctx: ChunkingContext) => T) {
  const computed = new WeakMap<ChunkingContext, T>()
  return (ctx: ChunkingContext) => {
    if (!computed.has(ctx)) computed.set(ctx, compute(ctx))
    return computed.get(ctx)!
  }
}

const asTheHostNamesThem = { name: 'as-the-host-names-them', enforce: 'pre' as const, resolveId: (id: string) => (id in hostNames ? { id: hostNames[id]!, external: true } : undefined) }

/**
 * The npm package: ESM entry points (the widget, and the wagmi, ethers and ethers5 adapters) sharing chunks, the host's
 * packages left to the host, everything else bundled (a site installs nothing else), the workers emitted as files.
 */
export default defineConfig({
  // Relative URLs: the worker file is found next to the package's code wherever a host's bundler puts it.
  base: './',
  plugins: [asTheHostNamesThem, react(), compactWidgetCss()],
  resolve: { alias: widgetAliases },
  // @solana/kit (in the Solana family's module) reads process.env.NODE_ENV, which no browser has: fixed at build time.
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  // A host's bundler copies or re-bundles our worker files but does not emit their own lazy chunks (viem's ccip,
  // WalletConnect's sign client): in the package each worker is one file. The chain families' clients (Solana, Bitcoin)
  // are files of their own that the core worker imports by URL, so a site without them never downloads them (see
  // src/main/core/familyModules.ts).
  worker: { format: 'es', plugins: () => [lentToWorkerModules()], rolldownOptions: { output: { codeSplitting: false } } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    target: 'es2022',
    lib: {
      entry: {
        tessera: 'src/main/index.ts',
        wagmi: 'src/main/adapters/wagmi/index.ts',
        ethers: 'src/main/adapters/ethers/index.ts',
        ethers5: 'src/main/adapters/ethers5/index.ts',
      },
      formats: ['es'],
      fileName: (_format, name) => `${name}.js`,
    },
    rollupOptions: {
      external: isHostImport,
      // Entry points are client modules for React Server Components (Next.js): a server component may import and
      // render ConnectButton; the widget itself lives on the client.
      output: {
        banner: (chunk) => (chunk.isEntry ? "'use client';" : ''),
        // What a page runs before the first click is one chunk, `start`: a site's bundler then keeps it in the page's
        // entry script. Spread over chunks that the lazily loaded code shares, it became scripts of their own in a Vite 8
        // site (rolldown/rolldown#10731): 6 scripts before the first click instead of 1, and 1.6 KB gz more.
        // The core's client is exported by the entry too but used by the widget's lazily started code: in the start-up
        // chunk a site's bundler would load it before the first frame whether the site uses it or not. It gets a chunk of
        // its own, loaded with the widget's start.
        codeSplitting: {
          groups: [
            { name: (id, ctx) => (startUpModules(ctx).has(id) ? 'start' : null), priority: 2 },
            { name: 'core', priority: 1, test: coreClient },
          ],
        },
      },
    },
  },
})
