import { describe, expect, it } from 'vitest'
import { freePorts } from './ports'
import { startStack } from './startStack'

describe('startStack', () => {
  it('starts nothing when it is stopped before it begins, and rejects with the reason', async () => {
    const reason = new Error('stopped by the test')
    const started: string[] = []
    await expect(startStack({ ports: await freePorts(), demo: 'none', signal: AbortSignal.abort(reason), log: (line) => started.push(line) })).rejects.toBe(reason)
    expect(started).toEqual([])
  })
})
