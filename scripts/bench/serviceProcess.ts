// The benchmarks' services in processes of their own: started from the checkout, awaited by the line they print once
// they listen, and stopped (SIGTERM, then SIGKILL after 5 s).
import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Resolves once `child` printed `line`; rejects (and kills it) when it exits first or says nothing of it in 60 s. */
export async function waitForLine(child: ChildProcess, line: string, name: string) {
  let output = ''
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()))
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`bench: ${name} did not start in 60 s\n${output}`)), 60_000)
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString()
      if (output.includes(line)) {
        clearTimeout(timer)
        resolve()
      }
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`bench: ${name} exited (${code})\n${output}`))
    })
  }).catch((error: unknown) => {
    child.kill('SIGKILL')
    throw error
  })
}

/**
 * The data service (`entry`: its TypeScript main under tsx, or a built one) on 127.0.0.1 with `env`, once it listens.
 * @example const child = await startDataService({ TESSERA_API_CONFIG: path, PORT: '8787' })
 */
export async function startDataService(env: Record<string, string>, entry = 'services/api/main.ts') {
  const args = entry.endsWith('.ts') ? ['--import', 'tsx', entry] : [entry]
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, HOST: '127.0.0.1', ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  await waitForLine(child, 'Tessera data service on', 'the data service')
  return child
}

/** Stops a child: SIGTERM, then SIGKILL if it is still there 5 s later. */
export async function stopProcess(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  await Promise.race([exited, sleep(5_000)])
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
}
