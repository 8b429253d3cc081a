import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

// A site that draws its own connect UI with Tessera's hooks (docs/headless.md).
export default defineConfig({ plugins: [react()] })
