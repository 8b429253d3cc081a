import { Hono } from 'hono'
import * as z from 'zod/mini'
import { errorBody, type ApiConfig } from '../config'
import { validate } from './validate'

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

/** On-ramp (SPEC §7): options and quotes (samples and placeholder without a provider), and the provider's URL. */
export function onrampRoutes({ onramp }: ApiConfig) {
  const app = new Hono()
  app.get('/v1/onramp/options', (c) => c.json(sampleOnrampOptions))
  app.post('/v1/onramp/quote', async (c) => {
    const body = await validate(c, 'json', z.object({ purchaseCurrency: z.object({ id: z.string() }), paymentCurrency: z.object({ id: z.string() }), amount: z.string().check(z.regex(/^\d+(\.\d+)?$/, 'Expected a decimal amount')), network: z.string() }))
    if (!body.ok) return body.response
    return c.json(placeholderQuote(body.data.paymentCurrency.id, body.data.purchaseCurrency.id))
  })
  app.post('/v1/generators/onrampurl', async (c) => {
    const body = await validate(c, 'json', z.object({
      destinationWallets: z.array(z.object({ address: z.string(), blockchains: z.optional(z.array(z.string())), assets: z.optional(z.array(z.string())) })).check(z.minLength(1)),
      defaultNetwork: z.optional(z.string()),
      partnerUserId: z.string().check(z.minLength(1)),
      defaultExperience: z.optional(z.literal('buy')),
      presetCryptoAmount: z.optional(z.number()),
      presetFiatAmount: z.optional(z.number()),
    }))
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
