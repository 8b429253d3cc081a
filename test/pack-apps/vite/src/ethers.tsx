// A site on ethers 6: the signer and providers come from tessera/ethers; the test drives `window.host`.
import { parseEther, verifyMessage } from 'ethers'
import { createRoot } from 'react-dom/client'
import { ConnectButton, createWidget, WidgetModal, WidgetProvider } from 'tessera'
import { ethersAdapter, getReadProvider, getSigner } from 'tessera/ethers'
import { networks } from './network'

const widget = createWidget({ projectId: 'host', networks, adapters: [ethersAdapter()] })
Object.assign(window, {
  host: {
    sdkVersion: widget.sdkVersion,
    async signAndSend(to: string) {
      const signer = await getSigner(widget)
      const signature = await signer.signMessage('hello from ethers 6')
      const receipt = await (await signer.sendTransaction({ to, value: parseEther('0.01') })).wait()
      const balance = await getReadProvider(widget, { chainId: 31337 }).getBalance(to)
      return { address: await signer.getAddress(), verified: verifyMessage('hello from ethers 6', signature) === (await signer.getAddress()), status: receipt?.status, balance: balance.toString() }
    },
    /** A raw JSON-RPC request through the signer's provider, as a site sends what ethers has no method for; the wallet's error code and message on failure. */
    async request(method: string, params: unknown[]) {
      const signer = await getSigner(widget)
      return signer.provider.send(method, params).then(
        (result: unknown) => ({ result }),
        (error: { code?: unknown; message?: string; info?: { error?: { code?: number; message?: string } } }) => ({ error: { code: error.info?.error?.code ?? error.code, message: error.info?.error?.message ?? error.message } }),
      )
    },
  },
})
createRoot(document.getElementById('root')!).render(<WidgetProvider widget={widget}><ConnectButton /><WidgetModal /></WidgetProvider>)
