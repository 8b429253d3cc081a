import { Hono } from 'hono'
import * as z from 'zod/mini'
import { errorBody, type ApiConfig } from '../config'
import { text, validate } from './validate'

/** Built-in sample options (SPEC §8: used when no provider answers): card 10–7,500, bank account 10–25,000, USD and EUR. */
export const sampleOnrampOptions = {
  paymentCurrencies: [
    { id: 'USD', paymentMethodLimits: [{ id: 'card', min: '10.00', max: '7500.00' }, { id: 'ACH_BANK_ACCOUNT', min: '10.00', max: '25000.00' }] },
    { id: 'EUR', paymentMethodLimits: [{ id: 'card', min: '10.00', max: '7500.00' }, { id: 'SEPA_BANK_ACCOUNT', min: '10.00', max: '25000.00' }] },
  ],
  purchaseCurrencies: [
    { id: 'ETH', name: 'Ethereum', symbol: 'ETH', networks: [{ name: 'ethereum', display_name: 'Ethereum', chain_id: '1', contract_address: '' }] },
    { id: 'USDC', name: 'USD Coin', symbol: 'USDC', networks: [{ name: 'ethereum', display_name: 'Ethereum', chain_id: '1', contract_address: '0xa0b86991c6218b36c1d19d4a2e9eb0ce3606eb48' }] },
  ],
}

/** The placeholder quote (SPEC §8): zero amounts, so nothing looks like a real price. */
export const placeholderQuote = (currency: string, purchase: string) => ({
  paymentTotal: { value: '0', currency },
  paymentSubtotal: { value: '0', currency },
  purchaseAmount: { value: '0', currency: purchase },
  coinbaseFee: { value: '0', currency },
  networkFee: { value: '0', currency },
  quoteId: 'placeholder',
})

const currencyId = z.object({ id: text({ max: 16, min: 1, pattern: /^[A-Za-z0-9._-]+$/, patternMessage: 'Expected a currency id of letters and digits' }) })
const network = text({ max: 64 })
/** A preset amount: a plain non-negative number, at most 10^15 so it prints without an exponent. */
const presetAmount = z.number().check(z.gte(0, 'must be at least 0'), z.lte(1e15, 'must be at most 1000000000000000'))

const quoteSchema = z.object({
  purchaseCurrency: currencyId,
  paymentCurrency: currencyId,
  amount: text({ max: 32, pattern: /^\d{1,20}(\.\d{1,18})?$/, patternMessage: 'Expected a decimal amount' }),
  network,
})

const onrampUrlSchema = z.object({
  destinationWallets: z
    .array(z.object({ address: text({ max: 128, min: 1 }), blockchains: z.optional(z.array(network).check(z.maxLength(32, 'must have at most 32 items'))), assets: z.optional(z.array(text({ max: 16 })).check(z.maxLength(32, 'must have at most 32 items'))) }))
    .check(z.minLength(1, 'must have at least 1 wallet'), z.maxLength(10, 'must have at most 10 wallets')),
  defaultNetwork: z.optional(network),
  partnerUserId: text({ max: 128, min: 1 }),
  defaultExperience: z.optional(z.literal('buy')),
  presetCryptoAmount: z.optional(presetAmount),
  presetFiatAmount: z.optional(presetAmount),
})

/** On-ramp (SPEC §7): options and quotes (samples and placeholder without a provider), and the provider's URL. */
export function onrampRoutes({ onramp }: ApiConfig) {
  const app = new Hono()
  app.get('/v1/onramp/options', (c) => c.json(sampleOnrampOptions))
  app.post('/v1/onramp/quote', async (c) => {
    const body = await validate(c, 'json', quoteSchema)
    if (!body.ok) return body.response
    return c.json(placeholderQuote(body.data.paymentCurrency.id, body.data.purchaseCurrency.id))
  })
  app.post('/v1/generators/onrampurl', async (c) => {
    const body = await validate(c, 'json', onrampUrlSchema)
    if (!body.ok) return body.response
    if (!onramp) return c.json(errorBody('ONRAMP_NOT_CONFIGURED', 'No on-ramp provider is configured on this service', 'provider'), 400)
    const destination = body.data.destinationWallets[0]!
    const url = onramp.urlTemplate
      .replace('{address}', encodeURIComponent(destination.address))
      .replace('{network}', encodeURIComponent(body.data.defaultNetwork ?? ''))
      .replace('{amount}', encodeURIComponent(String(body.data.presetFiatAmount ?? body.data.presetCryptoAmount ?? '')))
      .replace('{partnerUserId}', encodeURIComponent(body.data.partnerUserId))
    return c.json({ url })
  })
  return app
}
