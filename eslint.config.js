import js from '@eslint/js'
import globals from 'globals'
import reactHooks from 'eslint-plugin-react-hooks'
import tseslint from 'typescript-eslint'

/** Import boundaries between the runtimes (README, "Who owns what"). */
const boundary = (patterns) => ({
  'no-restricted-imports': ['error', { patterns }],
})
const forbid = (group, message) => ({ group, message })

const sharedMayNotImport = [
  forbid(['**/worker', '**/worker/**', '**/main', '**/main/**', '**/frame', '**/frame/**'],
    'src/shared is imported by every runtime and imports none of them.'),
  forbid(['react', 'react-dom', 'react/*', 'react-dom/*', 'comlink'],
    'src/shared is plain TypeScript: no React, no comlink.'),
]
const workerMayNotImport = [
  forbid(['**/main', '**/main/**', '**/frame', '**/frame/**'], 'src/worker never imports the main thread or the frame.'),
  forbid(['react', 'react-dom', 'react/*', 'react-dom/*', 'zustand/react', 'zustand/traditional'],
    'The worker has no React.'),
]
// The page reaches the workers only through src/shared/protocol and `new Worker(new URL(...))`, which is no import.
const mainMayNotImport = [
  forbid(['**/worker', '**/worker/**'], 'src/main talks to the workers through src/shared/protocol (their messages and API types) and starts them by new URL(...); it never imports worker code.'),
  forbid(['@polkadot/*'], 'The page has no @polkadot/* code (341 kB gzipped): Polkadot runs in the core worker, and extensions\' objects are typed by hand (src/main/families/polkadot/wallets/injectedWeb3.ts).'),
]
// The secure frame is a page of its own on its own origin: it shares the protocol, never the widget's or workers' code.
const frameMayNotImport = [
  forbid(['**/main', '**/main/**', '**/worker', '**/worker/**'], 'src/frame imports src/shared only: it runs on its own origin, apart from the widget.'),
  forbid(['react', 'react-dom', 'react/*', 'react-dom/*', 'comlink', 'comlink/*', 'zustand', 'zustand/*'], 'The secure frame is plain DOM: no React, comlink or zustand.'),
]
const uiMayNotImport = [
  forbid(['comlink', 'comlink/*'], 'src/main/ui reads stores through hooks; it never talks to comlink.'),
  forbid(['**/worker', '**/worker/**'], 'src/main/ui never imports worker code.'),
]

// One chain family never imports another (README, "A fifth family"): each family's files per runtime, and the names
// by which the others' files are imported.
const families = {
  eip155: { main: ['src/main/families/eip155/**'], worker: ['src/worker/families/eip155/**'], names: ['**/eip155/**'] },
  solana: { main: ['src/main/families/solana/**'], worker: ['src/worker/families/solana/**'], names: ['**/solana/**'] },
  bip122: {
    main: ['src/main/families/bip122/**'],
    worker: ['src/worker/families/bip122/**'],
    names: ['**/bip122/**', '**/bitcoin/**'],
  },
  polkadot: { main: ['src/main/families/polkadot/**'], worker: ['src/worker/families/polkadot/**'], names: ['**/polkadot/**'] },
}
const othersOf = (family) =>
  Object.entries(families)
    .filter(([name]) => name !== family)
    .map(([name, { names }]) => forbid(names, `A chain family never imports another (here ${name}'s code): what two families share lives outside both (src/shared, src/main/families/types.ts, src/worker/rpc-transport).`))
const familyBoundaries = Object.keys(families).flatMap((family) => [
  { files: families[family].main, ignores: ['**/*.test.ts', '**/*.test.tsx'], rules: boundary([...mainMayNotImport, ...othersOf(family)]) },
  { files: families[family].worker, rules: boundary([...workerMayNotImport, ...othersOf(family)]) },
])

export default tseslint.config(
  { ignores: ['node_modules', '**/dist', '.tessera', 'test-results', 'playwright-report', 'test/pack-apps', 'docs/peer-kit'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['**/*.tsx', 'src/main/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  { files: ['src/shared/**'], rules: boundary(sharedMayNotImport) },
  { files: ['src/worker/**'], rules: boundary(workerMayNotImport) },
  { files: ['src/frame/**'], rules: boundary(frameMayNotImport) },
  // Tests may check the page's side against the worker's real one (the store mirror against its publisher).
  { files: ['src/main/**'], ignores: ['**/*.test.ts', '**/*.test.tsx'], rules: boundary(mainMayNotImport) },
  { files: ['src/main/ui/**'], rules: boundary(uiMayNotImport) },
  ...familyBoundaries,
)
