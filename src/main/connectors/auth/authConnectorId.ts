/** The auth connector's id (SPEC §3 connector type AUTH): e-mail and social logins share it. */
export const AUTH_CONNECTOR_ID = 'auth'

/** Whether the EVM account is the embedded wallet of an e-mail or social login (the secure frame's). */
export const isEmbeddedWalletAccount = (state: { namespaces: { eip155?: { connectorId: string | undefined } | undefined } }) => state.namespaces.eip155?.connectorId === AUTH_CONNECTOR_ID
