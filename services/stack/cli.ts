import { resolve } from 'node:path'
import { defaultManifestPath } from './manifest'
import { PortInUseError, resolvePorts } from './ports'
import { readAllowedOrigins } from './allowedOrigins'
import { startStack, type Stack } from './startStack'

/** Ctrl-C, `kill` or a process manager, the terminal closing. */
const stopSignals: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP']

/**
 * `npm start`: the whole local stack in one process tree. SIGINT (Ctrl-C), SIGTERM (`kill`, a process manager) or SIGHUP
 * (the terminal closed) stops all of it, even while it is still starting: every child process ends, every port closes.
 */
async function main() {
  // Vite's dev and preview servers add a SIGTERM listener that closes the server alone and exits the process, which would
  // leave the chains running: this process stops by its own listeners only, and takes off any other added later (before
  // a signal can reach it: a signal comes in a task of its own, after this microtask).
  const ownListeners = new Set<(...args: unknown[]) => void>()
  process.on('newListener', (event: string | symbol, listener: (...args: unknown[]) => void) => {
    if (stopSignals.includes(event as NodeJS.Signals) && !ownListeners.has(listener)) queueMicrotask(() => process.off(event, listener))
  })
  let isStopping = false
  // A signal while starting stops the start at its next step (what has started is stopped), not once all has started.
  const startStopped = new AbortController()
  const starting = (async () => {
    const ports = await resolvePorts(process.env)
    return startStack({
      ports,
      demo: process.env.TESSERA_DEMO_MODE === 'preview' ? 'preview' : 'dev',
      manifestPath: process.env.TESSERA_MANIFEST ?? defaultManifestPath,
      dataDir: process.env.TESSERA_DATA_DIR ?? resolve('.tessera', 'data'),
      extraOrigins: readAllowedOrigins(process.env),
      log: (line) => console.log(`  ${line}`),
      signal: startStopped.signal,
    })
  })()

  // A stack still starting stops at its next step (startStack stops what it began itself when it fails or is stopped).
  const shutdown = async (code: number) => {
    if (isStopping) return
    isStopping = true
    startStopped.abort()
    const stack: Stack | undefined = await starting.catch(() => undefined)
    await stack?.stop()
    process.exit(code)
  }
  const onSignal = () => void shutdown(0)
  ownListeners.add(onSignal)
  for (const signal of stopSignals) process.on(signal, onSignal)

  let stack: Stack
  try {
    stack = await starting
  } catch (error) {
    if (isStopping) return
    console.error(error instanceof PortInUseError ? error.message : `Could not start the local stack: ${(error as Error).message}`)
    await shutdown(1)
    return
  }
  if (isStopping) return
  const origins = [stack.manifest.demo?.url, ...readAllowedOrigins(process.env)].filter(Boolean).join(', ')
  const { auth } = stack.manifest
  const signIn = auth ? `\nE-mail sign-in codes land in the local inbox at ${auth.inboxUrl}; the local social providers' dev users are ${auth.devUsers.map((u) => `${u.email} / ${u.password}`).join(', ')}.` : ''
  console.log(`\nTessera is running. Open ${stack.manifest.demo?.url}\nThe data service takes pages from ${origins} (add your app's origin with TESSERA_ALLOWED_ORIGINS, comma-separated).${signIn}\n(Ctrl-C stops everything.)`)
}

void main()
