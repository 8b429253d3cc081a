import { createRequire } from 'node:module'
import {
  concat,
  createPublicClient,
  createWalletClient,
  encodeAbiParameters,
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
import compiled from './contracts.generated.json' with { type: 'json' }

const require = createRequire(import.meta.url)
type Artifact = { abi: Abi; bytecode: Hex }
/** The published Hardhat artifacts of `@account-abstraction/contracts`, bytecode unmodified. */
const artifact = (path: string): Artifact => {
  const { abi, bytecode } = require(path) as { abi: Abi; bytecode: string }
  return { abi, bytecode: `0x${bytecode.replace(/^0x/, '')}` }
}
export const accountAbstractionArtifacts = {
  entryPoint08: artifact('@account-abstraction/contracts/artifacts/EntryPoint.json'),
  simpleAccountFactory08: artifact('@account-abstraction/contracts/artifacts/SimpleAccountFactory.json'),
  simpleAccount08: artifact('@account-abstraction/contracts/artifacts/SimpleAccount.json'),
  simple7702Account08: artifact('@account-abstraction/contracts/artifacts/Simple7702Account.json'),
  entryPoint07: artifact('@account-abstraction/contracts-v07/artifacts/EntryPoint.json'),
  simpleAccountFactory07: artifact('@account-abstraction/contracts-v07/artifacts/SimpleAccountFactory.json'),
  simpleAccount07: artifact('@account-abstraction/contracts-v07/artifacts/SimpleAccount.json'),
  /** Ours (services/chain/contracts): SimpleAccount v0.8 with ERC-1271, and its factory that anyone may call (ERC-6492). */
  tesseraAccount: { abi: compiled.TesseraAccount.abi as Abi, bytecode: compiled.TesseraAccount.bytecode as Hex },
  tesseraAccountFactory: { abi: compiled.TesseraAccountFactory.abi as Abi, bytecode: compiled.TesseraAccountFactory.bytecode as Hex },
}

/** The deterministic-deployment proxy (Arachnid's), which anvil has at genesis: CREATE2 with the first 32 bytes as salt. */
export const create2Deployer: Address = '0x4e59b44847b379578588920cA78FbF26c0B4956C'

/** Where the contracts live on public chains, and so on ours (the factories as Alto's e2e deploy puts them). */
export const canonicalAccountAbstractionAddresses = {
  entryPoint08: '0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108',
  simpleAccountFactory08: '0x13E9ed32155810FDbd067D4522C492D6f68E5944',
  simple7702Account08: '0xe6Cae83BdE06E4c305530e199D7217f42808555B',
  entryPoint07: '0x0000000071727De22E5E9d8BAf0edAc6f37da032',
  simpleAccountFactory07: '0x91E60e0613810449d098b0b5Ec8b51A0FE8c8985',
} as const satisfies Record<string, Address>

/** Where TesseraAccountFactory lands (CREATE2, salt 0, EntryPoint v0.8): the same address on every chain we deploy it to. */
export const tesseraAccountFactoryAddress: Address = getContractAddress({
  opcode: 'CREATE2',
  from: '0x4e59b44847b379578588920cA78FbF26c0B4956C',
  salt: `0x${'0'.repeat(64)}`,
  bytecode: concat([accountAbstractionArtifacts.tesseraAccountFactory.bytecode, encodeAbiParameters([{ type: 'address' }], [canonicalAccountAbstractionAddresses.entryPoint08])]),
})

export type AccountAbstractionContract = keyof typeof canonicalAccountAbstractionAddresses | 'tesseraAccountFactory'
export type AccountAbstractionAddresses = Record<AccountAbstractionContract, Address>

/** Salts as in Alto's e2e deploy script (pimlicolabs/alto test/e2e/deploy-contracts/constants.ts). */
const zeroSalt: Hex = `0x${'0'.repeat(64)}`
const entryPointArgument = (address: Address) => encodeAbiParameters([{ type: 'address' }], [address])
const { entryPoint08, entryPoint07, simpleAccountFactory08, simpleAccountFactory07, simple7702Account08, tesseraAccountFactory } = accountAbstractionArtifacts
/** In deploy order: each factory's constructor calls its EntryPoint. */
const deployments: { name: AccountAbstractionContract; salt: Hex; initCode: Hex }[] = [
  { name: 'entryPoint08', salt: '0x0a59dbff790c23c976a548690c27297883cc66b4c67024f9117b0238995e35e9', initCode: entryPoint08.bytecode },
  { name: 'simpleAccountFactory08', salt: zeroSalt, initCode: concat([simpleAccountFactory08.bytecode, entryPointArgument(canonicalAccountAbstractionAddresses.entryPoint08)]) },
  { name: 'simple7702Account08', salt: zeroSalt, initCode: simple7702Account08.bytecode },
  { name: 'entryPoint07', salt: '0x90d8084deab30c2a37c45e8d47f49f2f7965183cb6990a98943ef94940681de3', initCode: entryPoint07.bytecode },
  { name: 'simpleAccountFactory07', salt: zeroSalt, initCode: concat([simpleAccountFactory07.bytecode, entryPointArgument(canonicalAccountAbstractionAddresses.entryPoint07)]) },
  { name: 'tesseraAccountFactory', salt: zeroSalt, initCode: concat([tesseraAccountFactory.bytecode, entryPointArgument(canonicalAccountAbstractionAddresses.entryPoint08)]) },
]

/**
 * Pays for the deploys: a key of its own (not a dev account, whose balances and nonces the tests read), topped up with
 * anvil_setBalance. TEST-ONLY, derivable by anyone: never send real funds to it.
 */
export const accountAbstractionDeployerKey: Hex = keccak256(stringToHex('tessera local account abstraction deployer'))

export type DeployAccountAbstractionParameters = { rpcUrl: string }
export type DeployAccountAbstractionReturnType = AccountAbstractionAddresses & {
  /** The contracts this call deployed (none when they were all there already). */
  deployedNow: AccountAbstractionContract[]
}

/**
 * Puts EntryPoint v0.8 and v0.7, each one's SimpleAccountFactory, and Simple7702Account (v0.8) on an anvil chain through
 * the CREATE2 deployer, from the published artifacts, so they land at their canonical addresses; and the embedded
 * wallet's TesseraAccountFactory beside them. Idempotent: a contract that has code already is skipped.
 * @example const { entryPoint08 } = await deployAccountAbstraction({ rpcUrl: anvil.rpcUrl })
 */
export async function deployAccountAbstraction({ rpcUrl }: DeployAccountAbstractionParameters): Promise<DeployAccountAbstractionReturnType> {
  const client = createPublicClient({ transport: http(rpcUrl), pollingInterval: 50 })
  const hasCode = async (address: Address) => ((await client.getCode({ address })) ?? '0x') !== '0x'

  // 1. Where each lands, computed from the artifacts (a changed artifact would show here as a non-canonical address).
  const planned = deployments.map((deployment) => ({
    ...deployment,
    address: getContractAddress({ opcode: 'CREATE2', from: create2Deployer, salt: deployment.salt, bytecode: deployment.initCode }),
  }))
  const [isDeployed, hasDeployer] = await Promise.all([Promise.all(planned.map(({ address }) => hasCode(address))), hasCode(create2Deployer)])
  const missing = planned.filter((_, index) => !isDeployed[index])
  const addresses = Object.fromEntries(planned.map(({ name, address }) => [name, address])) as AccountAbstractionAddresses
  if (missing.length === 0) return { ...addresses, deployedNow: [] }
  if (!hasDeployer) throw new Error(`${rpcUrl} has no CREATE2 deployer at ${create2Deployer} (anvil has it from genesis).`)

  // 2. Fund the deployer key if it is low, then send every deploy at once with consecutive nonces (they mine in order).
  const account = privateKeyToAccount(accountAbstractionDeployerKey)
  if ((await client.getBalance({ address: account.address })) < parseEther('1')) {
    await client.request({ method: 'anvil_setBalance' as never, params: [account.address, `0x${parseEther('100').toString(16)}`] as never })
  }
  const wallet = createWalletClient({ account, transport: http(rpcUrl) })
  const [chainId, nonce] = await Promise.all([client.getChainId(), client.getTransactionCount({ address: account.address, blockTag: 'pending' })])
  const chain = { id: chainId, name: 'local', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [rpcUrl] } } }
  const fees = await client.estimateFeesPerGas({ chain })
  const hashes = await Promise.all(
    missing.map(({ salt, initCode }, index) =>
      wallet.sendTransaction({ chain, to: create2Deployer, data: concat([salt, initCode]), gas: 15_000_000n, nonce: nonce + index, ...fees }),
    ),
  )

  // 3. Each must have mined and left code at its address.
  await Promise.all(
    hashes.map(async (hash, index) => {
      const { name, address } = missing[index]!
      const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 20 })
      if (receipt.status !== 'success' || !(await hasCode(address))) throw new Error(`deploying ${name} to ${address} on ${rpcUrl} failed`)
    }),
  )
  return { ...addresses, deployedNow: missing.map(({ name }) => name) }
}
