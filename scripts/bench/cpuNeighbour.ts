// A CPU-burning neighbour for the benchmarks: one busy process per core, at the bench's own priority, so a page is
// measured where CI runners and visitors' laptops live. Each process also leaves when the bench does (its parent is
// gone), so a killed bench leaves no burner behind.
import { spawn, type ChildProcess } from 'node:child_process'
import { availableParallelism, getPriority, setPriority } from 'node:os'

/** Busy for 250 ms at a time, then checks that the bench is still its parent. */
const BURN = `const parent = process.ppid
for (;;) {
  const until = Date.now() + 250
  while (Date.now() < until);
  try { process.kill(parent, 0) } catch { process.exit(0) }
  if (process.ppid !== parent) process.exit(0)
}`

export type CpuNeighbour = { processes: number; niceness: number[]; stop: () => void }

/**
 * Starts `processes` busy loops (`node -e`, niced to 0), stopped by `stop()`, on SIGINT/SIGTERM and at exit.
 * @example const neighbour = startCpuNeighbour(); try { await measure() } finally { neighbour.stop() }
 */
export function startCpuNeighbour({ processes = availableParallelism(), niceness = 0 } = {}): CpuNeighbour {
  // Each in a session of its own, as Playwright starts the browser: with the kernel's autogroup scheduling, CPU time is
  // shared between sessions first, and burners in the bench's session would only slow the bench, not the browser.
  const children: ChildProcess[] = Array.from({ length: processes }, () => spawn(process.execPath, ['-e', BURN], { stdio: 'ignore', detached: true }))
  for (const child of children) {
    // Raising a priority needs privileges: a bench already niced keeps its burners at its own level.
    try {
      setPriority(child.pid!, niceness)
    } catch {
      // left at the bench's own priority
    }
  }
  const kill = () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  }
  const onSignal = (signal: NodeJS.Signals) => {
    kill()
    process.exit(signal === 'SIGINT' ? 130 : 143)
  }
  process.once('exit', kill)
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)
  return {
    processes,
    niceness: children.map((child) => getPriority(child.pid!)),
    stop: () => {
      kill()
      process.off('exit', kill)
      process.off('SIGINT', onSignal)
      process.off('SIGTERM', onSignal)
    },
  }
}
