import react from '@vitejs/plugin-react'
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
        // The core's client is exported by the entry and used by the widget's lazily started code: in the entry chunk a
        // site's bundler would load it before the first frame whether the site uses it or not. In a chunk of its own it
        // loads with the widget's start. What it shares with the page's start-up (zustand, whenPageIdle, the preload
        // helper) gets a chunk of its own first, so that it is not pulled in with it.
        codeSplitting: {
          groups: [
            { name: 'start', priority: 2, test: /node_modules\/zustand\/|src\/main\/core\/whenPageIdle\.ts$|src\/shared\/protocol\/core\/coreState\.ts$|preload-helper/ },
            { name: 'core', priority: 1, test: /src\/main\/core\/(createCore|createWorkerClient|createStoreMirror|pageWorker)\.ts$|node_modules\/comlink\// },
          ],
        },
      },
    },
  },
})
