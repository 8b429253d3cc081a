import { describe, expect, it, vi } from 'vitest'
import { createWidgetError } from '../../shared/protocol/errors'
import type { Core } from '../core/createCore'
import { createRouter } from '../state/createRouter'
import { createNamesController, nameLabel } from './createNamesController'

const address = '0x00000000000000000000000000000000000000aa'

/** The data service's suggestions for a name (SPEC §7), `taken` being the full names already registered. */
const suggestionsFor = (taken: string[]) => async ({ name }: { name: string }) =>
  [name, `${name}-1`, `my-${name}`].map((label) => `${label}.tessera.id`).map((full) => ({ name: full, registered: taken.includes(full) }))

function setup({ taken = [] as string[], registerName = vi.fn().mockResolvedValue({ success: true }), getNameSuggestions = vi.fn(suggestionsFor(taken)) } = {}) {
  const walletRequest = vi.fn().mockResolvedValue('0xsig')
  const router = createRouter('RegisterAccountName')
  const core = { dataService: { getNameSuggestions, registerName } } as unknown as Core
  const names = createNamesController({ core, router, getAddress: () => address, walletRequest, now: () => 1_700_000_000_000 })
  return { names, walletRequest, registerName, getNameSuggestions, router }
}

describe('names: suggestions, taken names and errors', () => {
  it.each([
    ['alice-1.tessera.id', 'alice-1'],
    ['alice.reown.id', 'alice'],
    ['alice', 'alice'],
  ])('a suggestion %s fills the field with %s', (suggestion, label) => expect(nameLabel(suggestion)).toBe(label))

  it('keeps the suggestions for the name in the field, and drops an answer for a name no longer there', async () => {
    let answer!: () => void
    const getNameSuggestions = vi.fn(async ({ name }: { name: string }) => {
      if (name === 'alic') await new Promise<void>((resolve) => (answer = resolve))
      return suggestionsFor([])({ name })
    })
    const { names } = setup({ getNameSuggestions })
    names.setName('alic')
    const late = names.suggest()
    names.setName('alice')
    await names.suggest()
    answer()
    await late
    expect(names.store.getState().suggestions.map((s) => s.name)).toEqual(['alice.tessera.id', 'alice-1.tessera.id', 'my-alice.tessera.id'])
  })

  it('says a name the service lists as registered is taken, and does not ask the wallet to sign it', async () => {
    const { names, walletRequest, registerName } = setup({ taken: ['alice.tessera.id'] })
    names.setName('alice')
    await names.suggest()
    expect(names.store.getState().error).toEqual({ reason: 'taken', name: 'alice.tessera.id' })
    expect(await names.register()).toBe(false)
    expect(walletRequest).not.toHaveBeenCalled()
    expect(registerName).not.toHaveBeenCalled()
    expect(names.store.getState().error).toEqual({ reason: 'taken', name: 'alice.tessera.id' })
  })

  it('picking a free suggestion replaces the taken name, its error goes, and that name is registered', async () => {
    const { names, registerName, router } = setup({ taken: ['alice.tessera.id'] })
    names.setName('alice')
    await names.suggest()
    const free = names.store.getState().suggestions.find((s) => !s.registered && s.name !== 'alice.tessera.id')!
    names.setName(nameLabel(free.name))
    expect(names.store.getState()).toMatchObject({ name: 'alice-1', error: undefined })
    expect(await names.register()).toBe(true)
    expect(registerName).toHaveBeenCalledWith(expect.objectContaining({ name: 'alice-1' }))
    expect(router.store.getState()).toMatchObject({ view: 'RegisterAccountNameSuccess', data: { name: 'alice-1' } })
    // The next visit starts from an empty form.
    expect(names.store.getState()).toEqual({ name: '', suggestions: [], loading: false, error: undefined })
  })

  it('a name typed again that the suggestions already list as taken is said at once', async () => {
    const { names } = setup({ taken: ['my-bob.tessera.id'] })
    names.setName('bob')
    await names.suggest()
    expect(names.store.getState().error).toBeUndefined()
    names.setName('my-bob')
    expect(names.store.getState().error).toEqual({ reason: 'taken', name: 'my-bob.tessera.id' })
  })

  it.each(['abc', 'al ice', 'alice.tessera.id', ''])('refuses %j before signing (SPEC §5), until the name changes', async (name) => {
    const { names, walletRequest } = setup()
    names.setName(name)
    expect(await names.register()).toBe(false)
    expect(names.store.getState().error).toEqual({ reason: 'invalid' })
    expect(walletRequest).not.toHaveBeenCalled()
    names.setName('alice')
    expect(names.store.getState().error).toBeUndefined()
  })

  it('a refused registration keeps the service’s reason until the name changes', async () => {
    const registerName = vi.fn().mockRejectedValue(createWidgetError('NAME_REGISTER_FAILED', { params: { name: 'carol' }, details: 'registerName: carol.tessera.id is already registered', status: 409 }))
    const { names, router } = setup({ registerName })
    names.setName('carol')
    expect(await names.register()).toBe(false)
    expect(names.store.getState()).toMatchObject({
      loading: false,
      error: { reason: 'failed', error: { code: 'NAME_REGISTER_FAILED', params: { name: 'carol' }, message: 'Error registering name carol' }, details: 'carol.tessera.id is already registered' },
    })
    expect(router.store.getState().view).toBe('RegisterAccountName')
    // Suggestions arriving for the same name leave the reason shown.
    await names.suggest()
    expect(names.store.getState().error).toMatchObject({ reason: 'failed' })
    names.setName('carol2')
    expect(names.store.getState().error).toBeUndefined()
  })

  it('a declined signature says so by its code', async () => {
    const { names, walletRequest } = setup()
    walletRequest.mockRejectedValueOnce(createWidgetError('USER_REJECTED'))
    names.setName('dave')
    expect(await names.register()).toBe(false)
    expect(names.store.getState().error).toEqual({ reason: 'failed', error: { code: 'USER_REJECTED', message: 'User rejected the request.' }, details: undefined })
  })

  it('a failing suggestion service leaves no suggestions and no error', async () => {
    const { names } = setup({ getNameSuggestions: vi.fn().mockRejectedValue(createWidgetError('NAME_SUGGESTIONS_FAILED')) })
    names.setName('erin')
    await names.suggest()
    expect(names.store.getState()).toMatchObject({ suggestions: [], error: undefined })
  })
})
