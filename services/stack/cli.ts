import { resolve } from 'node:path'
import { defaultManifestPath } from './manifest'
import { PortInUseError, resolvePorts } from './ports'
import { readAllowedOrigins } from './allowedOrigins'
import { startStack, type Stack } from './startStack'

/** `npm start`: the whole local stack in one process tree; Ctrl-C stops all of it. */
async function main() {
  let stack: Stack | undefined
  let stopping = false
  const shutdown = async (code: number) => {
    if (stopping) return
    stopping = true
    await stack?.stop()
    process.exit(code)
  }
  process.on('SIGINT', () => void shutdown(0))
  process.on('SIGTERM', () => void shutdown(0))

  try {
    const ports = await resolvePorts(process.env)
    stack = await startStack({
      ports,
      demo: process.env.TESSERA_DEMO_MODE === 'preview' ? 'preview' : 'dev',
      manifestPath: process.env.TESSERA_MANIFEST ?? defaultManifestPath,
      dataDir: process.env.TESSERA_DATA_DIR ?? resolve('.tessera', 'data'),
      extraOrigins: readAllowedOrigins(process.env),
      log: (line) => console.log(`  ${line}`),
    })
  } catch (error) {
    console.error(error instanceof PortInUseError ? error.message : `Could not start the local stack: ${(error as Error).message}`)
    await shutdown(1)
    return
  }
  if (stopping) return void (await stack.stop())
  const origins = [stack.manifest.demo?.url, ...readAllowedOrigins(process.env)].filter(Boolean).join(', ')
  console.log(`\nTessera is running. Open ${stack.manifest.demo?.url}\nThe data service takes pages from ${origins} (add your app's origin with TESSERA_ALLOWED_ORIGINS, comma-separated).\n(Ctrl-C stops everything.)`)
}

void main()
