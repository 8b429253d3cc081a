import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { createCore } from '../../src/main'
import { App } from './App'
import { stack } from './stack'

const core = createCore({
  blockPollingIntervalMs: 500,
  chains: stack.chains.map(({ chainId, name, rpcUrl, multicall3 }) => ({ chainId, name, rpcUrls: [rpcUrl], multicall3 })),
})

const root = document.getElementById('root')
if (!root) throw new Error('demo: #root is missing from index.html')
createRoot(root).render(
  <StrictMode>
    <App core={core} />
  </StrictMode>,
)
