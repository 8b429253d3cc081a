import type { StackPolkadot } from './manifest'

export type StartLocalPolkadotParameters = {
  host?: string
  port: number
}

export type LocalPolkadot = {
  manifest: StackPolkadot
  /** The chopsticks process, for tests that check it is gone after stop(). */
  pid: number
  stop: () => Promise<void>
}

/**
 * Starts the local Polkadot-SDK chain (chopsticks with the Rococo Asset Hub runtime, a block per transaction) with the
 * six dev accounts funded. Resolves to its manifest entry and its stop().
 * @example const polkadot = await startLocalPolkadot({ port: 9944 })
 */
export async function startLocalPolkadot({ host = '127.0.0.1', port }: StartLocalPolkadotParameters): Promise<LocalPolkadot> {
  // Loaded here, not at the top: @polkadot/api is only paid for by stacks that run the chain.
  const { startPolkadotChain } = await import('../chain/polkadot/startPolkadotChain')
  const chain = await startPolkadotChain({ host, port })
  return {
    manifest: {
      caipNetworkId: chain.caipNetworkId,
      rpcUrl: chain.rpcUrl,
      httpUrl: chain.httpUrl,
      genesisHash: chain.genesisHash,
      chainName: chain.chainName,
      ss58Prefix: chain.ss58Prefix,
      token: chain.token,
      existentialDeposit: String(chain.existentialDeposit),
      blockBuildMode: 'instant',
      devAccounts: chain.devAccounts,
      fundedPlanck: String(chain.fundedPlanck),
    },
    pid: chain.pid,
    stop: chain.stop,
  }
}
