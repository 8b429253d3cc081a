import { describe, expect, it } from 'vitest'
import { replaceEqualDeep } from './replaceEqualDeep'

describe('replaceEqualDeep', () => {
  it('returns prev when next is deeply equal', () => {
    const prev = { a: { b: [1, 2n, { c: 'x' }] }, d: null }
    expect(replaceEqualDeep(prev, structuredClone(prev))).toBe(prev)
  })

  it('keeps the identity of unchanged branches and replaces the changed ones', () => {
    const prev = { balances: { a: { value: 1n } }, blocks: { '1': 10n }, list: [{ id: 1 }, { id: 2 }] }
    const next = { balances: { a: { value: 1n } }, blocks: { '1': 11n }, list: [{ id: 1 }, { id: 3 }] }
    const result = replaceEqualDeep(prev, next)
    expect(result).toEqual(next)
    expect(result).not.toBe(prev)
    expect(result.balances).toBe(prev.balances)
    expect(result.blocks).not.toBe(prev.blocks)
    expect(result.list[0]).toBe(prev.list[0])
    expect(result.list[1]).not.toBe(prev.list[1])
  })

  it('notices added and removed keys', () => {
    const prev = { a: 1, b: 2 }
    expect(replaceEqualDeep(prev, { a: 1 })).toEqual({ a: 1 })
    expect(replaceEqualDeep(prev, { a: 1, b: 2, c: 3 })).toEqual({ a: 1, b: 2, c: 3 })
    expect(replaceEqualDeep(prev, { a: 1, c: 2 })).toEqual({ a: 1, c: 2 })
  })

  it('replaces across types', () => {
    expect(replaceEqualDeep([1], { 0: 1 })).toEqual({ 0: 1 })
    expect(replaceEqualDeep({ a: 1 }, 5)).toBe(5)
  })
})
