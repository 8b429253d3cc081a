import { describe, expect, it } from 'vitest'
import { isPairingExpired, parseWalletLink, reusesPairing, walletDeepLink } from './walletLinks'

const uri = 'wc:7f6e@2?relay-protocol=irn&symKey=587d'

describe('wallet links', () => {
  it.each([
    ['samplewallet://', 'samplewallet://wc?uri=wc%3A7f6e%402%3Frelay-protocol%3Dirn%26symKey%3D587d'],
    ['samplewallet://app', 'samplewallet://app/wc?uri=wc%3A7f6e%402%3Frelay-protocol%3Dirn%26symKey%3D587d'],
    ['samplewallet:', 'samplewallet://wc?uri=wc%3A7f6e%402%3Frelay-protocol%3Dirn%26symKey%3D587d'],
    ['https://wallet.example.org', 'https://wallet.example.org/wc?uri=wc%3A7f6e%402%3Frelay-protocol%3Dirn%26symKey%3D587d'],
    ['https://wallet.example.org/app/', 'https://wallet.example.org/app/wc?uri=wc%3A7f6e%402%3Frelay-protocol%3Dirn%26symKey%3D587d'],
  ])('hands the pairing URI to %s', (link, expected) => {
    expect(walletDeepLink(link, uri)).toBe(expected)
  })

  it.each([null, undefined, '', 'javascript:alert(1)', 'JavaScript://%0aalert(1)', 'data:text/html,<b>x</b>', 'http://wallet.example.org', 'not a link', 'file:///etc/passwd', 'vbscript:x'])(
    'refuses %s from the registry',
    (link) => {
      expect(parseWalletLink(link)).toBeUndefined()
      expect(walletDeepLink(link, uri)).toBeUndefined()
    },
  )

  it.each([
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1', true],
    ['Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/123.0 Mobile/15E148 Safari/604.1', false],
    ['Mozilla/5.0 (Linux; Android 14) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/123.0 Mobile Safari/537.36 Telegram-Android/10.9.1', true],
    ['Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0 Safari/537.36', false],
  ])('reuses the pairing on %s: %s', (userAgent, expected) => {
    expect(reusesPairing(userAgent)).toBe(expected)
  })

  it('counts a pairing as expired at 10 s or less left', () => {
    expect(isPairingExpired(100_000, 89_999)).toBe(false)
    expect(isPairingExpired(100_000, 90_000)).toBe(true)
    expect(isPairingExpired(100_000, 120_000)).toBe(true)
  })
})
