import { decodeFunctionData, getAddress, size, slice, toFunctionSignature, type AbiFunction, type Address, type Hex } from 'viem'
import type { DecodedCall, ReviewValue } from '../../shared/protocol/review'
import { descriptorFormatFor, type Erc7730Descriptor } from './erc7730'
import { argsByName, formatArgs } from './formatArgs'
import { knownFunctionsBySelector, type Approval, type KnownFunction } from './knownFunctions'

/** How deep calls inside calls are decoded: an account's execute inside a user operation inside handleOps is 2. */
const MAX_DEPTH = 4

export type DecodeCallParameters = {
  chainId: number
  call: { to?: Address; data?: Hex; value?: bigint; from?: Address }
  /** The site's ERC-7730 descriptors, validated (parseErc7730Descriptor). */
  descriptors?: readonly Erc7730Descriptor[]
  /** What the chain says a contract is: an ERC-721 or ERC-1155 wins the selectors it shares with ERC-20. */
  standardOf?: (address: Address) => 'erc721' | 'erc1155' | undefined
}

/** The call for display, and the allowances it grants (its inner calls' included, but Multicall3's: those are its own). */
export type DecodeCallReturnType = { call: DecodedCall; approvals: Approval[] }

const decodeWith = (abi: AbiFunction, data: Hex) => {
  try {
    const { args = [] } = decodeFunctionData({ abi: [abi], data })
    return { abi, args: argsByName(abi.inputs, args) }
  } catch {
    return undefined
  }
}

const firstDecoded = (candidates: readonly KnownFunction[], data: Hex) => {
  for (const known of candidates) {
    const decoded = decodeWith(known.abi, data)
    if (decoded) return { ...decoded, known }
  }
  return undefined
}

const innerCallsOf = (known: KnownFunction, args: Record<string, unknown>, to: Address) => {
  try {
    return known.innerCalls?.(args, to) ?? []
  } catch {
    return [] // bytes that only look like calls stay bytes
  }
}

/**
 * Decodes calldata against the bundled ABIs of the common standards and the site's ERC-7730 descriptors, calls
 * inside calls too (Multicall3, smart-account execute, handleOps); an unknown selector comes back raw.
 * @example decodeCall({ chainId: 1, call: { to: usdc, data } }).call // { kind: 'function', functionName: 'transfer', … }
 */
export function decodeCall(parameters: DecodeCallParameters, depth = 0): DecodeCallReturnType {
  const { chainId, call, descriptors = [], standardOf } = parameters
  const { to, data = '0x', value = 0n, from } = call
  if (!to) return { call: { kind: 'deployment', value, dataBytes: size(data) }, approvals: [] }
  const target = getAddress(to)
  if (size(data) === 0) return { call: { kind: 'nativeTransfer', to: target, value }, approvals: [] }
  const selector = size(data) >= 4 ? slice(data, 0, 4) : data

  // 1. The bundled table, the contract's own standard first.
  const preferred = standardOf?.(target)
  const candidates = [...(knownFunctionsBySelector.get(selector) ?? [])].sort((a, b) => Number(b.standard === preferred) - Number(a.standard === preferred))
  const known = firstDecoded(candidates, data)
  // 2. A descriptor bound to this contract: its signature decodes when it names the parameters; unnamed, the
  //    bundled ABI's names are what its paths refer to.
  const format = descriptorFormatFor(descriptors, { chainId, to: target, selector })
  const shown = format && (format.abi.inputs.every((param) => param.name) || !known) ? decodeWith(format.abi, data) : known
  if (!shown) return { call: { kind: 'unknown', to: target, value, selector, dataBytes: size(data) }, approvals: [] }

  // 3. Bytes that are calls, decoded in their turn.
  const approvals = known?.known.approvals?.(known.args, target) ?? []
  const replacements = new Map<string, ReviewValue>()
  for (const inner of known && depth < MAX_DEPTH ? innerCallsOf(known.known, known.args, target) : []) {
    const decoded = inner.calls.map((innerCall) => decodeCall({ ...parameters, call: { ...innerCall, from: target } }, depth + 1))
    replacements.set(inner.path, { kind: 'calls', calls: decoded.map((d) => d.call) })
    if (known?.known.standard !== 'multicall3') approvals.push(...decoded.flatMap((d) => d.approvals))
  }

  // 4. The arguments as rows: the descriptor's fields first, the bundled formats for the rest.
  const args = formatArgs({
    params: shown.abi.inputs,
    roots: { args: shown.args, envelope: { to: target, from, value }, document: format?.document },
    fields: [...(format?.fields ?? []), ...(known?.known.fields ?? [])],
    order: format ? 'fields' : 'abi',
    replacements,
  })
  return {
    call: {
      kind: 'function',
      to: target,
      value,
      ...(known && { standard: known.known.standard }),
      functionName: shown.abi.name,
      signature: toFunctionSignature(shown.abi),
      ...(format && { intent: format.intent }),
      args,
    },
    approvals,
  }
}
