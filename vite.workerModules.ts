import { readFileSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { init, parse } from 'es-module-lexer'
import { transformWithOxc, type Plugin } from 'vite'

const lenderFile = fileURLToPath(new URL('./src/worker/moduleHost/lendToModules.ts', import.meta.url))
const PREFIX = '\0lent-to-modules:'

/** A module the core worker imports by URL, built as a bundle of its own: a chain family's client, the review engine. */
const isWorkerModule = (entry: string) => /\/(?:\w+Family|reviewModule)\.ts$/.test(entry)

type Lent = { key: string; file: string; fromPackage?: string }

/** lendToModules.ts's `import * as key from './file'` lines: what the core lends, by key. */
function readLent(): Lent[] {
  const source = readFileSync(lenderFile, 'utf8')
  return [...source.matchAll(/^import \* as (\w+) from '([^']+)'$/gm)].map(([, key, path]) => {
    const file = resolve(dirname(lenderFile), `${path}.ts`)
    // A list of a package's names (zodMini.ts: `export { … } from 'zod/mini'`) lends that package's names.
    const fromPackage = /^export \{[^}]*\} from '([^'.][^']*)'$/m.exec(readFileSync(file, 'utf8'))?.[1]
    return { key: key!, file, ...(fromPackage && { fromPackage }) }
  })
}

async function exportNames(file: string): Promise<string[]> {
  await init
  const { code } = await transformWithOxc(readFileSync(file, 'utf8'), file, { lang: 'ts' })
  return parse(code)[1].map((name) => name.n!)
}

/**
 * In the build of a worker module (not the core worker's), the files and packages lendToModules.ts lists are not
 * bundled: each is a module of the same names reading the core's copy from the worker's global, where lendToModules()
 * put it. A module that uses a name the core does not lend fails to build. Build only: the dev server serves one copy of
 * each file to the whole worker anyway.
 */
export function lentToWorkerModules(): Plugin {
  let active = false
  let lent: Lent[] = []
  return {
    name: 'lent-to-worker-modules',
    apply: 'build',
    enforce: 'pre',
    options(options) {
      const inputs = typeof options.input === 'string' ? [options.input] : Object.values(options.input ?? {})
      active = inputs.some((input) => isWorkerModule(String(input)))
      if (active) lent = readLent()
    },
    async resolveId(source, importer, options) {
      if (!active || source.startsWith('\0') || !importer) return null
      const byPackage = lent.find((entry) => entry.fromPackage === source)
      if (byPackage) return PREFIX + byPackage.key
      if (!source.startsWith('.')) return null
      const resolved = await this.resolve(source, importer, { ...options, skipSelf: true })
      const byFile = resolved && lent.find((entry) => entry.file === resolved.id.split('?')[0])
      return byFile ? PREFIX + byFile.key : null
    },
    async load(id) {
      if (!id.startsWith(PREFIX)) return null
      const entry = lent.find((candidate) => candidate.key === id.slice(PREFIX.length))!
      const names = await exportNames(entry.file)
      return [
        `const lent = globalThis[Symbol.for('tessera.lentToModules')]?.${entry.key}`,
        `if (!lent) throw new Error('This module runs inside the Tessera core worker, which lends it ${entry.key}.')`,
        ...names.map((name, index) => `const lent${index} = lent[${JSON.stringify(name)}]`),
        `export { ${names.map((name, index) => `lent${index} as ${name}`).join(', ')} }`,
      ].join('\n')
    },
    onLog(level, log) {
      // A name the core does not lend, read from a lent namespace (`z.foo`), would be undefined at run time.
      if (active && (log.code === 'IMPORT_IS_UNDEFINED' || log.code === 'MISSING_EXPORT')) this.error(log.message)
    },
  }
}
