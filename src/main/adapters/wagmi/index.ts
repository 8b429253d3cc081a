/** `tessera/wagmi`: wagmi sees the wallet connected in Tessera, and reads through Tessera's worker core. */
export { createWagmiAdapter, wagmiAdapter, type CreateWagmiAdapterParameters, type WagmiAdapter } from './createWagmiAdapter'
export { tessera, type TesseraParameters } from './tessera'
export { tesseraTransport, type TesseraTransport, type TesseraTransportParameters } from './tesseraTransport'
export { toWidgetNetwork } from './toWidgetNetwork'
export { createWidgetRef, type WidgetRef } from './widgetRef'
