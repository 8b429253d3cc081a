import { decodeFunctionData, getAddress, type Address, type Hex } from 'viem'
import { tesseraAccountAbi } from '../../src/frame/smartAccount/toTesseraAccount'

/**
 * The contracts an account's callData calls: TesseraAccount's (SimpleAccount v0.8's) `execute(address,uint256,bytes)`
 * and `executeBatch((address,uint256,bytes)[])`, checksummed, in call order. `0x` (an operation that only deploys the
 * account) calls none. Anything else, or calldata that does not decode, is undefined: the caller cannot know where it
 * goes.
 * @example getCallTargets(encodeFunctionData({ abi: tesseraAccountAbi, functionName: 'execute', args: [to, 0n, '0x'] })) // [to]
 */
export function getCallTargets(callData: Hex): Address[] | undefined {
  if (callData === '0x') return []
  try {
    const { functionName, args } = decodeFunctionData({ abi: tesseraAccountAbi, data: callData })
    if (functionName === 'execute') return [getAddress(args[0])]
    if (functionName === 'executeBatch') return args[0].map(({ target }) => getAddress(target))
  } catch {
    // An unknown selector or malformed arguments.
  }
  return undefined
}
