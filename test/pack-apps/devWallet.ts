// The dev wallet (anvil's unlocked accounts) for the host apps, which have no browser extension: bundled into an init
// script by test/e2e/hostApps.ts, configured by the global the script sets first.
import { announceProvider, createDevWallet, type DevWalletParameters } from '../../demo/devWallet/createDevWallet'

const config = (window as unknown as { tesseraDevWallet: Pick<DevWalletParameters, 'chains' | 'accounts'> }).tesseraDevWallet
const devWallet = createDevWallet({ ...config, storage: localStorage })
announceProvider(window, devWallet)
Object.assign(window, { devWallet })
