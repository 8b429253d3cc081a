// Size budgets of the npm package (`npm test` runs them after `npm run build`). Measured with gzip, React and React DOM
// excluded; `npm run bench:ui` measures the same in a browser against a plain React page.

import { readdirSync, readFileSync } from 'node:fs'

/** The chunks a built chunk imports statically (`import()` excluded), each once, itself included. */
function staticClosure(file, seen = new Set()) {
  if (seen.has(file)) return seen
  seen.add(file)
  for (const [, next] of readFileSync(`dist/${file}`, 'utf8').matchAll(/(?:from|import)\s*"\.\/([\w.-]+\.js)"/g)) staticClosure(next, seen)
  return seen
}
const builtChunk = (pattern) => readdirSync('dist').find((file) => pattern.test(file))

/**
 * The modal as a visitor fetches it: its chunk and every chunk it imports that the page does not already hold (the
 * entry, and the widget's start and mount, loaded after the first frame). A view that loads later (Swap, Buy) may share
 * modules with the modal, and the bundler then moves them to a chunk of their own: they still count here.
 */
function modalChunks() {
  const modal = builtChunk(/^Modal-[\w-]+\.js$/)
  if (!modal) return ['dist/Modal-*.js']
  const held = new Set(['tessera.js', builtChunk(/^startWidget-[\w-]+\.js$/), builtChunk(/^mountWidget-[\w-]+\.js$/)].filter(Boolean).flatMap((file) => [...staticClosure(file)]))
  return [...staticClosure(modal)].filter((file) => !held.has(file)).map((file) => `dist/${file}`)
}

/** Code behind `import()` loads later (the modal, features, WalletConnect): kept out of the first-click budget. */
const lazyImportsStayLazy = (config) => ({
  ...config,
  format: 'esm',
  plugins: [
    ...(config.plugins ?? []),
    { name: 'lazy', setup: (build) => build.onResolve({ filter: /.*/ }, (args) => (args.kind === 'dynamic-import' ? { path: args.path, external: true } : undefined)) },
  ],
})

