import type { StackBitcoin } from './manifest'

export type StartLocalBitcoinParameters = {
  host?: string
  port: number
  /** Seconds between blocks, like anvil's block time; 0 mines only on `mine()`. */
  blockTimeSeconds?: number
  /** Blocks mined at start, round-robin to the dev payment addresses; regtest activates SegWit at about 432. */
  startBlocks?: number
}

export type LocalBitcoin = {
  manifest: StackBitcoin
  /** Mines blocks now; for tests that should not wait for the timer. */
  mine: (blocks?: number) => Promise<string[]>
  stop: () => Promise<void>
}

/**
 * Starts the local Bitcoin chain (bcoin regtest in this process, behind an Esplora-style API) with 450 blocks paid
 * to the dev accounts' payment addresses, so each holds mature coins. Resolves to its manifest entry and its stop().
 * @example const bitcoin = await startLocalBitcoin({ port: 3002 })
 */
export async function startLocalBitcoin({ host = '127.0.0.1', port, blockTimeSeconds = 2, startBlocks = 450 }: StartLocalBitcoinParameters): Promise<LocalBitcoin> {
  // Loaded here, not at the top: bcoin is only paid for by stacks that run the chain.
  const [{ startBitcoinChain }, { BITCOIN_DEV_MNEMONIC, bitcoinMinerAddress, deriveBitcoinAccounts }] = await Promise.all([
    import('../chain/bitcoin/startBitcoinChain'),
    import('../chain/bitcoin/devKeys'),
  ])
  const devAccounts = deriveBitcoinAccounts()
  const bitcoin = await startBitcoinChain({
    host,
    port,
    blockIntervalMs: blockTimeSeconds * 1_000,
    coinbaseAddress: bitcoinMinerAddress(),
    premine: { blocks: startBlocks, addresses: devAccounts.map((account) => account.payment.address) },
  })
  return {
    manifest: {
      caipNetworkId: bitcoin.caipNetworkId,
      apiUrl: bitcoin.apiUrl,
      blockTimeSeconds: blockTimeSeconds > 0 ? blockTimeSeconds : null,
      mnemonic: BITCOIN_DEV_MNEMONIC,
      devAccounts,
    },
    mine: (blocks) => bitcoin.mine(blocks),
    stop: bitcoin.stop,
  }
}
