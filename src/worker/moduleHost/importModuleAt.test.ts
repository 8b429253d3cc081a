import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { importModuleAt } from './importModuleAt'

const folders: string[] = []
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true })
})

/** A module file's URL that no import has asked for yet; the file is written by `write()`. */
function moduleFile() {
  const folder = mkdtempSync(join(tmpdir(), 'tessera-import-'))
  folders.push(folder)
  const path = join(folder, 'family.mjs')
  return { url: pathToFileURL(path).href, write: () => writeFileSync(path, 'globalThis.__tesseraImported = (globalThis.__tesseraImported ?? 0) + 1\n') }
}

describe('importModuleAt', () => {
  it('imports the module once it is there, after imports that failed (each retry by a URL of its own)', async () => {
    const { url, write } = moduleFile()
    await expect(importModuleAt(url, "the test's module")).rejects.toMatchObject({
      code: 'WIDGET_CODE_NOT_LOADED',
      shortMessage: "Tessera's code could not be loaded: check the connection, then try again or reload the page.",
      details: `the test's module did not load from ${url}`,
    })
    await expect(importModuleAt(url, "the test's module")).rejects.toMatchObject({ code: 'WIDGET_CODE_NOT_LOADED', details: `the test's module did not load from ${url}?tessera-retry=1` })
    write()
    const before = (globalThis as { __tesseraImported?: number }).__tesseraImported ?? 0
    await importModuleAt(url, "the test's module")
    expect((globalThis as { __tesseraImported?: number }).__tesseraImported).toBe(before + 1)
    // Loaded: the next import is the same module, not evaluated again.
    await importModuleAt(url, "the test's module")
    expect((globalThis as { __tesseraImported?: number }).__tesseraImported).toBe(before + 1)
  })
})
