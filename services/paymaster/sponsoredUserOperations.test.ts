import { createTestClient, http, parseEther, publicActions, type Address, type Hex } from 'viem'
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts'
import { createBundlerClient, createPaymasterClient, entryPoint08Abi, type SmartAccount } from 'viem/account-abstraction'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { toTesseraAccount } from '../../src/frame/smartAccount/toTesseraAccount'
import { canonicalAccountAbstractionAddresses, deployAccountAbstraction, tesseraAccountFactoryAddress } from '../chain/accountAbstraction'
import { startAnvil, type Anvil } from '../chain/anvil'
import { startBundler, type Bundler } from '../chain/bundler'
import { freePorts } from '../stack/ports'
import { deployPaymaster, getPaymasterAddress } from './deployPaymaster'
import { findSponsorshipRefusal, paymasterErrorCodes } from '../../src/shared/protocol/paymasterErrors'
import { startPaymaster, type PaymasterServer } from './server'

const CHAIN_ID = 31337
const ENTRY_POINT = canonicalAccountAbstractionAddresses.entryPoint08
const signerKey = generatePrivateKey()
const signer = privateKeyToAccount(signerKey)
const ALLOWED: Address = privateKeyToAccount(generatePrivateKey()).address
const STRANGER: Address = privateKeyToAccount(generatePrivateKey()).address
/** A deploying operation takes about 380,000 gas (with the paymaster's 60,000); any other at least 100,000 more. */
const SMALL_DAILY_GAS = 450_000

