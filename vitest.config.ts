import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'services/**/*.test.ts', 'scripts/**/*.test.ts', 'demo/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    // Set-up hooks open PGlite databases (initdb, about 4 s alone) and start chains: on a loaded 2-core CI machine that
    // can take several times as long, so hooks get room that tests themselves do not need.
    hookTimeout: 60_000,
    // Vitest's default (a core less than the machine has) is one file at a time on 2 cores, yet most files wait on
    // chains, databases and sockets: two at a time took the unit step from 265 to 205 s there.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
})
