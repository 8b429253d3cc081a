/** The most instances `--instances` starts on one host (each is a Node process with a database pool of its own). */
export const MAX_INSTANCES = 32

/**
 * How many instances `npm run services` is asked for: `--instances N` or `--instances=N`, 1 without the option.
 * Throws a sentence naming the option for anything else on the command line.
 * @example readInstanceCount(['--instances', '3']) // 3
 */
export function readInstanceCount(args: readonly string[]): number {
  if (args.length === 0) return 1
  const [option = '', ...rest] = args
  const value = option === '--instances' && rest.length === 1 ? rest[0]! : option.startsWith('--instances=') && rest.length === 0 ? option.slice('--instances='.length) : undefined
  if (value === undefined) throw new Error(`npm run services takes one option, --instances N (got "${args.join(' ')}").`)
  const count = Number(value)
  if (!/^\d+$/.test(value) || count < 1 || count > MAX_INSTANCES) {
    throw new Error(`--instances must be a whole number from 1 to ${MAX_INSTANCES}, got "${value}".`)
  }
  return count
}
