import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

/** The demo dApp. The local stack injects its manifest as __TESSERA_STACK__ (services/stack/startStack.ts). */
export default defineConfig({
  plugins: [react()],
  worker: { format: 'es' },
  build: { target: 'es2022' },
})
