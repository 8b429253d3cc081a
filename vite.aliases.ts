/**
 * Module swaps every build of the widget makes (the package, the demo, the test harness). The Polkadot client never
 * runs @polkadot/wasm-crypto's WebAssembly (it hashes in JS, `initWasm: false`): its `none` entry leaves out the
 * ~170 KiB gz of WebAssembly the default one embeds.
 */
export const widgetAliases = [{ find: /^@polkadot\/wasm-crypto-init$/, replacement: '@polkadot/wasm-crypto-init/none' }]