export default [
  {
    name: 'page JS before the first click (React excluded)',
    path: 'dist/tessera.js',
    import: '{ createWidget, WidgetProvider, ConnectButton, AccountButton, NetworkButton, WidgetModal }',
    ignore: ['react', 'react-dom'],
    modifyEsbuildConfig: lazyImportsStayLazy,
    gzip: true,
    // 32.9 kB until the widget started after the first frame (its config check, core client and controllers load on
    // idle): 7.7 kB since.
    limit: '10 KiB',
  },
  {
    name: 'the core worker (EVM; the other families load as modules of their own)',
    path: 'dist/assets/worker-*.js',
    disablePlugins: ['@size-limit/esbuild'],
    gzip: true,
    // 66.2 kB until it lent its modules the error table, the RPC transport and zod's builders (issue 37,
    // src/worker/moduleHost/lendToModules.ts): 70.8 kB since, and each module lost more than that.
    limit: '75 KiB',
  },
  {
    name: "the Solana family's worker module (only with a Solana network)",
    path: 'dist/assets/solanaFamily-*.js',
    disablePlugins: ['@size-limit/esbuild'],
    gzip: true,
    // 23 kB before the transaction review (issue #36: instruction layouts, lookup tables, simulation): 28.4 kB since;
    // 21.8 kB since it borrows the core worker's error table and RPC transport (issue 37).
    limit: '23 KiB',
  },
  {
    name: "the Bitcoin family's worker module (only with a Bitcoin network)",
    path: 'dist/assets/bitcoinFamily-*.js',
    disablePlugins: ['@size-limit/esbuild'],
    gzip: true,
    // 74.1 kB until one copy of the noble hashes and the core's error table, transport and zod (issue 37): 56.9 kB.
    limit: '58 KiB',
  },
  {
    // Decoding, ERC-7730 descriptors and eth_simulateV1 (issue #36): loaded by the worker at the first review.
    name: "the review engine's worker module (at the first review of a request)",
    path: 'dist/assets/reviewModule-*.js',
    disablePlugins: ['@size-limit/esbuild'],
    gzip: true,
    // 71.1 kB until it borrowed the core worker's error table and zod (issue 37): 55.9 kB.
    limit: '57 KiB',
  },
  {
    // dedot's legacy client with its metadata decoding: 194 kB on @polkadot/api until issue 37, 60.5 kB on dedot, 49.5 kB
    // borrowing the core worker's error table and zod.
    name: "the Polkadot family's worker module (only with a Polkadot network)",
    path: 'dist/assets/polkadotFamily-*.js',
    disablePlugins: ['@size-limit/esbuild'],
    gzip: true,
    limit: '50 KiB',
  },
  {
    // 30 KiB until the views gained their icons, the token picker and the Activity rows (issue 15, 31.2 kB), then the
    // e-mail login views (issue 18, 32.8 kB); 36 KiB since the views' CSS moved here from the first-click CSS (issue 19);
    // 36.1 KiB with Swap's row, its lazy entry and its error sentences (issue 31: the view itself is a chunk of its own)
    // and the amount field Send and Swap share (36.90 kB); 36.2 KiB with the embedded wallet's account-type row (issue 32:
    // its lazy entry and the state it reads; the row and its words are a chunk of their own) and the batch-failure
    // sentence in French (37.06 kB); 36.4 KiB with the chain signed into a name's registration (37.15 kB). Since issue
    // 33 the modal counts every chunk it imports that the page does not already hold (see modalChunks): with Buy's lazy
    // view sharing the catalogues and Alert, the bundler moved them to a chunk of their own, and the modal's file alone
    // fell to 28.7 kB while a visitor fetched more. Measured so, with Buy's row and its words: 47.08 kB; 48.3 kB with
    // @noble/hashes 1.8 for the EIP-55 checksum (issue 37: the one version every bundle shares; 2.x's keccak was smaller).
    // 42.3 kB once the French words moved to chunks of their own, loaded only for a visitor in French (session 19).
    // 38.7 kB once the QR encoder (uqr) loads with the first QR code, not with the modal (session 24). 40.47 kB with
    // Account's round actions and foot, the social rows' icon places (their marks are a chunk of their own) and
    // Activity's Minted rows (session 33). 40.77 kB with Activity's token images by contract and Connect's line of social
    // marks (session 34).
    name: 'the modal and its views (prefetched on idle or hover)',
    path: modalChunks(),
    disablePlugins: ['@size-limit/esbuild'],
    gzip: true,
    limit: '40 KiB',
  },
  {
    // The Swap view, its controller and its words: loaded on the first visit to Swap, never with the modal (issue 31).
    name: 'Swap: its view and controller (on first use only)',
    // Since the headless hooks (issue 36) the controller and the form's model are chunks of their own, shared by the view
    // and useSwap: all three count (7.9 kB in one chunk before, 9.2 kB in three).
    path: ['dist/SwapView-*.js', 'dist/swapModel-*.js', 'dist/useSwapFormModel-*.js'],
    disablePlugins: ['@size-limit/esbuild'],
    gzip: true,
    limit: '9.5 KiB',
  },
  {
    // The Buy view, its controller and its words: loaded on the first visit to Buy, never with the modal (issue 33).
    name: 'Buy: its view and controller (on first use only)',
    // Likewise shared with useBuy since issue 36 (5.8 kB in one chunk before, 6.8 kB in three).
    path: ['dist/BuyView-*.js', 'dist/buyModel-*.js', 'dist/useBuyFormModel-*.js'],
    disablePlugins: ['@size-limit/esbuild'],
    gzip: true,
    limit: '7 KiB',
  },
  {
    // The review before the wallet asks (issue 36): EVM calls, typed data, Solana instructions and Bitcoin PSBTs laid
    // out, with its words in every locale then (7.8 kB); loaded with the first request reviewed, never with the modal.
    // 8.5 kB with personal_sign's message and sign-in (session 19); 8.8 kB with eth_sign's blind signature and
    // eth_signTransaction (session 23); 9.0 kB with legacy typed data (eth_signTypedData_v1), 9.8 kB with ERC-7715
    // permissions, 7.9 kB once its French words moved to the French locale's chunks (reviewFr.ts, loaded with the
    // locale; session 24); 9.1 kB with the bundled calls in words: what each does and what each argument means
    // (callWords.ts, session 33); 10.0 kB with each balance change's token icon and worth in dollars, and the fee's
    // (session 34).
    name: 'Review: its view and words (on the first request reviewed)',
    path: 'dist/ReviewView-*.js',
    disablePlugins: ['@size-limit/esbuild'],
    gzip: true,
    limit: '10 KiB',
  },
  {
    name: 'WalletConnect: its worker and the sign client (on first use only)',
    path: 'dist/assets/walletConnectWorker-*.js',
    disablePlugins: ['@size-limit/esbuild'],
    gzip: true,
    // 154 kB until issue 37: one copy of the noble curves and hashes (140 kB), then a logger that keeps nothing and
    // relay-auth's four functions (src/worker/walletConnect/slim/): 125.8 kB.
    limit: '125 KiB',
  },
  {
    // Issue 37's target: 600 KiB for every chunk the package can load (four families, WalletConnect, the review, Swap,
    // Buy, the adapters). 779 KiB in session 17; 571 KiB since (dedot for Polkadot, modules borrowing the core's code,
    // one copy of the noble libraries, a slimmer WalletConnect worker).
    name: 'every chunk the package can load, together',
    path: ['dist/*.js', 'dist/assets/*.js'],
    disablePlugins: ['@size-limit/esbuild'],
    gzip: true,
    limit: '600 KiB',
  },
]
