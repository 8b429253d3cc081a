import { createRoot } from 'react-dom/client'
import { FloorApp } from '../pack-apps/vite/src/FloorApp'
import type { StackManifest } from '../../services/stack/manifest'
import { announceBenchWallet } from '../pack-apps/vite/src/benchWallet'

declare const __TESSERA_STACK__: StackManifest

// The floor of `npm run bench:ui` and the budget test, built like the widget's page: the same React page as the
// packed-package site's floor. The test stack's manifest, which the widget's page carries too: the budget compares
// the widget, not test data.
Object.assign(window, { stack: __TESSERA_STACK__ })
// The same installed wallet as the widget's page: the page's own scripts differ by the widget alone.
// bench:ui's stages, as on the widget's page (nothing to make here).
performance.mark('bench:entry')
announceBenchWallet()
performance.mark('bench:created')
createRoot(document.getElementById('root')!).render(<FloorApp />)
