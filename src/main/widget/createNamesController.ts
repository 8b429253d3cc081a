import { createStore } from 'zustand/vanilla'
import { toHex, type Address } from 'viem'
import { isValidAccountName } from '../../shared/protocol/rules'
import type { Core } from '../core/createCore'
import type { Router } from '../state/createRouter'
import { toErrorNotice, type ErrorNotice } from '../state/errorNotice'

/** Why a name cannot be registered; the view words it in the widget's locale. */
export type NameError =
  /** Fewer than 4 characters, or others than letters, digits and hyphens (SPEC §5). */
  | { reason: 'invalid' }
  /** The name service lists it as registered (`name` with its suffix: alice.tessera.id). */
  | { reason: 'taken'; name: string }
  /** The registration failed: the error, and the service's first reason when it gave one (SPEC §8). */
  | { reason: 'failed'; error: ErrorNotice; details: string | undefined }

export type NamesState = {
  /** The name being chosen: a label, without the service's suffix. */
  name: string
  /** The service's suggestions for it (full names), each saying whether it is taken. */
  suggestions: { name: string; registered: boolean }[]
  loading: boolean
  error: NameError | undefined
}

const ETHEREUM_COIN_TYPE = 60

const initialState = (): NamesState => ({ name: '', suggestions: [], loading: false, error: undefined })

/** A suggestion's label, what the field holds: 'alice-1.tessera.id' → 'alice-1' (a label has no dot). */
export const nameLabel = (name: string) => name.split('.')[0]!

/** The suggestion that says `name` is taken, if the service said so. */
const takenEntry = (suggestions: NamesState['suggestions'], name: string) => suggestions.find((s) => s.registered && nameLabel(s.name) === name)

/**
 * Name registration (SPEC §3, §4): the name being typed, the service's suggestions for it (a suggestion fills the
 * field), and a name the service says is taken, which is not submitted. Registering signs {name, attributes: {}, timestamp
 * in seconds, coinType} with personal_sign (the coin type is signed too, so every stored field is covered) and registers
 * it with the data service; on success pushes RegisterAccountNameSuccess, on failure returns to the register view with
 * the server's first reason. An error lasts until the name changes.
 */
export function createNamesController({ core, router, getAddress, getChainId = () => undefined, walletRequest, onRegistered, now = Date.now }: {
  core: Core | undefined
  router: Router
  getAddress: () => Address | undefined
  /** The EVM chain the account is on: signed into the message, where the data service checks a smart account's signature. */
  getChainId?: () => number | undefined
  walletRequest: (args: { method: string; params?: unknown }) => Promise<unknown>
  onRegistered?: (name: string) => void
  now?: () => number
}) {
  const store = createStore<NamesState>()(initialState)
  const takenError = (name: string, suggestions = store.getState().suggestions): NameError | undefined => {
    const taken = takenEntry(suggestions, name)
    return taken ? { reason: 'taken', name: taken.name } : undefined
  }
  return {
    store,
    /** The visitor changed the name (typed it, or picked a suggestion): the previous error goes. */
    setName(name: string) {
      store.setState({ name, error: takenError(name) })
    },
    /** Asks the service for suggestions for the current name; an answer for a name no longer in the field is dropped. */
    async suggest(name: string = store.getState().name) {
      if (!core || name.length === 0) return store.setState({ suggestions: [] })
      let suggestions: NamesState['suggestions']
      try {
        suggestions = await core.dataService.getNameSuggestions({ name })
      } catch {
        suggestions = []
      }
      const state = store.getState()
      if (state.name !== name) return
      store.setState({ suggestions, error: state.error ?? takenError(name, suggestions) })
    },
    /** Registers the current name (or `name`). Resolves whether it was registered. */
    async register(name: string = store.getState().name) {
      const address = getAddress()
      if (!isValidAccountName(name)) {
        store.setState({ error: { reason: 'invalid' } })
        return false
      }
      const taken = takenError(name)
      if (taken) {
        store.setState({ error: taken })
        return false
      }
      if (!core || !address) return false
      store.setState({ loading: true, error: undefined })
      try {
        const chainId = getChainId()
        const message = JSON.stringify({ name, attributes: {}, timestamp: Math.floor(now() / 1_000), coinType: ETHEREUM_COIN_TYPE, ...(chainId !== undefined && { chainId }) })
        const signature = (await walletRequest({ method: 'personal_sign', params: [toHex(message), address] })) as string
        await core.dataService.registerName({ name, coinType: ETHEREUM_COIN_TYPE, address, message, signature })
        store.setState(initialState())
        onRegistered?.(name)
        router.push('RegisterAccountNameSuccess', { name })
        return true
      } catch (error) {
        const details = (error as { details?: unknown } | null)?.details
        const reason = typeof details === 'string' ? details.replace(/^registerName: /, '') : undefined
        store.setState({ loading: false, error: { reason: 'failed', error: toErrorNotice(error), details: reason } })
        router.replace('RegisterAccountName')
        return false
      }
    },
    /** Back to an empty form (the view opens with one). */
    reset() {
      store.setState(initialState())
    },
  }
}

export type NamesController = ReturnType<typeof createNamesController>
