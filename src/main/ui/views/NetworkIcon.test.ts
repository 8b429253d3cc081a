import { createElement, type ReactElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { afterEach, describe, expect, it } from 'vitest'
import { WidgetProvider } from '../../react/WidgetProvider'
import { createMemoryStorage, createWidgetStorage } from '../../storage/createWidgetStorage'
import { createWidget, type Widget } from '../../widget/createWidget'
import { NetworkIcon, networkImageUrl } from './NetworkIcon'
import { badgeLetters, TokenIcon, tokenImageUrl } from './TokenIcon'
import { WalletIcon } from './WalletIcon'

const API = 'http://127.0.0.1:8787'
const ICON = 'data:image/svg+xml,%3Csvg%20xmlns%3D%22http%3A%2F%2Fwww.w3.org%2F2000%2Fsvg%22%2F%3E'
const local = { chainNamespace: 'eip155' as const, caipNetworkId: 'eip155:31337', id: 31337, name: 'Tessera Local', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: ['http://127.0.0.1:8545'] } } }

const widgets: Widget[] = []
afterEach(() => widgets.splice(0).forEach((widget) => widget.destroy()))
const widgetWith = async (services?: { api: string }) => {
  const widget = createWidget({ projectId: 'icons', networks: [local], services, window: new EventTarget() as Window, storage: createWidgetStorage({ storage: createMemoryStorage() }) })
  widgets.push(widget)
  await widget.whenStarted()
  return widget
}
const render = (widget: Widget, element: ReactElement) => renderToStaticMarkup(createElement(WidgetProvider, { widget, children: element }))
/** The `src` of the markup's image, decoded as a browser would read the attribute. */
const imageSrc = (html: string) => /<img[^>]* src="([^"]*)"/.exec(html)?.[1]?.replaceAll('&amp;', '&')

describe('network icons', () => {
  it("use the network's own image first, even with a data service", async () => {
    const widget = await widgetWith({ api: API })
    expect(imageSrc(render(widget, createElement(NetworkIcon, { network: { ...local, assets: { imageUrl: ICON } } })))).toBe(ICON)
  })

  it("else the data service's icon, named with the project and the SDK (SPEC §7)", async () => {
    const widget = await widgetWith({ api: `${API}/` })
    const src = imageSrc(render(widget, createElement(NetworkIcon, { network: local })))
    expect(src).toBe(`${API}/v1/assets/networks/eip155:31337?projectId=icons&st=tessera&sv=${encodeURIComponent(widget.sdkVersion)}`)
    expect(networkImageUrl(widget, { caipNetworkId: 'solana:CmpNeggWJ4JaWJeJ8YKN1Zypmk7uvQq3', name: 'Solana' })).toMatch(`${API}/v1/assets/networks/solana:CmpNeggWJ4JaWJeJ8YKN1Zypmk7uvQq3?`)
  })

  it('else a badge of the initials, never an image', async () => {
    const html = render(await widgetWith(), createElement(NetworkIcon, { network: local }))
    expect(html).not.toContain('<img')
    expect(html).toMatch(/^<span class="token-icon" data-generated="" data-letters="TL" aria-hidden="true" style="[^"]*"><\/span>$/)
  })

  it('never uses an image URL that is not http(s) or a data: image', async () => {
    const html = render(await widgetWith(), createElement(NetworkIcon, { network: { ...local, assets: { imageUrl: 'javascript:alert(1)' } } }))
    expect(html).not.toContain('<img')
    expect(html).not.toContain('javascript')
  })
})

describe('token images', () => {
  const source = { config: { projectId: 'icons', services: { api: API } }, sdkVersion: 'react-wagmi-0.2.0' }
  const query = '?projectId=icons&st=tessera&sv=react-wagmi-0.2.0'

  it.each([
    [{ caipNetworkId: 'eip155:1', symbol: 'ETH' }, `${API}/v1/assets/tokens/eip155:1/slip44:60${query}`],
    [{ caipNetworkId: 'solana:CmpNeggWJ4JaWJeJ8YKN1Zypmk7uvQq3', symbol: 'SOL' }, `${API}/v1/assets/tokens/solana:CmpNeggWJ4JaWJeJ8YKN1Zypmk7uvQq3/slip44:501${query}`],
    [{ caipNetworkId: 'eip155:31337', symbol: 'TSR', address: 'eip155:31337:0x5FbDB2315678afecb367f032d93F642f64180aa3' }, `${API}/v1/assets/tokens/eip155:31337/erc20:0x5FbDB2315678afecb367f032d93F642f64180aa3${query}`],
    [{ caipNetworkId: 'eip155:31337', symbol: 'TSR', address: '0x5FbDB2315678afecb367f032d93F642f64180aa3' }, `${API}/v1/assets/tokens/eip155:31337/erc20:0x5FbDB2315678afecb367f032d93F642f64180aa3${query}`],
    [{ caipNetworkId: 'solana:CmpNeggWJ4JaWJeJ8YKN1Zypmk7uvQq3', symbol: 'TUSD', address: 'Gh9ZwEmdLJ8DscKNTkTqPbNwLNNBjuSzaG9Vp2KGtKJr' }, `${API}/v1/assets/tokens/solana:CmpNeggWJ4JaWJeJ8YKN1Zypmk7uvQq3/token:Gh9ZwEmdLJ8DscKNTkTqPbNwLNNBjuSzaG9Vp2KGtKJr${query}`],
    [{ caipNetworkId: 'eip155:137', symbol: 'POL' }, undefined],
    [{ caipNetworkId: 'eip155:1', symbol: 'constructor' }, undefined],
  ])('%o → %s', (token, url) => {
    expect(tokenImageUrl(source, token)).toBe(url)
  })

  it('are not asked for without a data service', () => {
    expect(tokenImageUrl({ config: { projectId: 'icons' }, sdkVersion: 'x' }, { caipNetworkId: 'eip155:1', symbol: 'ETH' })).toBeUndefined()
  })

  it('fall back to a badge of the symbol', () => {
    expect(renderToStaticMarkup(createElement(TokenIcon, { symbol: 'TUSD' }))).toMatch(/^<span class="token-icon" data-generated="" data-letters="TU"[^>]*><\/span>$/)
  })
})

describe('wallet logos', () => {
  it('show the logo when it is a safe image', () => {
    expect(imageSrc(renderToStaticMarkup(createElement(WalletIcon, { src: ICON, name: 'Tessera Dev Wallet' })))).toBe(ICON)
  })

  it.each([undefined, 'javascript:alert(1)', 'data:text/html,<script>alert(1)</script>'])('show a badge of the initials instead of %s', (src) => {
    const html = renderToStaticMarkup(createElement(WalletIcon, { src, name: 'Tessera Dev Wallet' }))
    expect(html).not.toContain('<img')
    expect(html).toMatch(/^<span class="wallet-icon" data-generated="" data-letters="TD" aria-hidden="true" style="[^"]*"><\/span>$/)
  })

  it.each([
    ['Tessera Dev Wallet', 'TD'],
    ['MetaMask', 'ME'],
    ['  ', '?'],
    ['𝔘nicode wallet', '𝔘W'],
  ])('draw the initials of %j as %s', (name, letters) => {
    expect(badgeLetters(name)).toBe(letters)
  })
})
