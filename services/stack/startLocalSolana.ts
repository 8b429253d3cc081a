import type { StackSolana } from './manifest'

export type StartLocalSolanaParameters = { host?: string; port: number; wsPort: number }

export type LocalSolana = { manifest: StackSolana; stop: () => Promise<void> }

/**
 * Starts the local Solana chain (LiteSVM behind JSON-RPC and PubSub, in this process) and seeds it:
 * SOL and the TUSD token for the dev keys. Resolves to its manifest entry and its stop().
 * @example const solana = await startLocalSolana({ port: 8899, wsPort: 8900 })
 */
export async function startLocalSolana({ host = '127.0.0.1', port, wsPort }: StartLocalSolanaParameters): Promise<LocalSolana> {
  // Loaded here, not at the top: @solana/kit and the native binding are only paid for by stacks that run the chain.
  const [{ startSolanaChain }, { seedSolana, solanaDemoToken }] = await Promise.all([
    import('../chain/solana/startSolanaChain'),
    import('../chain/solana/seedSolana'),
  ])
  const solana = await startSolanaChain({ host, port, wsPort })
  try {
    const seeded = await seedSolana({ rpcUrl: solana.rpcUrl })
    return {
      manifest: {
        // CAIP-2 for Solana: the genesis hash (what getGenesisHash answers) cut to 32 characters.
        caipNetworkId: `solana:${solana.chain.genesisHash.slice(0, 32)}`,
        rpcUrl: solana.rpcUrl,
        wsUrl: solana.wsUrl,
        devAccounts: seeded.devAccounts,
        mint: { address: seeded.mint, symbol: solanaDemoToken.symbol, decimals: seeded.decimals },
      },
      stop: solana.stop,
    }
  } catch (error) {
    await solana.stop()
    throw error
  }
}
