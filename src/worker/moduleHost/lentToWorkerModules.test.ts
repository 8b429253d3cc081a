import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { build, type Plugin, type Rollup } from 'vite'
import { afterAll, describe, expect, it } from 'vitest'
import { lentToWorkerModules } from '../../../vite.workerModules'
import { WidgetError } from '../../shared/protocol/errors'
import { LENT_TO_MODULES, lendToModules } from './lendToModules'

const sample = fileURLToPath(new URL('./fixtures/sampleFamily.ts', import.meta.url))
const out = mkdtempSync(join(tmpdir(), 'tessera-lent-'))
afterAll(() => rmSync(out, { recursive: true, force: true }))

/** Builds `entry` as the package builds a worker module; `source` stands in for the file's text when given. */
async function buildModule(entry: string, source?: string) {
  const isEntry = (id: string) => source !== undefined && entry.endsWith(id.replace(/^\.?\/?/, ''))
  const stand: Plugin = { name: 'stand-in', enforce: 'pre', resolveId: (id) => (isEntry(id) ? entry : null), load: (id) => (isEntry(id) ? source : null) }
  const result = (await build({
    configFile: false,
    logLevel: 'silent',
    plugins: [stand, lentToWorkerModules()],
    build: { write: false, minify: false, lib: { entry, formats: ['es'], fileName: 'module' }, rollupOptions: { output: { codeSplitting: false } } },
  })) as Rollup.RollupOutput[]
  return (result[0]!.output[0] as Rollup.OutputChunk).code
}

describe('what the core worker lends its modules', () => {
  it('lends every file lendToModules.ts imports, under its name', () => {
    lendToModules()
    const imported = [...readFileSync(fileURLToPath(new URL('./lendToModules.ts', import.meta.url)), 'utf8').matchAll(/^import \* as (\w+) from/gm)].map(([, key]) => key)
    expect(Object.keys((globalThis as Record<symbol, object>)[LENT_TO_MODULES]!).sort()).toEqual(imported.sort())
  })

  it("leaves the error table and zod out of a module's bundle, which then uses the core's", async () => {
    const code = await buildModule(sample)
    expect(code).toContain('tessera.lentToModules')
    expect(code).not.toContain('Please try again after') // the error table's first sentence
    expect(code).not.toContain('$ZodObject') // zod's own classes
    const file = join(out, 'sampleFamily.mjs')
    writeFileSync(file, code)
    lendToModules()
    const built = (await import(pathToFileURL(file).href)) as { readBalance(value: unknown): boolean; missingNetwork(): Error }
    expect(built.readBalance({ amount: '12' })).toBe(true)
    expect(built.readBalance({ amount: 'twelve' })).toBe(false)
    const error = built.missingNetwork()
    expect(error).toBeInstanceOf(WidgetError) // the core's own class: errors cross back as what they are
    expect(error.message).toBe('Network not found\n\nDetails: sample')
  })

  it('fails the build of a module that uses a zod builder the core does not lend', async () => {
    const broken = sample.replace('sampleFamily', 'brokenFamily')
    await expect(buildModule(broken, "import * as z from 'zod/mini'\nexport const schema = z.nan()\n")).rejects.toThrow(/nan/)
  })

  it('bundles everything in a build that is not a worker module (the core worker itself)', async () => {
    const core = sample.replace('sampleFamily', 'core')
    const code = await buildModule(core, readFileSync(sample, 'utf8'))
    expect(code).not.toContain('tessera.lentToModules')
    expect(code).toContain('Please try again after')
  })
})
