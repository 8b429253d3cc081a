import { describe, expect, it } from 'vitest'
import { renderCheckoutPage } from './checkoutPage'
import type { SandboxAsset, SandboxPartner } from './config'
import type { OrderRecord } from './orders'

const partner: SandboxPartner = { apiKeyDigest: '', name: 'Evil <img src=x onerror=alert(1)> & "Co"', feeBasisPoints: 150n, webhookUrl: 'http://127.0.0.1:1/', webhookSecret: 'x'.repeat(16) }
const asset: SandboxAsset = { network: 'eip155:31337', namespace: 'eip155', symbol: 'ETH', name: 'Ether', decimals: 18, rpcUrl: 'http://127.0.0.1:8545', prices: new Map() }
const order = (overrides: Partial<OrderRecord> = {}): OrderRecord => ({
  orderId: 'ord_1',
  partner,
  partnerOrderId: 'p1',
  partnerUserId: 'u1',
  redirectUrl: 'https://site.test/done?a=1&b="2"',
  asset,
  destination: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266',
  paymentCurrency: 'USD',
  paymentMethod: 'card',
  paymentTotalCents: 750_000n,
  providerFeeCents: 11_250n,
  networkFeeCents: 50n,
  purchaseAmount: '2.4625',
  purchaseBaseUnits: 2_462_500_000_000_000_000n,
  createdAt: 0,
  status: 'pending',
  ...overrides,
})
const render = (overrides: Partial<OrderRecord> = {}, form = {}) => renderCheckoutPage({ order: order(overrides), nonce: 'n0nce', pagePath: '/checkout/ord_1', form })

describe('renderCheckoutPage', () => {
  it('shows who is paid, what is paid and what is received, then a labelled card form, with every outside text escaped', () => {
    const html = render()
    expect(html).toContain('<html lang="en">')
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">')
    expect(html).toContain('<style nonce="n0nce">')
    expect(html).toContain('Evil &lt;img src=x onerror=alert(1)&gt; &amp; &quot;Co&quot;')
    expect(html).not.toMatch(/<img|<script/)
    expect(html).toMatch(/Total<\/dt><dd class="total">7,500\.00 USD/)
    expect(html).toMatch(/fee<\/dt><dd>112\.50 USD/)
    expect(html).toMatch(/Network fee<\/dt><dd>0\.50 USD/)
    expect(html).toContain('2.4625 ETH (Ether)')
    expect(html).toContain('<dd>Tessera Local</dd>')
    expect(html).toContain('<code title="0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266">0xf39F…2266</code>')
    expect(html).toContain('<form method="post" action="/checkout/ord_1/pay" novalidate>')
    for (const [id, label] of [['cardNumber', 'Card number'], ['expiry', 'Expiry (MM/YY)'], ['cvc', 'CVC'], ['name', 'Name on card']]) {
      expect(html).toContain(`<label for="${id}">${label}</label>`)
      expect(html).toContain(`<input id="${id}" name="${id}"`)
    }
    expect(html).toContain('autocomplete="cc-number"')
    expect(html).not.toContain('role="alert"')
    expect(html).not.toContain('http-equiv="refresh"')
  })

  it('shows the errors in an alert linking to each field, marks the fields, and keeps what was typed but the CVC', () => {
    const html = render({}, { errors: { cardNumber: 'The card number is not valid.', cvc: 'Enter the security code (CVC).' }, values: { cardNumber: '4242', name: '"><b>Ada</b>', expiry: '12/30' } })
    expect(html).toContain('<div class="alert" role="alert">')
    expect(html).toContain('<li><a href="#cardNumber">Card number</a>: The card number is not valid.</li>')
    expect(html).toContain('aria-invalid="true" aria-describedby="cardNumber-error"')
    expect(html).toContain('<p class="error" id="cvc-error">Enter the security code (CVC).</p>')
    expect(html).toContain('value="&quot;&gt;&lt;b&gt;Ada&lt;/b&gt;"')
    expect(html).toMatch(/id="cvc" name="cvc" [^>]*value=""/)
  })

  it('asks a bank order to confirm its transfer, with a button and no card field', () => {
    const html = render({ paymentMethod: 'bank' })
    expect(html).toContain('<button type="submit">Confirm the bank transfer</button>')
    expect(html).not.toContain('cardNumber')
  })

  it('once paid, shows the payment received and reloads itself (to the page, not the form) until the transfer lands', () => {
    const sending = render({ paidAt: 1 })
    expect(sending).toContain('<h1>Payment received</h1>')
    expect(sending).toContain('<meta http-equiv="refresh" content="2; url=/checkout/ord_1">')
    expect(sending).not.toContain('<form')
    const sent = render({ paidAt: 1, status: 'sent', txHash: '0xabc' })
    expect(sent).toContain('<strong>Sent:</strong>')
    expect(sent).toContain('<code>0xabc</code>')
    expect(sent).toContain('http-equiv="refresh"')
    const completed = render({ paidAt: 1, status: 'completed', txHash: '0xabc' })
    expect(completed).toContain('<strong>Completed:</strong> 2.4625 ETH arrived')
    expect(completed).toContain('<code>0xabc</code>')
    expect(completed).not.toContain('http-equiv="refresh"')
    expect(completed).toContain('<a href="https://site.test/done?a=1&amp;b=&quot;2&quot;">Return to the site</a>')
  })

  it('says why an order failed, in an alert, refunded when it had been paid', () => {
    const declined = render({ status: 'failed', failureReason: 'Your card was declined.' })
    expect(declined).toContain('<h1>Payment failed</h1>')
    expect(declined).toContain('<div class="alert" role="alert"><p>Your card was declined.</p>')
    expect(declined).not.toContain('<form')
    expect(render({ paidAt: 1, status: 'failed', failureReason: 'The transfer failed on chain, so the payment was refunded.' })).toContain('<h1>Payment refunded</h1>')
  })
})
