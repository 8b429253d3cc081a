/** The WalletConnect connector's id (SPEC §9 connector order: walletConnect first). */
export const WALLET_CONNECT_ID = 'walletConnect'
