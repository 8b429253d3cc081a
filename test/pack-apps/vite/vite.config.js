import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

// HOST_PAGES names the pages this app builds (the adapters' pages need their libraries installed).
const pages = (process.env.HOST_PAGES ?? 'index').split(',')
export default defineConfig({
  plugins: [react()],
  build: { rollupOptions: { input: Object.fromEntries(pages.map((page) => [page, `${page}.html`])) } },
})
