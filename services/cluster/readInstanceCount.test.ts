import { describe, expect, it } from 'vitest'
import { readInstanceCount } from './readInstanceCount'

describe('readInstanceCount', () => {
  it.each([
    [[], 1],
    [['--instances', '3'], 3],
    [['--instances=2'], 2],
    [['--instances', '1'], 1],
    [['--instances', '32'], 32],
  ])('reads %j as %i', (args, count) => {
    expect(readInstanceCount(args)).toBe(count)
  })

  it.each([
    [['--instances'], 'npm run services takes one option, --instances N (got "--instances").'],
    [['--instances', '3', '--verbose'], 'npm run services takes one option, --instances N (got "--instances 3 --verbose").'],
    [['3'], 'npm run services takes one option, --instances N (got "3").'],
    [['--instances', 'three'], '--instances must be a whole number from 1 to 32, got "three".'],
    [['--instances=0'], '--instances must be a whole number from 1 to 32, got "0".'],
    [['--instances', '2.5'], '--instances must be a whole number from 1 to 32, got "2.5".'],
    [['--instances', '33'], '--instances must be a whole number from 1 to 32, got "33".'],
  ])('refuses %j', (args, sentence) => {
    expect(() => readInstanceCount(args)).toThrow(sentence)
  })
})
