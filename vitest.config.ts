import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'services/**/*.test.ts', 'scripts/**/*.test.ts', 'demo/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
  },
})
