import { createCore } from '../../src/main'
import type { StackManifest } from '../../services/stack/manifest'

declare const __TESSERA_STACK__: StackManifest

/** What browser tests reach with page.evaluate: the real entry points, built by Vite like a host app would. */
export type Harness = { createCore: typeof createCore; startWorker: () => Worker; stack: StackManifest }

declare global {
  interface Window {
    tessera: Harness
  }
}

const startWorker = () => new Worker(new URL('../../src/worker/worker.ts', import.meta.url), { type: 'module' })

window.tessera = { createCore, startWorker, stack: __TESSERA_STACK__ }
document.getElementById('status')!.textContent = 'ready'
