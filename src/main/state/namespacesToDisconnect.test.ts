import { describe, expect, it } from 'vitest'
import type { ConnectorType } from '../connectors/eip1193'
import { namespacesToDisconnect } from './namespacesToDisconnect'

const types: Record<string, ConnectorType> = { walletConnect: 'WALLET_CONNECT', 'io.metamask': 'ANNOUNCED', phantom: 'ANNOUNCED', auth: 'AUTH' }
const typeOf = (id: string) => types[id]

describe('which chains a disconnect ends (SPEC §4)', () => {
  it('ends every chain of a WalletConnect session, and no chain of another connector', () => {
    expect(namespacesToDisconnect('eip155', { eip155: 'walletConnect', solana: 'walletConnect', bip122: 'io.metamask' }, typeOf)).toEqual(['eip155', 'solana'])
  })
  it('ends every chain of the auth connector', () => {
    expect(namespacesToDisconnect('solana', { eip155: 'auth', solana: 'auth' }, typeOf)).toEqual(['solana', 'eip155'])
  })
  it('ends only the chain asked for with an injected wallet, even one connected on several chains', () => {
    expect(namespacesToDisconnect('eip155', { eip155: 'io.metamask', solana: 'phantom' }, typeOf)).toEqual(['eip155'])
    expect(namespacesToDisconnect('eip155', {}, typeOf)).toEqual(['eip155'])
  })
})
