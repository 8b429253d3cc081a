// `npm start`: installs what is missing, then runs the local stack (services/stack/cli.ts).
import { spawn } from 'node:child_process'
import { ensureDeps } from './ensureDeps.mjs'

ensureDeps()

const child = spawn(process.execPath, ['--import', 'tsx', 'services/stack/cli.ts'], { stdio: 'inherit' })
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => child.kill(signal))
}
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
