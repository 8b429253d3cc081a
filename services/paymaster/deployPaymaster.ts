import {
  concat,
  createPublicClient,
  createWalletClient,
  encodeAbiParameters,
  encodeFunctionData,
  getContractAddress,
  http,
  keccak256,
  parseEther,
  stringToHex,
  type Abi,
  type Address,
  type Hex,
} from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import { entryPoint08Abi } from 'viem/account-abstraction'
import { canonicalAccountAbstractionAddresses, create2Deployer } from '../chain/accountAbstraction'
import compiled from '../chain/contracts.generated.json' with { type: 'json' }

/** TesseraPaymaster's compiled artifact (services/chain/contracts/TesseraPaymaster.sol). */
export const tesseraPaymasterArtifact = { abi: compiled.TesseraPaymaster.abi as Abi, bytecode: compiled.TesseraPaymaster.bytecode as Hex }

/**
 * Pays for the deploy and the deposit: a key of its own (not a dev account, nor the account-abstraction deployer's, so
 * the two can run at once without sharing nonces), topped up with anvil_setBalance. TEST-ONLY, derivable by anyone:
 * never send real funds to it.
 */
export const paymasterDeployerKey: Hex = keccak256(stringToHex('tessera local paymaster deployer'))

const zeroSalt: Hex = `0x${'0'.repeat(64)}`

export type GetPaymasterAddressParameters = {
  signerAddress: Address
  /** Who may withdraw the deposit and stake; the signer by default. */
  ownerAddress?: Address
  entryPointAddress?: Address
}

/** TesseraPaymaster's constructor call: its bytecode and (entryPoint, signer, owner). */
const paymasterInitCode = ({ signerAddress, ownerAddress = signerAddress, entryPointAddress = canonicalAccountAbstractionAddresses.entryPoint08 }: GetPaymasterAddressParameters): Hex =>
  concat([
    tesseraPaymasterArtifact.bytecode,
    encodeAbiParameters([{ type: 'address' }, { type: 'address' }, { type: 'address' }], [entryPointAddress, signerAddress, ownerAddress]),
  ])

/**
 * Where TesseraPaymaster lands for a signer (CREATE2 through the deterministic deployer, salt 0): the same address on
 * every chain, a different one per signer, owner or EntryPoint.
 * @example const address = getPaymasterAddress({ signerAddress: privateKeyToAccount(signerKey).address })
 */
export function getPaymasterAddress(parameters: GetPaymasterAddressParameters): Address {
  return getContractAddress({ opcode: 'CREATE2', from: create2Deployer, salt: zeroSalt, bytecode: paymasterInitCode(parameters) })
}

export type DeployPaymasterParameters = GetPaymasterAddressParameters & {
  /** The anvil chain's RPC URL (EntryPoint v0.8 deployed there already: see deployAccountAbstraction). */
  rpcUrl: string
  /** The EntryPoint deposit the paymaster must hold afterwards, in wei; 10 ETH by default. */
  minimumDeposit?: bigint
}

export type DeployPaymasterReturnType = {
  address: Address
  /** False when the paymaster had code already (its deposit may still have been topped up). */
  deployedNow: boolean
  /** Its EntryPoint deposit afterwards, in wei. */
  deposit: bigint
}

/**
 * Puts TesseraPaymaster on an anvil chain for a signer (the paymaster service's key) and tops its EntryPoint deposit up
 * to `minimumDeposit`, both paid by a test-only key that anvil_setBalance funds. Idempotent: an existing paymaster is
 * not deployed again, and a deposit at or above the minimum is left alone (no transaction at all then).
 * @example const { address } = await deployPaymaster({ rpcUrl: anvil.rpcUrl, signerAddress: privateKeyToAccount(signerKey).address })
 */
export async function deployPaymaster({
  rpcUrl,
  signerAddress,
  ownerAddress = signerAddress,
  entryPointAddress = canonicalAccountAbstractionAddresses.entryPoint08,
  minimumDeposit = parseEther('10'),
}: DeployPaymasterParameters): Promise<DeployPaymasterReturnType> {
  const client = createPublicClient({ transport: http(rpcUrl), pollingInterval: 50 })
  const hasCode = async (address: Address) => ((await client.getCode({ address })) ?? '0x') !== '0x'
  const initCode = paymasterInitCode({ signerAddress, ownerAddress, entryPointAddress })
  const address = getPaymasterAddress({ signerAddress, ownerAddress, entryPointAddress })
  const readDeposit = () => client.readContract({ address: entryPointAddress, abi: entryPoint08Abi, functionName: 'balanceOf', args: [address] })

  // 1. What is there already.
  const [isDeployed, hasEntryPoint, hasDeployer] = await Promise.all([hasCode(address), hasCode(entryPointAddress), hasCode(create2Deployer)])
  if (!hasEntryPoint) throw new Error(`${rpcUrl} has no EntryPoint at ${entryPointAddress}: run deployAccountAbstraction first.`)
  if (!isDeployed && !hasDeployer) throw new Error(`${rpcUrl} has no CREATE2 deployer at ${create2Deployer} (anvil has it from genesis).`)
  const depositBefore = isDeployed ? await readDeposit() : 0n
  const topUp = depositBefore < minimumDeposit ? minimumDeposit - depositBefore : 0n
  if (isDeployed && topUp === 0n) return { address, deployedNow: false, deposit: depositBefore }

  // 2. Fund the key for what it sends, then the deploy and the deposit with consecutive nonces (they mine in order).
  const account = privateKeyToAccount(paymasterDeployerKey)
  const needed = topUp + parseEther('1')
  if ((await client.getBalance({ address: account.address })) < needed) {
    await client.request({ method: 'anvil_setBalance' as never, params: [account.address, `0x${(needed + parseEther('100')).toString(16)}`] as never })
  }
  const wallet = createWalletClient({ account, transport: http(rpcUrl) })
  const [chainId, nonce] = await Promise.all([client.getChainId(), client.getTransactionCount({ address: account.address, blockTag: 'pending' })])
  const chain = { id: chainId, name: 'local', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [rpcUrl] } } }
  const fees = await client.estimateFeesPerGas({ chain })
  const transactions = [
    ...(isDeployed ? [] : [{ to: create2Deployer, data: concat([zeroSalt, initCode]), value: 0n, gas: 5_000_000n }]),
    ...(topUp > 0n ? [{ to: address, data: encodeFunctionData({ abi: tesseraPaymasterArtifact.abi, functionName: 'deposit' }), value: topUp, gas: 200_000n }] : []),
  ]
  const hashes = await Promise.all(transactions.map((transaction, index) => wallet.sendTransaction({ chain, ...transaction, nonce: nonce + index, ...fees })))

  // 3. Each must have mined; the paymaster must have code and the deposit must have reached the minimum.
  for (const hash of hashes) {
    const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 20 })
    if (receipt.status !== 'success') throw new Error(`deploying or funding TesseraPaymaster at ${address} on ${rpcUrl} failed (transaction ${hash})`)
  }
  if (!(await hasCode(address))) throw new Error(`TesseraPaymaster has no code at ${address} on ${rpcUrl} after its deploy`)
  const deposit = await readDeposit()
  if (deposit < minimumDeposit) throw new Error(`TesseraPaymaster at ${address} holds ${deposit} wei on its EntryPoint, under the ${minimumDeposit} asked for`)
  return { address, deployedNow: !isDeployed, deposit }
}
