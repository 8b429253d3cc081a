import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { findCircles, importGraph } from './importCircles'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')

describe('import circles', () => {
  it('there are none in src/ and services/, type imports and import() included', () => {
    const graph = importGraph(root, ['src', 'services', 'demo'])
    expect(graph.size).toBeGreaterThan(300)
    expect(findCircles(graph)).toEqual([])
  })

  it('finds a circle through a type import, a re-export or an import(), and none in a chain', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tessera-circles-'))
    try {
      const write = (path: string, text: string) => {
        mkdirSync(dirname(join(dir, path)), { recursive: true })
        writeFileSync(join(dir, path), text)
      }
      write('src/a.ts', "import type { B } from './b'\nexport type A = B")
      write('src/b.ts', "export { c } from './lib/c'\nexport type B = string")
      write('src/lib/c.ts', "export const c = () => import('../a')")
      write('src/chain/x.ts', "import { y } from './y'\nexport const x = y")
      write('src/chain/y.ts', 'export const y = 1')
      write('src/self.ts', "export { self } from './self'\nexport const self = 1")
      expect(findCircles(importGraph(dir, ['src']))).toEqual([['src/a.ts', 'src/b.ts', 'src/lib/c.ts'], ['src/self.ts']])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
