/**
 * Whether a process with this pid is running (signal 0 checks without signalling).
 * @example await expect.poll(() => isProcessRunning(child.pid!)).toBe(false)
 */
export function isProcessRunning(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch {
    return false
  }
}
