'use client'
import { useEffect, useState } from 'react'
import { createWidget, WidgetModal, WidgetProvider } from 'tessera'

const network = (rpcUrl) => ({ chainNamespace: 'eip155', caipNetworkId: 'eip155:31337', id: 31337, name: 'Local', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [rpcUrl] } }, blockTime: 2_000 })

/** The widget lives on the client: one per page load, its URLs from the query (the test's local stack). */
export function Providers({ children }) {
  const [widget] = useState(() => {
    const query = new URLSearchParams(typeof location === 'undefined' ? '' : location.search)
    return createWidget({
      projectId: query.get('project') ?? 'host',
      networks: [network(query.get('rpc') ?? 'http://127.0.0.1:8545')],
      ...(query.get('api') ? { services: { api: query.get('api'), relay: query.get('relay') } } : {}),
    })
  })
  const [block, setBlock] = useState('starting')
  useEffect(() => {
    widget
      .whenStarted()
      .then(() => widget.core?.getBlockNumber({ chainId: 31337 }))
      .then((n) => setBlock(`block ${n}`), (e) => setBlock(`error ${e.code ?? e.message}`))
  }, [widget])
  return (
    <WidgetProvider widget={widget}>
      <p id="core">{block}</p>
      {children}
      <WidgetModal />
    </WidgetProvider>
  )
}
