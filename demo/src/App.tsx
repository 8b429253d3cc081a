import { useEffect, useState } from 'react'
import { erc20Abi, formatUnits } from 'viem'
import { ConnectButton, NetworkButton, useWidget, useWidgetState, type Core } from '../../src/main'
import { stack } from './stack'

type TokenBalance = { symbol: string; decimals: number; value: bigint }

function useCoreStatus(core: Core) {
  const [status, setStatus] = useState<'starting' | 'ready' | 'failed'>('starting')
  useEffect(() => {
    core.ping().then(
      ({ isWorker }) => setStatus(isWorker ? 'ready' : 'failed'),
      () => setStatus('failed'),
    )
  }, [core])
  return status
}

function useBlockNumber(core: Core, chainId: number) {
  const [blockNumber, setBlockNumber] = useState<bigint>()
  useEffect(() => core.watchBlockNumber({ chainId }, setBlockNumber), [core, chainId])
  return blockNumber
}

function useTokenBalance(core: Core, chainId: number, token: { address: `0x${string}` }, owner: `0x${string}`) {
  const [balance, setBalance] = useState<TokenBalance | Error>()
  useEffect(() => {
    const contract = { address: token.address, abi: erc20Abi }
    core
      .multicall({
        chainId,
        contracts: [
          { ...contract, functionName: 'symbol' },
          { ...contract, functionName: 'decimals' },
          { ...contract, functionName: 'balanceOf', args: [owner] },
        ],
      })
      .then(([symbol, decimals, value]) => {
        if (symbol?.status !== 'success' || decimals?.status !== 'success' || value?.status !== 'success') {
          throw new Error('a token read failed')
        }
        setBalance({ symbol: symbol.result as string, decimals: Number(decimals.result), value: value.result as bigint })
      })
      .catch((error: Error) => setBalance(error))
  }, [core, chainId, token.address, owner])
  return balance
}

export function App() {
  const widget = useWidget()
  // The widget's core is there once it has started (its code loads after the page's first frame).
  const isStarted = useWidgetState((s) => s.isStarted)
  return (
    <main style={{ maxWidth: 960, margin: '0 auto', padding: '0 16px', fontFamily: 'system-ui, sans-serif' }}>
      {/* On a phone the title and the buttons wrap onto lines of their own: nothing scrolls sideways. */}
      <header style={{ display: 'flex', flexWrap: 'wrap', justifyContent: 'space-between', alignItems: 'center', gap: '8px 16px', padding: '12px 0' }}>
        <h1 style={{ margin: 0, fontSize: 'clamp(20px, 5vw, 28px)' }}>Tessera demo dApp</h1>
        <div style={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 8, minWidth: 0 }}>
          <NetworkButton />
          <ConnectButton />
        </div>
      </header>
      {isStarted ? <CoreSection core={widget.core} /> : null}
    </main>
  )
}

function CoreSection({ core }: { core: Core | undefined }) {
  if (!core) throw new Error('demo: this browser has no Web Workers')
  const chain = stack.chains[0]
  const owner = stack.devAccounts[0]
  if (!chain || !owner) throw new Error('demo: the stack manifest has no chain or dev account')
  const token = chain.tokens[0]
  if (!token) throw new Error('demo: the stack manifest has no demo token')

  const status = useCoreStatus(core)
  const blockNumber = useBlockNumber(core, chain.chainId)
  const balance = useTokenBalance(core, chain.chainId, token, owner)

  return (
    <section aria-labelledby="core-heading">
      <h2 id="core-heading">Chain data from the Tessera core</h2>
      <dl>
        <dt>Core worker</dt>
        <dd aria-label="Core worker">{status}</dd>
        <dt>Network</dt>
        <dd>
          {chain.name} ({chain.caipNetworkId})
        </dd>
        <dt>Block number</dt>
        <dd aria-label="Block number">{blockNumber === undefined ? 'loading' : blockNumber.toString()}</dd>
        <dt>Account</dt>
        <dd aria-label="Account" style={{ overflowWrap: 'anywhere' }}>
          {owner}
        </dd>
        <dt>{token.symbol} balance</dt>
        <dd aria-label="Token balance">
          {balance === undefined
            ? 'loading'
            : balance instanceof Error
              ? `unavailable: ${balance.message}`
              : `${formatUnits(balance.value, balance.decimals)} ${balance.symbol}`}
        </dd>
      </dl>
    </section>
  )
}
