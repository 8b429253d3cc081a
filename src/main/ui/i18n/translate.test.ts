import { describe, expect, it } from 'vitest'
import { en } from './en'
import { fr } from './fr'
import { pickLocale, translate } from './translate'

describe('translation', () => {
  it('has every English key in French, and nothing more', () => {
    expect(Object.keys(fr).sort()).toEqual(Object.keys(en).sort())
  })

  it('keeps the same placeholders in every locale', () => {
    const placeholders = (s: string) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort()
    for (const key of Object.keys(en) as (keyof typeof en)[]) expect(placeholders(fr[key])).toEqual(placeholders(en[key]))
  })

  it.each([
    ['fr-CA', 'fr'],
    ['FR', 'fr'],
    ['de-DE', 'en'],
    [undefined, 'en'],
  ])('picks %s → %s', (locale, expected) => expect(pickLocale(locale)).toBe(expected))

  it('fills placeholders with text', () => {
    expect(translate('en', 'view.ConnectingExternal', { wallet: '<b>Dev</b>' })).toBe('Continue in <b>Dev</b>')
    expect(translate('fr', 'connecting.prompt', { wallet: 'Dev' })).toBe('Acceptez la demande de connexion dans Dev.')
  })
})
