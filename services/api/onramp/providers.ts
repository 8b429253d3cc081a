import { createCoinbaseOnramp, type CreateCoinbaseOnrampParameters } from './coinbase'
import { createMeldOnramp, type CreateMeldOnrampParameters } from './meld'
import type { OnrampProvider } from './provider'
import { createSandboxOnramp, type SandboxOnrampConfig } from './sandbox'

type KeysOnly<T> = Omit<T, 'fetch' | 'now' | 'timeoutMs'>

/**
 * An on-ramp provider as a site configures it (TESSERA_API_CONFIG `onramp.providers`): its type, id, name and keys.
 * Coinbase and Meld are used only with the site's own keys; the sandbox is the local stack's.
 * @example { "type": "coinbase", "id": "coinbase", "name": "Coinbase", "apiKeyName": "…", "apiKeySecret": "…" }
 */
export type OnrampProviderConfig = SandboxOnrampConfig | ({ type: 'coinbase' } & KeysOnly<CreateCoinbaseOnrampParameters>) | ({ type: 'meld' } & KeysOnly<CreateMeldOnrampParameters>)

/** The configured providers, each behind the one interface, in the order configured. */
export function createOnrampProviders(configs: readonly OnrampProviderConfig[]): OnrampProvider[] {
  return configs.map((config) => {
    switch (config.type) {
      case 'sandbox':
        return createSandboxOnramp(config)
      case 'coinbase':
        return createCoinbaseOnramp(config)
      case 'meld':
        return createMeldOnramp(config)
    }
  })
}
