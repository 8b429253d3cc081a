import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import config, { workerDependencies } from './vite.config'

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')

/**
 * The workers the page starts (`new Worker(new URL('…', import.meta.url))` in src/main), and the modules the core worker
 * imports by URL (`?worker&url` imports: the chain families' in src/main/core/familyModules.ts, the review engine's in
 * createCore.ts).
 */
function workerEntries(): string[] {
  const starters = ['src/main/core/createCore.ts', 'src/main/connectors/createWalletConnectConnector.ts']
  const workers = starters.flatMap((file) =>
    [...readFileSync(join(root, file), 'utf8').matchAll(/new Worker\(\s*new URL\('([^']+)'/g)].map((m) => resolve(root, dirname(file), m[1]!)),
  )
  // The families' modules and the review engine's, each a `?worker&url` import the core worker loads by URL.
  const modules = ['src/main/core/familyModules.ts', 'src/main/core/createCore.ts'].flatMap((file) =>
    [...readFileSync(join(root, file), 'utf8').matchAll(/from '([^']+)\?worker&url'/g)].map((m) => resolve(root, dirname(file), m[1]!)),
  )
  return [...workers, ...modules]
}

/** A relative import as a file: './x' → x.ts, x.tsx or x/index.ts. */
function resolveRelative(from: string, specifier: string): string {
  const base = resolve(dirname(from), specifier)
  const found = [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')].find((path) => existsSync(path) && !path.endsWith('/'))
  if (!found) throw new Error(`${specifier} (from ${from}) was not found`)
  return found
}

/** Every package a module graph imports for its code (type-only imports are erased), static or dynamic. */
function packagesImportedFrom(entries: string[]): Set<string> {
  const packages = new Set<string>()
  const seen = new Set<string>()
  const visit = (file: string) => {
    if (seen.has(file)) return
    seen.add(file)
    const source = readFileSync(file, 'utf8')
    const specifiers = [
      ...[...source.matchAll(/^\s*(?:import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?'([^']+)'/gm)].filter((m) => !m[1]).map((m) => m[2]!),
      ...[...source.matchAll(/\bimport\(\s*'([^']+)'\s*\)/g)].map((m) => m[1]!),
    ]
    for (const specifier of specifiers) {
      if (specifier.startsWith('.')) visit(resolveRelative(file, specifier))
      else if (!specifier.startsWith('node:')) packages.add(specifier)
    }
  }
  entries.forEach(visit)
  return packages
}

describe('the demo in Vite dev (npm start)', () => {
  it('finds the workers the page starts', () => {
    expect(workerEntries().map((path) => path.slice(root.length + 1)).sort()).toEqual([
      'src/worker/families/bip122/bitcoinFamily.ts',
      'src/worker/families/polkadot/polkadotFamily.ts',
      'src/worker/families/solana/solanaFamily.ts',
      'src/worker/review/reviewModule.ts',
      'src/worker/walletConnect/walletConnectWorker.ts',
      'src/worker/worker.ts',
    ])
  })

  it('pre-bundles every package the workers import, so no first use makes Vite reload the page', () => {
    const imported = [...packagesImportedFrom(workerEntries())].sort()
    expect(imported).toEqual(expect.arrayContaining(['@walletconnect/sign-client', '@solana/kit', 'viem', 'comlink']))
    expect([...workerDependencies].sort()).toEqual(imported)
    expect(config.optimizeDeps?.include).toEqual(expect.arrayContaining(imported))
  })
})
