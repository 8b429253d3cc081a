import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createStore } from 'zustand/vanilla'
import type { TokenBalance } from '../../../shared/protocol/schemas/entities'
import { initialSendState, type SendState } from '../../families/sendForm'
import type { SendController } from '../../families/types'
import { WidgetProvider } from '../../react/WidgetProvider'
import { createMemoryStorage, createWidgetStorage } from '../../storage/createWidgetStorage'
import { createWidget, type Widget } from '../../widget/createWidget'
import { TokenList } from './TokensView'

const local = { chainNamespace: 'eip155' as const, caipNetworkId: 'eip155:31337', id: 31337, name: 'Tessera Local', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } } }
const ether: TokenBalance = { name: 'Ether', symbol: 'ETH', chainId: 'eip155:31337', value: 3_703.5, price: 3_000, iconUrl: '', quantity: { decimals: '18', numeric: '1.2345' } }
const unpriced: TokenBalance = { name: 'Tessera Token', symbol: 'TSR', chainId: 'eip155:31337', address: 'eip155:31337:0x5FbDB2315678afecb367f032d93F642f64180aa3', value: 0, price: 0, iconUrl: '', quantity: { decimals: '18', numeric: '12345.6789' } }

const widgets: Widget[] = []
afterEach(() => widgets.splice(0).forEach((widget) => widget.destroy()))

async function render(state: Partial<SendState>, locale?: string) {
  const widget = createWidget({ projectId: 'tokens', networks: [local], locale, window: new EventTarget() as Window, storage: createWidgetStorage({ storage: createMemoryStorage() }) })
  widgets.push(widget)
  await widget.whenStarted()
  const send = { store: createStore<SendState>()(() => ({ ...initialSendState(), ...state })), loadTokenBalances: vi.fn(async () => {}) } as unknown as SendController
  return renderToStaticMarkup(createElement(WidgetProvider, { widget, children: createElement(TokenList, { send }) }))
}
const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim()

describe('the Tokens view', () => {
  it('lists each token, the most valuable first, with its balance (3 decimals) and, when priced, its value in dollars', async () => {
    const html = await render({ hasLoadedBalances: true, tokenBalances: [unpriced, ether] })
    expect(html).toContain('aria-label="Your tokens on Tessera Local"')
    expect(text(html)).toBe('ETH Ether 1.234 $3,703.50 TSR Tessera Token 12,345.678')
  })

  it('writes balances and values in the locale’s digits', async () => {
    expect(text(await render({ hasLoadedBalances: true, tokenBalances: [ether] }, 'fr'))).toBe('ETH Ether 1,234 3 703,50 $US')
  })

  it('shows the network’s currency with a skeleton while balances load, then says they could not be read, with a way to try again', async () => {
    const loading = await render({ hasLoadedBalances: false })
    expect(text(loading)).toBe('ETH Ether Loading balances…')
    expect(loading).toContain('aria-busy="true"')
    expect(loading).toContain('<span class="skeleton" aria-hidden="true"></span>')
    const failed = await render({ hasLoadedBalances: true, tokenBalances: [] })
    expect(text(failed)).toBe('Balances could not be read: the network did not answer. Try again')
    expect(failed).toContain('<button type="button" class="button">')
  })
})
