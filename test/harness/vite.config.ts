import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'
import { widgetAliases } from '../../vite.aliases.ts'
import { compactWidgetCss } from '../../vite.widgetCss.ts'
import { lentToWorkerModules } from '../../vite.workerModules.ts'

const root = dirname(fileURLToPath(import.meta.url))

/** A bare page that exposes Tessera's entry points to browser tests (test/browser). */
export default defineConfig({
  plugins: [react(), compactWidgetCss()],
  resolve: { alias: widgetAliases },
  worker: { format: 'es', plugins: () => [lentToWorkerModules()] },
  build: {
    target: 'es2022',
    rollupOptions: {
      input: { index: resolve(root, 'index.html'), bench: resolve(root, 'bench.html'), ui: resolve(root, 'ui.html'), floor: resolve(root, 'floor.html'), mount: resolve(root, 'mount.html'), wc: resolve(root, 'wc.html'), hostComlink: resolve(root, 'hostComlink.html'), review: resolve(root, 'review.html') },
    },
  },
})
