import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { PaymasterDeployConfigError, readPaymasterDeployConfig } from './deployConfig'

const dir = mkdtempSync(join(tmpdir(), 'tessera-paymaster-deploy-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))
const secret = '0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6'

describe('readPaymasterDeployConfig: the paymaster’s configuration from the environment', () => {
  it('is undefined when neither TESSERA_PAYMASTER_CONFIG nor TESSERA_PAYMASTER_CONFIG_JSON is set (no paymaster)', () => {
    expect(readPaymasterDeployConfig({})).toBeUndefined()
    expect(readPaymasterDeployConfig({ TESSERA_PAYMASTER_CONFIG: '', TESSERA_PAYMASTER_SIGNER_KEY: secret })).toBeUndefined()
  })

  it('reads the file, the signer key from TESSERA_PAYMASTER_SIGNER_KEY in place of the file’s', () => {
    const path = join(dir, 'paymaster.json')
    writeFileSync(path, JSON.stringify({ signerKey: 'in the file', chains: [] }))
    expect(readPaymasterDeployConfig({ TESSERA_PAYMASTER_CONFIG: path })).toEqual({ signerKey: 'in the file', chains: [] })
    expect(readPaymasterDeployConfig({ TESSERA_PAYMASTER_CONFIG: path, TESSERA_PAYMASTER_SIGNER_KEY: secret })).toEqual({ signerKey: secret, chains: [] })
  })

  it('reads the JSON of TESSERA_PAYMASTER_CONFIG_JSON', () => {
    expect(readPaymasterDeployConfig({ TESSERA_PAYMASTER_CONFIG_JSON: '{"projects":[]}' })).toEqual({ projects: [] })
  })

  it('names what it could not read, never showing the text (it may hold the key)', () => {
    const read = (env: NodeJS.ProcessEnv) => {
      try {
        readPaymasterDeployConfig(env)
      } catch (error) {
        expect(error).toBeInstanceOf(PaymasterDeployConfigError)
        return (error as Error).message
      }
      throw new Error('no error')
    }
    const path = join(dir, 'broken.json')
    writeFileSync(path, `{"signerKey": "${secret}",`)
    expect(read({ TESSERA_PAYMASTER_CONFIG: path })).toBe(`The paymaster configuration in ${path} could not be read as JSON (a syntax error).`)
    expect(read({ TESSERA_PAYMASTER_CONFIG: join(dir, 'missing.json') })).toBe(`The paymaster configuration in ${join(dir, 'missing.json')} could not be read as JSON (ENOENT).`)
    expect(read({ TESSERA_PAYMASTER_CONFIG_JSON: `["${secret}"]` })).toBe('The paymaster configuration must be a JSON object.')
    expect(read({ TESSERA_PAYMASTER_CONFIG_JSON: `{"signerKey": "${secret}"` })).not.toContain(secret)
  })
})
