// A site on ethers 5: the signer and providers come from tessera/ethers5; the test drives `window.host`.
import { utils } from 'ethers'
import { createRoot } from 'react-dom/client'
import { ConnectButton, createWidget, WidgetModal, WidgetProvider } from 'tessera'
import { ethers5Adapter, getReadProvider, getSigner } from 'tessera/ethers5'
import { networks } from './network'

const widget = createWidget({ projectId: 'host', networks, adapters: [ethers5Adapter()] })
Object.assign(window, {
  host: {
    sdkVersion: widget.sdkVersion,
    async signAndSend(to: string) {
      const signer = await getSigner(widget)
      const signature = await signer.signMessage('hello from ethers 5')
      const receipt = await (await signer.sendTransaction({ to, value: utils.parseEther('0.01') })).wait()
      const balance = await getReadProvider(widget, { chainId: 31337 }).getBalance(to)
      return { address: await signer.getAddress(), verified: utils.verifyMessage('hello from ethers 5', signature) === (await signer.getAddress()), status: receipt.status, balance: balance.toString() }
    },
  },
})
createRoot(document.getElementById('root')!).render(<WidgetProvider widget={widget}><ConnectButton /><WidgetModal /></WidgetProvider>)
