import { describe, expect, it } from 'vitest'
import type { Transaction } from '../../../shared/protocol/schemas/entities'
import { clip, daysAgo, explorerTransactionUrl, formatActivityAmount, groupRowsByDay, toActivityRow, toActivityStatus, type ActivityRow } from './activityRows'

const me = '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266'
const bob = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8'
const hash = `0x${'ab'.repeat(32)}`

const entry = (metadata: Partial<Transaction['metadata']>, transfer: Partial<Transaction['transfers'][number]> = {}): Transaction => ({
  id: 'id',
  metadata: { operationType: 'send', hash, minedAt: '2026-03-03T10:00:00Z', sentFrom: me, sentTo: bob, status: 'confirmed', chain: 'eip155:1', ...metadata },
  transfers: [{ fungible_info: { symbol: 'TSR', icon: { url: 'https://icons.example/tsr.png' } }, quantity: { numeric: '1.5' }, ...transfer }],
})

describe('toActivityRow', () => {
  it.each([
    ['a send, by its transfer’s direction', entry({ sentToName: 'bob.tessera.id' }, { direction: 'out' }), 'out', { address: bob, name: 'bob.tessera.id' }],
    ['a receipt, by its transfer’s direction', entry({ sentFrom: bob, sentTo: me, sentFromName: null }, { direction: 'in' }), 'in', { address: bob, name: undefined }],
    ['a transfer to itself', entry({ sentTo: me.toLowerCase() }, { direction: 'self' }), 'self', undefined],
    ['a send without a direction: from the parties, whatever their case', entry({ sentFrom: me.toLowerCase() }, { direction: undefined }), 'out', { address: bob, name: undefined }],
    ['a receipt without a direction', entry({ sentFrom: bob, sentTo: me, operationType: 'receive' }, { direction: undefined }), 'in', { address: bob, name: undefined }],
    ['to itself without a direction', entry({ sentTo: me }, { direction: undefined }), 'self', undefined],
  ])('%s', (_name, tx, direction, counterparty) => {
    expect(toActivityRow(tx, me)).toMatchObject({ direction, counterparty, amount: '1.5', symbol: 'TSR', status: 'confirmed', hash, timeMs: Date.parse('2026-03-03T10:00:00Z') })
  })

  it('marks an on-ramp provider’s payment to the account as a purchase, and nothing else', () => {
    expect(toActivityRow(entry({ sentFrom: bob, sentTo: me, operationType: 'buy' }, { direction: 'in' }), me)?.isPurchase).toBe(true)
    expect(toActivityRow(entry({ sentFrom: bob, sentTo: me, operationType: 'receive' }, { direction: 'in' }), me)?.isPurchase).toBe(false)
    expect(toActivityRow(entry({ operationType: 'buy' }, { direction: 'out' }), me)?.isPurchase).toBe(false)
  })

  it('keeps the contract of a fungible transfer to find its image by; none for the network’s currency, an NFT, or what is not an address', () => {
    const tusd = '0x5FbDB2315678afecb367f032d93F642f64180aa3'
    const token = (implementations: { address?: string | null }[] | undefined) => entry({}, { fungible_info: { symbol: 'TUSD', ...(implementations && { implementations }) } })
    expect(toActivityRow(token([{ address: tusd }]), me)?.fungible).toEqual({ address: tusd })
    expect(toActivityRow(token([{ address: null }, { address: tusd.toLowerCase() }]), me)?.fungible).toEqual({ address: tusd.toLowerCase() })
    expect(toActivityRow(token([]), me)?.fungible).toEqual({ address: undefined })
    expect(toActivityRow(token(undefined), me)?.fungible).toEqual({ address: undefined })
    expect(toActivityRow(token([{ address: '../../v1/account/x' }, { address: `${tusd}00` }]), me)?.fungible).toEqual({ address: undefined })
    expect(toActivityRow(entry({}, { fungible_info: undefined, nft_info: { name: 'Punk' } }), me)?.fungible).toBeUndefined()
  })

  it('marks tokens made for the account (in from the zero address) as minted, with no one to name as their sender', () => {
    const zero = `0x${'0'.repeat(40)}`
    expect(toActivityRow(entry({ sentFrom: zero, sentTo: me, operationType: 'receive' }, { direction: 'in' }), me)).toMatchObject({ isMint: true, counterparty: undefined })
    expect(toActivityRow(entry({ sentFrom: bob, sentTo: me, operationType: 'receive' }, { direction: 'in' }), me)).toMatchObject({ isMint: false, counterparty: { address: bob } })
    // Sent to the zero address is a burn, shown as a send to it.
    expect(toActivityRow(entry({ sentTo: zero }, { direction: 'out' }), me)).toMatchObject({ isMint: false, counterparty: { address: zero } })
  })

  it('cuts absurd names, addresses and symbols, and drops an entry without a readable time', () => {
    const row = toActivityRow(entry({ sentTo: `0x${'f'.repeat(5_000)}`, sentToName: `${'n'.repeat(10_000)}.tessera.id` }, { fungible_info: { symbol: 'S'.repeat(1_000) } }), me)!
    expect(row.counterparty!.name).toHaveLength(64)
    expect(row.counterparty!.name!.endsWith('…')).toBe(true)
    expect(row.counterparty!.address).toHaveLength(64)
    expect(row.symbol).toHaveLength(16)
    expect(toActivityRow(entry({ minedAt: 'yesterday-ish' }), me)).toBeUndefined()
  })

  it('has no symbol or icon for a transfer of an unknown token, and none of an unsafe kind is invented', () => {
    expect(toActivityRow(entry({}, { fungible_info: undefined }), me)).toMatchObject({ symbol: '', iconUrl: undefined })
  })
})

