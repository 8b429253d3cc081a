// The dev wallet (anvil's unlocked accounts) for the host apps, which have no browser extension: bundled into an init
// script by test/e2e/hostApps.ts, configured by the global the script sets first.
import { announceProvider, createDevWallet, type DevWalletParameters } from '../../demo/devWallet/createDevWallet'

const config = (window as unknown as { tesseraDevWallet: Pick<DevWalletParameters, 'chains' | 'accounts'> }).tesseraDevWallet
announceProvider(window, createDevWallet({ ...config, storage: localStorage }))
