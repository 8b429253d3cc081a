import { describe, expect, it } from 'vitest'
import { discoverInjected, legacyInjectedInfo } from './discoverInjected'

const icon = 'data:image/svg+xml,%3Csvg/%3E'
const provider = () => ({ request: async () => null })
const info = (rdns: string, uuid = `${rdns}-uuid`) => ({ uuid, name: rdns, icon, rdns })

function announce(target: EventTarget, detail: unknown) {
  target.dispatchEvent(new CustomEvent('eip6963:announceProvider', { detail }))
}

describe('discoverInjected', () => {
  it('asks wallets to announce themselves and lists the ones that do', () => {
    const target = new EventTarget() as Window
    const a = provider()
    target.addEventListener('eip6963:requestProvider', () => announce(target, { info: info('io.a'), provider: a }))
    const discovery = discoverInjected(target)
    expect(discovery.getProviders()).toEqual([{ info: info('io.a'), provider: a, isAnnounced: true }])
  })

  it('includes late announcements and tells subscribers', () => {
    const target = new EventTarget() as Window
    const discovery = discoverInjected(target)
    const seen: string[][] = []
    discovery.subscribe((list) => seen.push(list.map((p) => p.info.rdns)))
    announce(target, { info: info('io.a'), provider: provider() })
    announce(target, { info: info('io.b'), provider: provider() })
    expect(seen).toEqual([['io.a'], ['io.a', 'io.b']])
  })

  it('keeps one entry per rdns, the latest announcement', () => {
    const target = new EventTarget() as Window
    const discovery = discoverInjected(target)
    const second = provider()
    announce(target, { info: info('io.a', '1'), provider: provider() })
    announce(target, { info: info('io.a', '2'), provider: second })
    expect(discovery.getProviders().map((p) => [p.info.uuid, p.provider])).toEqual([['2', second]])
  })

  it.each([
    ['no detail', null],
    ['no provider', { info: info('io.a') }],
    ['a provider without request', { info: info('io.a'), provider: {} }],
    ['an info without rdns', { info: { ...info('io.a'), rdns: '' }, provider: provider() }],
    ['an icon that is not a data: image', { info: { ...info('io.a'), icon: 'javascript:alert(1)' }, provider: provider() }],
  ])('ignores an announcement with %s', (_name, detail) => {
    const target = new EventTarget() as Window
    const discovery = discoverInjected(target)
    announce(target, detail)
    expect(discovery.getProviders()).toEqual([])
  })

  it('falls back to window.ethereum only while nothing announced itself', () => {
    const target = Object.assign(new EventTarget(), { ethereum: provider() }) as unknown as Window & { ethereum: unknown }
    const discovery = discoverInjected(target)
    expect(discovery.getProviders()).toEqual([{ info: legacyInjectedInfo, provider: target.ethereum, isAnnounced: false }])
    announce(target, { info: info('io.a'), provider: provider() })
    expect(discovery.getProviders().map((p) => p.info.rdns)).toEqual(['io.a'])
  })

  it('stops listening', () => {
    const target = new EventTarget() as Window
    const discovery = discoverInjected(target)
    discovery.stop()
    announce(target, { info: info('io.a'), provider: provider() })
    expect(discovery.getProviders()).toEqual([])
  })
})
