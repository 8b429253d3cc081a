import { getKnownNetwork } from '../../src/shared/protocol/networks'
import { escapeHtml } from '../auth/renderPage'
import { formatFiat, groupThousands } from './amounts'
import type { CardField } from './cards'
import type { OrderRecord } from './orders'

/** How often the confirmation step reloads itself while the transfer is on its way. */
export const CHECKOUT_REFRESH_SECONDS = 2

/**
 * The headers of every checkout page: nothing loads from anywhere (no script at all), the one style block by its
 * nonce, the form posts to this origin only, no page may frame it (clickjacking a payment form), no referrer leaks the
 * order's URL.
 */
export const checkoutPageHeaders = (nonce: string) => ({
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': `default-src 'none'; style-src 'nonce-${nonce}'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
})

/** A fiat amount as a person reads it: '7,500.00'. */
const fiat = (cents: bigint) => groupThousands(formatFiat(cents))

/** An address cut to its ends for reading; the page shows it whole on hover. */
const shorten = (text: string) => (text.length > 14 ? `${text.slice(0, 6)}…${text.slice(-4)}` : text)

function layout({ title, nonce, body, refresh }: { title: string; nonce: string; body: string; refresh?: { seconds: number; url: string } }) {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${refresh ? `<meta http-equiv="refresh" content="${refresh.seconds}; url=${escapeHtml(refresh.url)}">\n` : ''}<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style nonce="${escapeHtml(nonce)}">
*{box-sizing:border-box}
body{font:16px/1.45 system-ui,sans-serif;margin:0;padding:1rem;color:#1b1b1f;background:#f4f4f6}
main{max-width:28rem;margin:0 auto;background:#fff;border:1px solid #ddd;border-radius:12px;padding:1.25rem}
h1{font-size:1.35rem;margin:.25rem 0}
h2{font-size:1rem;margin:1.25rem 0 .5rem}
.badge{display:inline-block;margin:0;padding:.1rem .5rem;border-radius:999px;background:#fff3bf;color:#5c4400;font-size:.8rem;font-weight:600}
dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem .75rem;margin:0}
dt{color:#555}
dd{margin:0;text-align:right;overflow-wrap:anywhere}
.total{font-weight:700}
label{display:block;margin:.85rem 0 .25rem;font-weight:600}
input{width:100%;padding:.6rem;font:inherit;border:1px solid #888;border-radius:6px}
input[aria-invalid=true]{border-color:#b00020;border-width:2px}
.row{display:grid;grid-template-columns:1fr 1fr;gap:.75rem}
button{width:100%;font:inherit;font-weight:600;padding:.75rem 1rem;margin-top:1.25rem;border-radius:8px;border:1px solid #3b5bdb;background:#3b5bdb;color:#fff;cursor:pointer}
button:focus-visible,input:focus-visible,a:focus-visible{outline:3px solid #1c7ed6;outline-offset:2px}
.error{color:#b00020;font-weight:600;margin:.25rem 0 0}
.alert{border:2px solid #b00020;border-radius:8px;padding:.5rem .75rem;margin:1rem 0;color:#7a0016;background:#fff5f5}
.alert p,.alert ul{margin:.25rem 0}
.alert a{color:#7a0016}
.status{border:1px solid #ccc;border-radius:8px;padding:.5rem .75rem;margin:1rem 0}
.hint{color:#555;font-size:.875rem}
code{font:.875rem ui-monospace,monospace;overflow-wrap:anywhere}
</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`
}

/** What is paid and what is received, as every step of the page shows it. */
function summary(order: OrderRecord) {
  const currency = escapeHtml(order.paymentCurrency)
  const networkName = getKnownNetwork(order.asset.network)?.name ?? order.asset.network
  return `<h2>You pay</h2>
<dl>
<dt class="total">Total</dt><dd class="total">${fiat(order.paymentTotalCents)} ${currency}</dd>
<dt>${escapeHtml(order.partner.name)} fee</dt><dd>${fiat(order.providerFeeCents)} ${currency}</dd>
<dt>Network fee</dt><dd>${fiat(order.networkFeeCents)} ${currency}</dd>
<dt>Payment method</dt><dd>${order.paymentMethod === 'card' ? 'Card' : 'Bank transfer'}</dd>
</dl>
<h2>You receive</h2>
<dl>
<dt>Amount</dt><dd>${escapeHtml(order.purchaseAmount)} ${escapeHtml(order.asset.symbol)} (${escapeHtml(order.asset.name)})</dd>
<dt>Network</dt><dd>${escapeHtml(networkName)}</dd>
<dt>To</dt><dd><code title="${escapeHtml(order.destination)}">${escapeHtml(shorten(order.destination))}</code></dd>
</dl>`
}

const header = (order: OrderRecord, heading: string) => `<p class="badge">Sandbox: test payments only</p>
<h1>${escapeHtml(heading)}</h1>
<p>with <strong>${escapeHtml(order.partner.name)}</strong></p>`

const returnLink = (order: OrderRecord) => (order.redirectUrl ? `<p><a href="${escapeHtml(order.redirectUrl)}">Return to the site</a></p>` : '')

const fieldLabels: Record<CardField, string> = { cardNumber: 'Card number', expiry: 'Expiry (MM/YY)', cvc: 'CVC', name: 'Name on card' }

export type CheckoutFormState = {
  /** A sentence per field at fault. */
  errors?: Partial<Record<CardField, string>>
  /** A sentence about the whole form (a card refused, an order already paid). */
  alert?: string
  /** What the visitor typed, shown again (never the CVC). */
  values?: Partial<Record<Exclude<CardField, 'cvc'>, string>>
}

function cardForm(order: OrderRecord, pagePath: string, { errors = {}, alert, values = {} }: CheckoutFormState) {
  const messages = Object.entries(errors) as [CardField, string][]
  const alertBlock =
    alert || messages.length > 0
      ? `<div class="alert" role="alert">${alert ? `<p>${escapeHtml(alert)}</p>` : ''}${
          messages.length > 0 ? `<p>Check the card details:</p><ul>${messages.map(([field, message]) => `<li><a href="#${field}">${escapeHtml(fieldLabels[field])}</a>: ${escapeHtml(message)}</li>`).join('')}</ul>` : ''
        }</div>`
      : ''
  const input = (field: CardField, attributes: string, value = '') => {
    const error = errors[field]
    return `<label for="${field}">${escapeHtml(fieldLabels[field])}</label>
<input id="${field}" name="${field}" ${attributes} value="${escapeHtml(value)}"${error ? ` aria-invalid="true" aria-describedby="${field}-error"` : ''} required>
${error ? `<p class="error" id="${field}-error">${escapeHtml(error)}</p>` : ''}`
  }
  return `${alertBlock}<h2>Pay by card</h2>
<p class="hint">Test cards: 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined; any future expiry and CVC.</p>
<form method="post" action="${escapeHtml(pagePath)}/pay" novalidate>
${input('cardNumber', 'type="text" inputmode="numeric" autocomplete="cc-number" maxlength="23"', values.cardNumber)}
<div class="row"><div>
${input('expiry', 'type="text" inputmode="numeric" autocomplete="cc-exp" placeholder="MM/YY" maxlength="7"', values.expiry)}
</div><div>
${input('cvc', 'type="text" inputmode="numeric" autocomplete="cc-csc" maxlength="4"')}
</div></div>
${input('name', 'type="text" autocomplete="cc-name" maxlength="100"', values.name)}
<button type="submit">Pay ${fiat(order.paymentTotalCents)} ${escapeHtml(order.paymentCurrency)}</button>
</form>`
}

function bankForm(order: OrderRecord, pagePath: string, { alert }: CheckoutFormState) {
  return `${alert ? `<div class="alert" role="alert"><p>${escapeHtml(alert)}</p></div>` : ''}<h2>Pay by bank transfer</h2>
<p>In this sandbox no money moves: confirming stands for a transfer of ${fiat(order.paymentTotalCents)} ${escapeHtml(order.paymentCurrency)} that has arrived.</p>
<form method="post" action="${escapeHtml(pagePath)}/pay">
<button type="submit">Confirm the bank transfer</button>
</form>`
}

/** The confirmation step, once paid: where the transfer is, until it lands or fails. */
function progress(order: OrderRecord) {
  const amount = `${escapeHtml(order.purchaseAmount)} ${escapeHtml(order.asset.symbol)}`
  const transaction = order.txHash ? `<p>Transaction: <code>${escapeHtml(order.txHash)}</code></p>` : ''
  const status =
    order.status === 'completed'
      ? `<p><strong>Completed:</strong> ${amount} arrived at <code title="${escapeHtml(order.destination)}">${escapeHtml(shorten(order.destination))}</code>.</p>`
      : order.status === 'sent'
        ? `<p><strong>Sent:</strong> ${amount} is on its way; waiting for the network to confirm it.</p>`
        : `<p><strong>Sending</strong> ${amount}…</p>`
  return `<div class="status" role="status" aria-live="polite">${status}${transaction}</div>`
}

/**
 * The checkout page of an order, at its step: the form (card or bank transfer) while it waits for payment, the
 * confirmation step once paid (reloading itself every few seconds until the transfer lands), or why it failed. All
 * outside text (the partner's name, the destination, what the visitor typed) is escaped.
 * @example c.body(renderCheckoutPage({ order, nonce, pagePath: `/checkout/${order.orderId}` }), 200, checkoutPageHeaders(nonce))
 */
export function renderCheckoutPage({ order, nonce, pagePath, form = {} }: { order: OrderRecord; nonce: string; /** The page's own path, which its form posts to (plus /pay) and its refresh reloads. */ pagePath: string; form?: CheckoutFormState }): string {
  const buying = `Buy ${order.purchaseAmount} ${order.asset.symbol}`
  if (order.status === 'failed') {
    return layout({
      title: `Payment failed: ${buying}`,
      nonce,
      body: `${header(order, order.paidAt ? 'Payment refunded' : 'Payment failed')}
<div class="alert" role="alert"><p>${escapeHtml(order.failureReason ?? 'The order failed.')}</p>${form.alert ? `<p>${escapeHtml(form.alert)}</p>` : ''}</div>
${summary(order)}
${returnLink(order)}`,
    })
  }
  if (order.paidAt !== undefined) {
    const isFinal = order.status === 'completed'
    return layout({
      title: `Payment received: ${buying}`,
      nonce,
      ...(isFinal ? {} : { refresh: { seconds: CHECKOUT_REFRESH_SECONDS, url: pagePath } }),
      body: `${header(order, 'Payment received')}
${form.alert ? `<div class="alert" role="alert"><p>${escapeHtml(form.alert)}</p></div>` : ''}${progress(order)}
${summary(order)}
${returnLink(order)}`,
    })
  }
  return layout({
    title: buying,
    nonce,
    body: `${header(order, buying)}
${summary(order)}
${order.paymentMethod === 'card' ? cardForm(order, pagePath, form) : bankForm(order, pagePath, form)}`,
  })
}

/** The page of an order the sandbox does not know (never made, or dropped long after it finished). */
export const renderMissingOrderPage = ({ nonce }: { nonce: string }) =>
  layout({
    title: 'Checkout not found',
    nonce,
    body: `<h1>Checkout not found</h1>
<p role="alert">This checkout does not exist, or it finished long ago. Go back to the site and start the purchase again.</p>`,
  })

/** The page of a form too large to be one of ours. */
export const renderTooLargePage = ({ nonce }: { nonce: string }) =>
  layout({
    title: 'Form too large',
    nonce,
    body: `<h1>Form too large</h1>
<p role="alert">The form sent is larger than a checkout form can be. Go back and try again.</p>`,
  })
