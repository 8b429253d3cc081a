import { fileURLToPath } from 'node:url'

const source = (path: string) => fileURLToPath(new URL(path, import.meta.url))

/**
 * Module swaps every build of the widget makes (the package, the demo, the test harness):
 * - the Polkadot client never runs @polkadot/wasm-crypto's WebAssembly (it hashes in JS, `initWasm: false`): its
 *   `none` entry leaves out the ~170 KiB gz of WebAssembly the default one embeds;
 * - the WalletConnect sign client, started silent, gets a logger that keeps nothing, and only the one function of
 *   relay-auth it calls (src/worker/walletConnect/slim/: 19 kB gz less in its worker).
 */
export const widgetAliases = [
  { find: /^@polkadot\/wasm-crypto-init$/, replacement: '@polkadot/wasm-crypto-init/none' },
  { find: /^@walletconnect\/logger$/, replacement: source('./src/worker/walletConnect/slim/quietLogger.ts') },
  { find: /^@walletconnect\/relay-auth$/, replacement: source('./src/worker/walletConnect/slim/relayAuth.ts') },
]
