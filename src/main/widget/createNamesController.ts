import { createStore } from 'zustand/vanilla'
import { toHex, type Address } from 'viem'
import { isValidAccountName } from '../../shared/protocol/rules'
import type { Core } from '../core/createCore'
import type { Router } from '../state/createRouter'

export type NamesState = { suggestions: { name: string; registered: boolean }[]; loading: boolean; error: string | undefined }

const ETHEREUM_COIN_TYPE = 60

/**
 * Name registration (SPEC §3, §4): sign {name, attributes: {}, timestamp in seconds, coinType} with personal_sign (the
 * coin type is signed too, so every stored field is covered), register it with the data service; on success push
 * RegisterAccountNameSuccess, on failure return to the register view with the server's first reason.
 */
export function createNamesController({ core, router, getAddress, walletRequest, onRegistered, now = Date.now }: {
  core: Core | undefined
  router: Router
  getAddress: () => Address | undefined
  walletRequest: (args: { method: string; params?: unknown }) => Promise<unknown>
  onRegistered?: (name: string) => void
  now?: () => number
}) {
  const store = createStore<NamesState>()(() => ({ suggestions: [], loading: false, error: undefined }))
  return {
    store,
    async suggest(name: string) {
      if (!core || name.length === 0) return store.setState({ suggestions: [] })
      try {
        store.setState({ suggestions: await core.dataService.getNameSuggestions({ name }) })
      } catch {
        store.setState({ suggestions: [] })
      }
    },
    async register(name: string) {
      const address = getAddress()
      if (!isValidAccountName(name)) {
        store.setState({ error: 'A name has at least 4 characters: letters, digits and hyphens' })
        return false
      }
      if (!core || !address) return false
      store.setState({ loading: true, error: undefined })
      try {
        const message = JSON.stringify({ name, attributes: {}, timestamp: Math.floor(now() / 1_000), coinType: ETHEREUM_COIN_TYPE })
        const signature = (await walletRequest({ method: 'personal_sign', params: [toHex(message), address] })) as string
        await core.dataService.registerName({ name, coinType: ETHEREUM_COIN_TYPE, address, message, signature })
        store.setState({ loading: false })
        onRegistered?.(name)
        router.push('RegisterAccountNameSuccess', { name })
        return true
      } catch (error) {
        const e = error as { shortMessage?: string; details?: string }
        const reason = e.details?.replace(/^registerName: /, '')
        store.setState({ loading: false, error: reason ? `${e.shortMessage}: ${reason}` : (e.shortMessage ?? 'Something went wrong') })
        router.replace('RegisterAccountName')
        return false
      }
    },
  }
}

export type NamesController = ReturnType<typeof createNamesController>
