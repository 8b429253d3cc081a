import { beforeAll, describe, expect, it } from 'vitest'
import { loadLocale } from '../i18n/loadLocale'
import { translate } from '../i18n/translate'
import { receiverIssueText } from './receiverIssueText'

const say = (locale: string, namespace: string, network: string) => receiverIssueText((key, params) => translate(locale, key, params), namespace, network, { reason: 'badAddress' })

describe('receiverIssueText', () => {
  beforeAll(() => loadLocale('fr'))
  it.each([
    ['eip155', 'Tessera Local', 'Not a valid address on Tessera Local: enter an address (0x…) or a registered name', 'Adresse non valide sur Tessera Local : saisissez une adresse (0x…) ou un nom enregistré'],
    ['solana', 'Solana Local', 'Not a valid address on Solana Local', 'Adresse non valide sur Solana Local'],
    ['bip122', 'Bitcoin Local', 'Not a valid address on Bitcoin Local', 'Adresse non valide sur Bitcoin Local'],
    ['polkadot', 'Polkadot Local', 'Not a valid address on Polkadot Local', 'Adresse non valide sur Polkadot Local'],
  ])('says that what was typed is not an address of the %s network, naming it, in English and French', (namespace, network, english, french) => {
    expect(say('en', namespace, network)).toBe(english)
    expect(say('fr', namespace, network)).toBe(french)
  })

  it('says the other issues in their own sentences', () => {
    const t = (key: Parameters<typeof translate>[1], params?: Record<string, string>) => translate('en', key, params)
    expect(receiverIssueText(t, 'eip155', 'Tessera Local', { reason: 'badChecksum' })).toBe('This address has a typo: its capital letters do not match its checksum')
    expect(receiverIssueText(t, 'eip155', 'Tessera Local', { reason: 'unknownName', name: 'bob.tessera.id' })).toBe('No account is registered as bob.tessera.id')
  })
})
