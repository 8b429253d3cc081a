import { describe, expect, it } from 'vitest'
import { readAllowedOrigins } from './allowedOrigins'

describe('TESSERA_ALLOWED_ORIGINS', () => {
  it('reads comma-separated origins, spaces and a trailing slash forgiven', () => {
    expect(readAllowedOrigins({ TESSERA_ALLOWED_ORIGINS: 'http://localhost:3000, https://app.test/ ,' })).toEqual(['http://localhost:3000', 'https://app.test'])
    expect(readAllowedOrigins({})).toEqual([])
  })

  it.each(['localhost:3000', 'http://localhost:3000/app', 'ftp://files.test', 'not a url'])('refuses %s, naming the variable', (entry) => {
    expect(() => readAllowedOrigins({ TESSERA_ALLOWED_ORIGINS: entry })).toThrow(`TESSERA_ALLOWED_ORIGINS: "${entry}" is not an origin: write scheme, host and port only, such as http://localhost:3000`)
  })
})
