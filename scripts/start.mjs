// `npm start`: installs what is missing, then runs the local stack (services/stack/cli.ts).
//
// The stack stops cleanly (every child process ended, every port closed) whatever stops `npm start`:
// - Ctrl-C in a terminal signals every process of the group, the stack's included;
// - SIGINT, SIGTERM or SIGHUP to this process is passed on to the stack. npm passes SIGINT and SIGTERM on to its script's
//   process, which is this one because the script `exec`s node: a shell in between (npm runs scripts with sh -c) would
//   not pass them on (Debian's dash dies of SIGTERM and sits out SIGINT until its child ends);
// - when whoever started us goes away without a word (npm killed with SIGKILL, a launcher whose shell does not pass
//   signals on), the stack is stopped as for SIGTERM.
import { spawn } from 'node:child_process'
import { ensureDeps } from './ensureDeps.mjs'

/** How often to check that our parent is still there (a new parent means it died). */
const PARENT_CHECK_MS = 200

ensureDeps()

const child = spawn(process.execPath, ['--import', 'tsx', 'services/stack/cli.ts'], { stdio: 'inherit' })
const stop = (signal) => {
  if (child.exitCode === null && child.signalCode === null) child.kill(signal)
}
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => stop(signal))

const parent = process.ppid
const parentCheck = setInterval(() => {
  if (process.ppid === parent) return
  clearInterval(parentCheck)
  stop('SIGTERM')
}, PARENT_CHECK_MS)

child.on('exit', (code, signal) => {
  clearInterval(parentCheck)
  process.exit(code ?? (signal ? 1 : 0))
})
