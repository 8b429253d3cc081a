import { describe, expect, it } from 'vitest'
import type { ConnectorSummary } from '../../widget/widgetState'
import { groupConnectors, memberFor } from './groupConnectors'

const connector = (name: string, namespace: ConnectorSummary['namespace'], id = `${namespace}:${name}`): ConnectorSummary => ({ id, name, imageUrl: undefined, type: 'ANNOUNCED', rdns: id, namespace })

describe('groupConnectors', () => {
  it('lists a wallet offering two families once, with both, in the order it first came', () => {
    const entries = groupConnectors([connector('Phantom', 'eip155'), connector('Dev', 'eip155'), connector('Phantom', 'solana'), connector('Solflare', 'solana')])
    expect(entries.map((e) => [e.name, e.members.map((m) => m.namespace)])).toEqual([
      ['Phantom', ['eip155', 'solana']],
      ['Dev', ['eip155']],
      ['Solflare', ['solana']],
    ])
  })

  it('connects the family the visitor is on when the wallet offers it, else its first', () => {
    const [phantom, solflare] = groupConnectors([connector('Phantom', 'eip155'), connector('Phantom', 'solana'), connector('Solflare', 'solana')])
    expect(memberFor(phantom!, 'solana').namespace).toBe('solana')
    expect(memberFor(phantom!, 'eip155').namespace).toBe('eip155')
    expect(memberFor(solflare!, 'eip155').namespace).toBe('solana')
  })
})
