import { defineConfig } from 'vite'

/** A bare page that exposes Tessera's entry points to browser tests (test/browser). */
export default defineConfig({
  worker: { format: 'es' },
  build: { target: 'es2022' },
})
