// After `tsc -p tsconfig.build.json`: the ethers 5 adapter's declarations name the `ethers5` alias of our dev
// dependencies, which a host has as `ethers`.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const dir = 'dist/types/main/adapters/ethers5'
for (const entry of readdirSync(dir, { recursive: true })) {
  if (!String(entry).endsWith('.d.ts')) continue
  const path = join(dir, String(entry))
  writeFileSync(path, readFileSync(path, 'utf8').replaceAll(/(from |import\()(['"])ethers5\2/g, '$1$2ethers$2'))
}
