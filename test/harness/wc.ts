import { observeLongTasks } from './bench'
import { pairAndSign } from './wcPairing'

export type WcBenchResult = { mode: 'main' | 'worker'; mainThreadTbtMs: number; longTasks: number; longestTaskMs: number; uriMs: number; wallMs: number }

/** Main-thread blocking while the WalletConnect client loads, pairs and carries one request (`npm run bench:wc`). */
async function run(mode: 'main' | 'worker', relayUrl: string): Promise<WcBenchResult> {
  const stop = observeLongTasks()
  const started = performance.now()
  let uriMs = 0
  const onUri = (uri: string) => {
    uriMs = performance.now() - started
    wcBench.uri = uri
  }
  await pairAndSign(mode, relayUrl, onUri)
  const wallMs = performance.now() - started
  const durations = await stop()
  return {
    mode,
    mainThreadTbtMs: Math.round(durations.reduce((sum, d) => sum + Math.max(0, d - 50), 0)),
    longTasks: durations.length,
    longestTaskMs: Math.round(Math.max(0, ...durations)),
    uriMs: Math.round(uriMs),
    wallMs: Math.round(wallMs),
  }
}

const wcBench = { run, uri: undefined as string | undefined }
declare global {
  interface Window {
    wcBench: typeof wcBench
  }
}
window.wcBench = wcBench
document.getElementById('status')!.textContent = 'ready'
