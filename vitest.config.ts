import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'services/**/*.test.ts', 'scripts/**/*.test.ts', 'demo/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    // Set-up hooks open PGlite databases (initdb, about 4 s alone) and start chains: on a loaded 2-core CI machine that
    // can take several times as long, so hooks get room that tests themselves do not need.
    hookTimeout: 60_000,
  },
})
