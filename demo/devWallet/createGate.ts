/**
 * What a test wallet uses to keep requests waiting, as a user reading the prompt: `wait()` resolves at once unless
 * `hold()` was called, then when the function `hold()` returned is called.
 */
export function createGate() {
  let held: Promise<void> | undefined
  return {
    wait: () => held,
    hold() {
      let release!: () => void
      held = new Promise((resolve) => (release = resolve))
      return () => {
        held = undefined
        release()
      }
    },
  }
}
