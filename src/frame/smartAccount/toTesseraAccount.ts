import { encodeFunctionData, parseAbi, type Address, type Chain, type Client, type Hex, type LocalAccount, type Transport } from 'viem'
import { entryPoint08Abi, getUserOperationHash, toSmartAccount, type SmartAccount } from 'viem/account-abstraction'
import { readContract } from 'viem/actions'

export const tesseraAccountFactoryAbi = parseAbi([
  'function createAccount(address owner, uint256 salt) returns (address)',
  'function getAddress(address owner, uint256 salt) view returns (address)',
])
export const tesseraAccountAbi = parseAbi([
  'struct Call { address target; uint256 value; bytes data; }',
  'function execute(address target, uint256 value, bytes data)',
  'function executeBatch(Call[] calls)',
  'function isValidSignature(bytes32 hash, bytes signature) view returns (bytes4)',
])

/** EntryPoint v0.8's address on every chain. */
export const entryPoint08Address: Address = '0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108'

/** A 65-byte signature ecrecover accepts, for gas estimation before the owner signs. */
const stubSignature: Hex = '0xfffffffffffffffffffffffffffffff0000000000000000000000000000000007aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa1c'

export type ToTesseraAccountParameters = {
  /** A client on the account's chain (its `chain` set). */
  client: Client
  owner: LocalAccount
  factoryAddress: Address
  entryPointAddress?: Address
  /** The account's index among its owner's; 0 by default. */
  salt?: bigint
}

/**
 * The embedded wallet's ERC-4337 account as viem sees it: a TesseraAccount (eth-infinitism's SimpleAccount v0.8 with
 * ERC-1271) from TesseraAccountFactory, owned by the e-mail wallet's key. Its address is known before it is deployed
 * (the factory's getAddress); the first UserOperation deploys it. Messages and typed data are signed by the owner over
 * the same hash the account checks (viem wraps them in ERC-6492 while the account is not deployed); a UserOperation by
 * a plain signature over its EIP-712 hash, as SimpleAccount v0.8 checks it.
 * @example const account = await toTesseraAccount({ client, owner: privateKeyToAccount(key), factoryAddress })
 */
export async function toTesseraAccount({ client, owner, factoryAddress, entryPointAddress = entryPoint08Address, salt = 0n }: ToTesseraAccountParameters): Promise<SmartAccount> {
  const address = await readContract(client, { address: factoryAddress, abi: tesseraAccountFactoryAbi, functionName: 'getAddress', args: [owner.address, salt] })
  return toSmartAccount({
    client: client as Client<Transport, Chain | undefined, undefined>,
    entryPoint: { abi: entryPoint08Abi, address: entryPointAddress, version: '0.8' },
    getAddress: async () => address,
    getFactoryArgs: async () => ({ factory: factoryAddress, factoryData: encodeFunctionData({ abi: tesseraAccountFactoryAbi, functionName: 'createAccount', args: [owner.address, salt] }) }),
    async encodeCalls(calls) {
      if (calls.length === 1) {
        const [{ to, value = 0n, data = '0x' }] = calls as [(typeof calls)[number]]
        return encodeFunctionData({ abi: tesseraAccountAbi, functionName: 'execute', args: [to, value, data] })
      }
      return encodeFunctionData({ abi: tesseraAccountAbi, functionName: 'executeBatch', args: [calls.map(({ to, value = 0n, data = '0x' }) => ({ target: to, value, data }))] })
    },
    getStubSignature: async () => stubSignature,
    async signUserOperation({ chainId = client.chain!.id, ...userOperation }) {
      const hash = getUserOperationHash({ chainId, entryPointAddress, entryPointVersion: '0.8', userOperation: { ...userOperation, sender: address } })
      return owner.sign!({ hash })
    },
    signMessage: ({ message }) => owner.signMessage({ message }),
    signTypedData: (typedData) => owner.signTypedData(typedData as never),
  })
}
