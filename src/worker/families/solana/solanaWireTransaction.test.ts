import { base58 } from '@scure/base'
import { describe, expect, it } from 'vitest'
import { readWireTransaction, withSignature } from './solanaWireTransaction'

const key = (fill: number) => new Uint8Array(32).fill(fill)
const payer = key(1)
const signer = key(2)
const program = key(3)

/** A wire transaction by hand: compact-u16 slot count, the slots, then a message (v0 with its version byte). */
function wire({ slots, required = slots, keys, version }: { slots: number; required?: number; keys: Uint8Array[]; version?: 0 }): Uint8Array {
  const message = [...(version === 0 ? [0x80] : []), required, 0, 1, keys.length, ...keys.flatMap((k) => [...k]), ...new Uint8Array(32).fill(9), 0, ...(version === 0 ? [0] : [])]
  return new Uint8Array([slots, ...new Uint8Array(64 * slots), ...message])
}

describe('readWireTransaction', () => {
  it.each([
    ['legacy, one signer', wire({ slots: 1, keys: [payer, program] }), { signaturesOffset: 1, messageOffset: 65, signers: [base58.encode(payer)] }],
    ['legacy, two signers', wire({ slots: 2, keys: [payer, signer, program] }), { signaturesOffset: 1, messageOffset: 129, signers: [base58.encode(payer), base58.encode(signer)] }],
    ['v0, one signer', wire({ slots: 1, keys: [payer, program], version: 0 }), { signaturesOffset: 1, messageOffset: 65, signers: [base58.encode(payer)] }],
  ])('reads %s', (_, bytes, layout) => {
    expect(readWireTransaction(bytes)).toEqual(layout)
  })

  it.each([
    ['no bytes', new Uint8Array(), 'truncated compact-u16'],
    ['a count cut short', new Uint8Array([0x80]), 'truncated compact-u16'],
    ['a count with a trailing zero byte', new Uint8Array([0x81, 0x00]), 'non-canonical compact-u16'],
    ['a count above 0xffff', new Uint8Array([0xff, 0xff, 0x7f]), 'compact-u16 above 0xffff'],
    ['no message', new Uint8Array([1, ...new Uint8Array(64)]), 'no message after the signatures'],
    ['slots that are not the required signatures', wire({ slots: 1, required: 2, keys: [payer, signer] }), '1 signature slots for 2 required signatures'],
    ['keys cut short', wire({ slots: 1, keys: [payer] }).subarray(0, 65 + 4 + 10), 'truncated account keys'],
  ])('refuses %s', (_, bytes, message) => {
    expect(() => readWireTransaction(bytes)).toThrow(message)
  })
})

describe('withSignature', () => {
  const signature = new Uint8Array(64).fill(7)

  it('puts the signature in the fee payer’s slot, or in the named signer’s, and leaves the input as it was', () => {
    const unsigned = wire({ slots: 2, keys: [payer, signer, program] })
    const asPayer = withSignature(unsigned, signature)
    expect(asPayer.subarray(1, 65)).toEqual(signature)
    expect(asPayer.subarray(65, 129)).toEqual(new Uint8Array(64))
    const asSigner = withSignature(unsigned, signature, base58.encode(signer))
    expect(asSigner.subarray(1, 65)).toEqual(new Uint8Array(64))
    expect(asSigner.subarray(65, 129)).toEqual(signature)
    expect(asSigner.subarray(129)).toEqual(unsigned.subarray(129))
    expect(unsigned.subarray(1, 129)).toEqual(new Uint8Array(128))
  })

  it('refuses a signature of another length, and a signer the transaction does not have', () => {
    const unsigned = wire({ slots: 1, keys: [payer, program] })
    expect(() => withSignature(unsigned, new Uint8Array(63))).toThrow('a signature of 63 bytes')
    expect(() => withSignature(unsigned, signature, base58.encode(program))).toThrow(`${base58.encode(program)} does not sign this transaction`)
  })
})