describe('sponsored UserOperations: TesseraPaymaster, Alto and the paymaster service on anvil', () => {
  let anvil: Anvil
  let bundler: Bundler
  let paymaster: PaymasterServer
  let paymasterAddress: Address
  const chain = { id: CHAIN_ID, name: 'anvil', nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [''] } } }
  const client = () => createTestClient({ mode: 'anvil', chain, transport: http(anvil.rpcUrl), pollingInterval: 50 }).extend(publicActions)
  const depositOf = (address: Address) => client().readContract({ address: ENTRY_POINT, abi: entryPoint08Abi, functionName: 'balanceOf', args: [address] })

  beforeAll(async () => {
    const ports = await freePorts()
    anvil = await startAnvil({ port: ports.anvil, chainId: CHAIN_ID })
    chain.rpcUrls.default.http = [anvil.rpcUrl]
    await deployAccountAbstraction({ rpcUrl: anvil.rpcUrl })
    ;({ address: paymasterAddress } = await deployPaymaster({ rpcUrl: anvil.rpcUrl, signerAddress: signer.address }))
    ;[bundler, paymaster] = await Promise.all([
      startBundler({ rpcUrl: anvil.rpcUrl, port: ports.anvil2, entryPoints: [ENTRY_POINT] }),
      startPaymaster({
        port: 0,
        signerKey,
        chains: [{ chainId: CHAIN_ID, rpcUrl: anvil.rpcUrl, paymasterAddress, entryPointAddress: ENTRY_POINT }],
        projects: [
          { id: 'site', sponsorName: 'Site', allowedOrigins: [], chainIds: [CHAIN_ID], dailyGasPerAccount: 10_000_000 },
          { id: 'small', allowedOrigins: [], chainIds: [CHAIN_ID], dailyGasPerAccount: SMALL_DAILY_GAS },
          { id: 'strict', allowedOrigins: [], chainIds: [CHAIN_ID], dailyGasPerAccount: 10_000_000, allowedContracts: [ALLOWED] },
          { id: 'elsewhere', allowedOrigins: [], chainIds: [10], dailyGasPerAccount: 10_000_000 },
        ],
      }),
    ])
  })
  afterAll(async () => {
    await Promise.all([bundler?.stop(), paymaster?.stop()])
    await anvil?.stop()
  })

  /** A new TesseraAccount (not deployed), holding `balance`. */
  const newAccount = async (balance = 0n) => {
    const account = await toTesseraAccount({ client: client(), owner: privateKeyToAccount(generatePrivateKey()), factoryAddress: tesseraAccountFactoryAddress })
    if (balance > 0n) await client().setBalance({ address: account.address, value: balance })
    return account
  }
  /** Sends calls as the widget does, through Alto, sponsored by the service for `projectId` (or paid by the account). */
  const send = async (account: SmartAccount, calls: { to: Address; value?: bigint; data?: Hex }[], projectId?: string) => {
    const bundlerClient = createBundlerClient({
      account,
      client: client(),
      transport: http(bundler.url),
      pollingInterval: 50,
      ...(projectId ? { paymaster: createPaymasterClient({ transport: http(paymaster.url) }), paymasterContext: { projectId } } : {}),
    })
    const hash = await bundlerClient.sendUserOperation({ calls })
    return bundlerClient.waitForUserOperationReceipt({ hash, pollingInterval: 50, timeout: 10_000 })
  }
  const refusalOf = async (sending: Promise<unknown>) => {
    const error = await sending.then(
      () => undefined,
      (error: unknown) => error,
    )
    expect(error).toBeDefined()
    return findSponsorshipRefusal(error)
  }

  it('deploys TesseraPaymaster once per signer, at an address that depends on the signer, with its deposit topped up to the minimum', async () => {
    expect(paymasterAddress).toBe(getPaymasterAddress({ signerAddress: signer.address }))
    expect(getPaymasterAddress({ signerAddress: STRANGER })).not.toBe(paymasterAddress)
    expect(await client().readContract({ address: paymasterAddress, abi: [{ type: 'function', name: 'signer', inputs: [], outputs: [{ type: 'address' }], stateMutability: 'view' }], functionName: 'signer' })).toBe(signer.address)

    const blockNumber = await client().getBlockNumber()
    const again = await deployPaymaster({ rpcUrl: anvil.rpcUrl, signerAddress: signer.address })
    expect(again).toEqual({ address: paymasterAddress, deployedNow: false, deposit: await depositOf(paymasterAddress) })
    expect(await client().getBlockNumber()).toBe(blockNumber)

    const topped = await deployPaymaster({ rpcUrl: anvil.rpcUrl, signerAddress: signer.address, minimumDeposit: again.deposit + parseEther('1') })
    expect(topped).toEqual({ address: paymasterAddress, deployedNow: false, deposit: again.deposit + parseEther('1') })
  })

  it('deploys a new account holding 0 ETH with a sponsored UserOperation, which the paymaster pays for', async () => {
    const account = await newAccount()
    const depositBefore = await depositOf(paymasterAddress)
    const receipt = await send(account, [{ to: ALLOWED, value: 0n }], 'site')
    expect(receipt.success).toBe(true)
    expect(receipt.paymaster).toBe(paymasterAddress)
    expect((await client().getCode({ address: account.address }))?.length).toBeGreaterThan(2)
    expect(await client().getBalance({ address: account.address })).toBe(0n)
    expect(await depositOf(paymasterAddress)).toBe(depositBefore - receipt.actualGasCost)
  })

  it('moves exactly 0.1 ETH from a funded account with a sponsored transfer', async () => {
    const account = await newAccount(parseEther('1'))
    const recipient = privateKeyToAccount(generatePrivateKey()).address
    const receipt = await send(account, [{ to: recipient, value: parseEther('0.1') }], 'site')
    expect(receipt.success).toBe(true)
    expect(await client().getBalance({ address: account.address })).toBe(parseEther('0.9'))
    expect(await client().getBalance({ address: recipient })).toBe(parseEther('0.1'))
  })

  it("refuses the next operation past the account's daily gas with the budget sentence; the same operation lands when the account pays", async () => {
    const account = await newAccount(parseEther('1'))
    const recipient = privateKeyToAccount(generatePrivateKey()).address
    const calls = [{ to: recipient, value: parseEther('0.01') }]
    expect((await send(account, calls, 'small')).success).toBe(true)
    expect(await client().getBalance({ address: account.address })).toBe(parseEther('0.99'))

    const refusal = await refusalOf(send(account, calls, 'small'))
    expect(refusal?.code).toBe(paymasterErrorCodes.dailyGasExhausted)
    expect(refusal?.message).toMatch(/^Gas is not sponsored: this account has used its sponsored gas for today \([\d,]+ of 450,000 gas\)\. It can pay the fee itself\.$/)

    const paid = await send(account, calls)
    expect(paid.success).toBe(true)
    expect(paid.paymaster).toBeUndefined()
    expect(await client().getBalance({ address: recipient })).toBe(parseEther('0.02'))
    // The account prefunded its fee into its EntryPoint deposit, which keeps what the operation did not use.
    const [balance, deposit] = await Promise.all([client().getBalance({ address: account.address }), depositOf(account.address)])
    expect(balance + deposit).toBe(parseEther('0.98') - paid.actualGasCost)
  })

  it('with allowedContracts, refuses a call to another contract and sponsors one to an allowed contract', async () => {
    const account = await newAccount()
    const refusal = await refusalOf(send(account, [{ to: ALLOWED }, { to: STRANGER }], 'strict'))
    expect(refusal).toEqual({ code: paymasterErrorCodes.contractNotSponsored, message: `Gas is not sponsored for calls to ${STRANGER}.` })
    expect((await send(account, [{ to: ALLOWED }, { to: ALLOWED }], 'strict')).success).toBe(true)
  })

  it('refuses an unknown project and a chain the project does not sponsor, and the account stays undeployed', async () => {
    const account = await newAccount()
    expect(await refusalOf(send(account, [{ to: ALLOWED }], 'nobody'))).toEqual({ code: paymasterErrorCodes.unknownProject, message: 'Gas is not sponsored for this app.' })
    expect(await refusalOf(send(account, [{ to: ALLOWED }], 'elsewhere'))).toEqual({
      code: paymasterErrorCodes.chainNotSponsored,
      message: 'Gas is not sponsored on this network for this app.',
    })
    expect(await client().getCode({ address: account.address })).toBeUndefined()
  })
})
