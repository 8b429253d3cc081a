import { keccak256, stringToHex, type Hex } from 'viem'
import type { OnrampProviderConfig } from '../api/onramp/providers'
import { solanaDevKeys } from '../chain/solana/devKeys'
import { startOnrampSandbox } from '../onramp/server'
import type { StackChain, StackSolana } from './manifest'

/**
 * The local stack's on-ramp: our sandbox provider (services/onramp), as two partners with the spec's fee range (1 % and
 * 2 %) so the widget has quotes to set side by side, paying from dev treasuries on the first local EVM chain and the
 * local Solana chain, and reporting to the data service's webhook. Keys and secrets are TEST-ONLY, derived from
 * labels anyone can read: a real provider is configured with the site's own keys (README, "Buy").
 */
const testSecret = (label: string) => keccak256(stringToHex(`tessera local onramp ${label}`)).slice(2)

/** Anvil's dev account 9 (its published test mnemonic): the EVM treasury; no journey spends from it. */
const EVM_TREASURY_KEY: Hex = '0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6'

export type LocalOnramp = {
  /** The data service's `onramp.providers`. */
  providers: OnrampProviderConfig[]
  /** The sandbox's origin (its checkout page). */
  url: string
  stop: () => Promise<void>
}

export async function startLocalOnramp({ host, port, apiUrl, chain, solana, prices, log }: { host: string; port: number; apiUrl: string; chain: StackChain; solana: StackSolana | undefined; prices: Record<string, number>; log: (line: string) => void }): Promise<LocalOnramp> {
  const partners = [
    { id: 'sandbox', name: 'Tessera Sandbox', feePercent: 1 },
    { id: 'sandbox-express', name: 'Sandbox Express', feePercent: 2 },
  ].map((partner) => ({ ...partner, apiKey: testSecret(`${partner.id} api key`), webhookSecret: testSecret(`${partner.id} webhook secret`) }))
  const fiat = (usd: number) => ({ USD: usd, EUR: Math.round(usd * 0.92 * 100) / 100 })
  const tusd = chain.tokens.find((token) => token.symbol === 'TUSD')
  const sandbox = await startOnrampSandbox({
    host,
    port,
    partners: partners.map(({ id, name, feePercent, apiKey, webhookSecret }) => ({ name, feePercent, apiKey, webhookSecret, webhookUrl: `${apiUrl}/v1/onramp/webhooks/${id}` })),
    prices: { ETH: fiat(prices.ETH ?? 3_000), TUSD: fiat(prices.TUSD ?? 1), SOL: fiat(150) },
    assets: [
      { network: chain.caipNetworkId, symbol: 'ETH', name: 'Ether', decimals: 18, rpcUrl: chain.rpcUrl },
      ...(tusd ? [{ network: chain.caipNetworkId, symbol: 'TUSD', name: tusd.name, decimals: tusd.decimals, address: tusd.address, rpcUrl: chain.rpcUrl }] : []),
      ...(solana ? [{ network: solana.caipNetworkId, symbol: 'SOL', name: 'Solana', decimals: 9, rpcUrl: solana.rpcUrl }] : []),
    ],
    treasuries: { [chain.caipNetworkId]: EVM_TREASURY_KEY, ...(solana && { [solana.caipNetworkId]: Array.from(solanaDevKeys()[9]!.secretKey) }) },
  })
  log(`on-ramp sandbox on ${sandbox.url} (${partners.map((p) => `${p.name} ${p.feePercent} %`).join(', ')})`)
  return {
    providers: partners.map(({ id, name, apiKey, webhookSecret }) => ({ type: 'sandbox', id, name, url: sandbox.url, apiKey, webhookSecret })),
    url: sandbox.url,
    stop: sandbox.stop,
  }
}
