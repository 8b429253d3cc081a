// The import graph of the project's source as TypeScript resolves it (type imports, re-exports and import() included),
// and its circles: `npm test` fails on one (scripts/importCircles.test.ts).
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import ts from 'typescript'

const sourceFile = /\.(ts|tsx)$/
const skipped = /(\.test\.tsx?|\.spec\.tsx?|\.d\.ts)$/

function sourcesUnder(root: string, dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : sourcesUnder(root, path)
    return sourceFile.test(entry.name) && !skipped.test(entry.name) ? [path] : []
  })
}

/** Every source file under `dirs` (tests left out) with the project's files it imports, as paths relative to `root`. */
export function importGraph(root: string, dirs: readonly string[]): Map<string, string[]> {
  const options: ts.CompilerOptions = { module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, allowImportingTsExtensions: true, jsx: ts.JsxEmit.ReactJSX }
  const files = dirs.flatMap((dir) => sourcesUnder(root, dir))
  const known = new Set(files)
  const graph = new Map<string, string[]>()
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(join(root, file), 'utf8'), true, true)
    const targets = importedFiles.flatMap(({ fileName }) => {
      const resolved = ts.resolveModuleName(fileName, join(root, file), options, ts.sys).resolvedModule?.resolvedFileName
      const target = resolved && relative(root, resolved)
      return target && known.has(target) ? [target] : []
    })
    graph.set(file, [...new Set(targets)])
  }
  return graph
}

/** The graph's circles: its strongly connected components of more than one file, or of one that imports itself (Tarjan). */
export function findCircles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>()
  const lowLink = new Map<string, number>()
  const stack: string[] = []
  const onStack = new Set<string>()
  const circles: string[][] = []
  const visit = (file: string) => {
    index.set(file, index.size)
    lowLink.set(file, index.get(file)!)
    stack.push(file)
    onStack.add(file)
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target)
        lowLink.set(file, Math.min(lowLink.get(file)!, lowLink.get(target)!))
      } else if (onStack.has(target)) lowLink.set(file, Math.min(lowLink.get(file)!, index.get(target)!))
    }
    if (lowLink.get(file) !== index.get(file)) return
    const component: string[] = []
    for (let member = stack.pop()!; ; member = stack.pop()!) {
      onStack.delete(member)
      component.push(member)
      if (member === file) break
    }
    if (component.length > 1 || graph.get(file)?.includes(file)) circles.push(component.sort())
  }
  for (const file of graph.keys()) if (!index.has(file)) visit(file)
  return circles
}
