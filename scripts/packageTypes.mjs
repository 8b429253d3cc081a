// After `tsc -p tsconfig.build.json`: the adapters' declarations name packages as our dev dependencies have them; a
// host has the ethers 5 alias `ethers5` as `ethers`, and `@wagmi/core` through `wagmi` (see vite.lib.config.ts).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const renames = { 'dist/types/main/adapters/ethers5': ['ethers5', 'ethers'], 'dist/types/main/adapters/wagmi': ['@wagmi/core', 'wagmi'] }
for (const [dir, [from, to]] of Object.entries(renames)) {
  for (const entry of readdirSync(dir, { recursive: true })) {
    if (!String(entry).endsWith('.d.ts')) continue
    const path = join(dir, String(entry))
    const text = readFileSync(path, 'utf8')
    writeFileSync(path, text.replaceAll(`'${from}'`, `'${to}'`).replaceAll(`"${from}"`, `"${to}"`))
  }
}
