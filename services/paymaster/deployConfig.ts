import { readFileSync } from 'node:fs'

/** A deployment's paymaster configuration that cannot be read; its message names the setting and never shows the file's text (it may hold the signer key). */
export class PaymasterDeployConfigError extends Error {
  override name = 'PaymasterDeployConfigError'
}

/**
 * The paymaster's configuration as a deployment gives it: the JSON file TESSERA_PAYMASTER_CONFIG names, or JSON in
 * TESSERA_PAYMASTER_CONFIG_JSON; TESSERA_PAYMASTER_SIGNER_KEY, when set, is its signer key (so the file can be shared
 * without it). Undefined when neither is set: no paymaster. Checked field by field by startPaymaster.
 * @example const config = readPaymasterDeployConfig(process.env) // { signerKey, chains, projects, limits? }
 */
export function readPaymasterDeployConfig(env: NodeJS.ProcessEnv): Record<string, unknown> | undefined {
  const { TESSERA_PAYMASTER_CONFIG: path, TESSERA_PAYMASTER_CONFIG_JSON: json, TESSERA_PAYMASTER_SIGNER_KEY: signerKey } = env
  if (!path && !json) return undefined
  let config: unknown
  try {
    config = JSON.parse(path ? readFileSync(path, 'utf8') : json!)
  } catch (error) {
    const cause = (error as NodeJS.ErrnoException).code ?? 'a syntax error'
    throw new PaymasterDeployConfigError(`The paymaster configuration ${path ? `in ${path} ` : ''}could not be read as JSON (${cause}).`)
  }
  if (typeof config !== 'object' || config === null || Array.isArray(config)) throw new PaymasterDeployConfigError('The paymaster configuration must be a JSON object.')
  return signerKey ? { ...config, signerKey } : (config as Record<string, unknown>)
}
