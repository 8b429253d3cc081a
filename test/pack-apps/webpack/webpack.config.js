// A webpack 5 site: the package's workers (new Worker(new URL(…, import.meta.url))) and lazy chunks are webpack's to emit.
import { fileURLToPath } from 'node:url'

export default {
  mode: 'production',
  entry: './src/index.js',
  output: { path: fileURLToPath(new URL('./dist', import.meta.url)), filename: 'main.js', publicPath: 'auto', clean: true },
  performance: { hints: false },
}