describe('toActivityStatus', () => {
  it.each([
    ['confirmed', 'confirmed'],
    ['success', 'confirmed'],
    ['Failed', 'failed'],
    ['reverted', 'failed'],
    ['pending', 'pending'],
    ['whatever', 'pending'],
  ])('%s → %s', (status, expected) => expect(toActivityStatus(status)).toBe(expected))
})

describe('formatActivityAmount', () => {
  it.each([
    ['en', '1.5', '1.5'],
    ['en', '1.500', '1.5'],
    ['en', '2', '2'],
    ['en', '0', '0'],
    ['en', '1234.56789', '1,234.567'],
    ['fr', '1234.56789', '1\u202f234,567'],
    ['en', '0.0009', '< 0.001'],
    ['fr', '0.0009', '< 0,001'],
    ['en', '0.000', '0'],
    ['en', '999999999.9999', '999,999,999.999'],
    ['en', '1999999999', '1.99B'],
    ['en', `1${'0'.repeat(60)}.5`, '1E60'],
    ['en', `123456${'0'.repeat(60)}`, '1.234E65'],
    ['en', '-1.5', '1.5'],
    ['en', 'NaN', 'NaN'],
    ['en', 'x'.repeat(100), 'x'.repeat(15) + '…'],
  ])('%s %s → %s', (locale, value, expected) => expect(formatActivityAmount(locale, value)).toBe(expected))
})

describe('explorerTransactionUrl', () => {
  it('links a real hash on a configured explorer, once with a trailing slash', () => {
    expect(explorerTransactionUrl('https://scan.example/', hash)).toBe(`https://scan.example/tx/${hash}`)
    expect(explorerTransactionUrl('https://scan.example', hash)).toBe(`https://scan.example/tx/${hash}`)
  })
  it('gives no link without an explorer or with something that is not a transaction hash', () => {
    expect(explorerTransactionUrl(undefined, hash)).toBeUndefined()
    expect(explorerTransactionUrl('https://scan.example', '0x12')).toBeUndefined()
    expect(explorerTransactionUrl('https://scan.example', `../../${hash}`)).toBeUndefined()
  })
})

describe('groupRowsByDay', () => {
  const row = (id: string, date: Date): ActivityRow => ({ id, hash, direction: 'out', counterparty: undefined, amount: '1', symbol: 'ETH', iconUrl: undefined, fungible: { address: undefined }, status: 'confirmed', timeMs: date.getTime(), isPurchase: false, isMint: false })
  it('groups by local calendar day, newest first, and counts days back from today', () => {
    const now = new Date(2026, 2, 3, 0, 30).getTime()
    const groups = groupRowsByDay([row('a', new Date(2026, 2, 2, 23, 50)), row('b', new Date(2026, 2, 3, 0, 10)), row('c', new Date(2026, 1, 20, 12)), row('d', new Date(2026, 2, 3, 0, 20))])
    expect(groups.map((g) => [daysAgo(g.dayStartMs, now), g.rows.map((r) => r.id)])).toEqual([
      [0, ['d', 'b']],
      [1, ['a']],
      [11, ['c']],
    ])
  })
})

describe('clip', () => {
  it('keeps short text, and cuts whole code points', () => {
    expect(clip('alice.tessera.id')).toBe('alice.tessera.id')
    expect(clip('😀'.repeat(10), 4)).toBe('😀😀😀…')
  })
})
