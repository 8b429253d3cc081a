// The host apps of the packed-package tests (package.spec.ts): what each site installs and how its own tools build it.
// `npm test` builds them ahead on the CPU time its tests leave idle (prepareHostApps.ts); the tests wait for one being
// built, and build any that is not there.
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { isProcessRunning } from '../../services/stack/testing/isProcessRunning'
import { createHostApp, hostAppAt, run, type HostApp } from './hostApps'

const VITE = { vite: '8.3.8', '@vitejs/plugin-react': '6.3.0' }
const REACT_19 = { react: '19.3.1', 'react-dom': '19.3.1' }
const REACT_18 = { react: '18.3.1', 'react-dom': '18.3.1' }
const REACT_19_TYPES = { typescript: '6.0.3', '@types/react': '19.3.0', '@types/react-dom': '19.3.0' }
const WAGMI = { viem: '2.57.20', '@tanstack/react-query': '5.108.0' }

type HostAppBuild = { template: string; dependencies: Record<string, string>; build: (dir: string, bin: HostApp['bin']) => void }

/** Type-checks `files` against the package's declarations (`tsc`, strict), as a TypeScript site would. */
function typeCheck(dir: string, bin: HostApp['bin'], files: string[]) {
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', jsx: 'react-jsx', strict: true, noEmit: true, skipLibCheck: true, types: ['vite/client'] }, files }))
  run(bin('tsc'), ['-p', 'tsconfig.json'], dir)
}

/** A Vite site of `pages` (test/pack-apps/vite), type-checked, then built into dist/. */
const viteSite = (dependencies: Record<string, string>, pages: string[]): HostAppBuild => ({
  template: 'vite',
  dependencies: { ...VITE, ...dependencies },
  build(dir, bin) {
    typeCheck(dir, bin, pages.map((page) => `src/${page === 'index' ? 'main' : page}.tsx`))
    run(bin('vite'), ['build'], dir, { HOST_PAGES: pages.join(',') })
  },
})

/** Issue 37's budget pages, each built as a one-page site into dist-budget-<page> (package.spec.ts compares them). */
const budgetPages = ['floor', 'bench', 'index']

const react19Site = viteSite({ ...REACT_19, ...WAGMI, wagmi: '3.7.7', ethers: '6.17.0', ...REACT_19_TYPES }, ['index', 'wagmi', 'ethers'])

export const hostAppBuilds = {
  react19: {
    ...react19Site,
    build(dir, bin) {
      react19Site.build(dir, bin)
      for (const page of budgetPages) run(bin('vite'), ['build', '--outDir', `dist-budget-${page}`], dir, { HOST_PAGES: page })
    },
  },
  react18: viteSite({ ...REACT_18, ...WAGMI, wagmi: '2.19.5', ethers: '5.7.2', typescript: '6.0.3', '@types/react': '18.3.31', '@types/react-dom': '18.3.7' }, ['index', 'wagmi', 'ethers5']),
  headless: {
    template: 'headless',
    dependencies: { ...VITE, ...REACT_19, ...REACT_19_TYPES },
    build(dir, bin) {
      typeCheck(dir, bin, ['src/main.tsx'])
      run(bin('vite'), ['build'], dir)
    },
  },
  webpack: { template: 'webpack', dependencies: { ...REACT_19, webpack: '5.112.2', 'webpack-cli': '7.3.1' }, build: (dir, bin) => void run(bin('webpack'), ['--config', 'webpack.config.js'], dir) },
  next: { template: 'next', dependencies: { ...REACT_19, next: '16.4.6' }, build: (dir, bin) => void run(bin('next'), ['build'], dir) },
} satisfies Record<string, HostAppBuild>

export type HostAppName = keyof typeof hostAppBuilds

/** Installs the app named `name` from the packed package and builds it now. */
export async function buildHostApp(name: HostAppName): Promise<HostApp> {
  const { template, dependencies, build } = hostAppBuilds[name]
  const app = await createHostApp(template, dependencies)
  try {
    build(app.dir, app.bin)
  } catch (error) {
    app.remove()
    throw error
  }
  return app
}

/** Where `npm test` has the apps built ahead (TESSERA_HOST_APPS): `<name>.json` gives a built app's folder. */
const builtAheadDir = () => process.env.TESSERA_HOST_APPS

/** Records an app built ahead (prepareHostApps.ts): written whole, then renamed, so a waiting test never reads half of it. */
export function recordBuiltAhead(name: HostAppName, app: HostApp) {
  const record = join(builtAheadDir()!, `${name}.json`)
  writeFileSync(`${record}.partial`, JSON.stringify({ dir: app.dir }))
  renameSync(`${record}.partial`, record)
}

/** Marks the builder as running: the tests wait for what it builds while its process lives. */
export function recordBuilder() {
  writeFileSync(join(builtAheadDir()!, 'builder.pid'), String(process.pid))
}

/** The app named `name` once the builder has built it (waiting while it runs); undefined when it has not. */
async function builtAhead(dir: string, name: HostAppName): Promise<HostApp | undefined> {
  const record = join(dir, `${name}.json`)
  const builder = join(dir, 'builder.pid')
  const isBuilding = () => existsSync(builder) && isProcessRunning(Number(readFileSync(builder, 'utf8')))
  while (!existsSync(record) && isBuilding()) await new Promise((resolve) => setTimeout(resolve, 500))
  if (!existsSync(record)) return undefined
  const { dir: appDir } = JSON.parse(readFileSync(record, 'utf8')) as { dir: string }
  rmSync(record)
  return hostAppAt(appDir)
}

/** The app named `name`: the one `npm test` builds ahead when it does (used once, waited for while it is built), else built now. */
export async function hostApp(name: HostAppName): Promise<HostApp> {
  const dir = builtAheadDir()
  return (dir && (await builtAhead(dir, name))) || buildHostApp(name)
}
