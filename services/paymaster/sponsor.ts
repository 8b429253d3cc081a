import { createPublicClient, http, numberToHex, type Address, type Hex } from 'viem'
import { entryPoint08Abi } from 'viem/account-abstraction'
import { getCallTargets } from './callTargets'
import type { PaymasterChain, PaymasterConfig, PaymasterProject } from './config'
import type { DailyGasCheck, DailyGasUsage } from './dailyGasUsage'
import { paymasterErrorCodes, sponsorshipError, type PaymasterRpcError, type SponsorshipRefusal } from '../../src/shared/protocol/paymasterErrors'
import type { SponsorshipParams } from './parseParams'
import { signPaymasterData, stubPaymasterData } from './signPaymasterData'

/** ERC-7677's pm_getPaymasterStubData answer (EntryPoint v0.7+ shape), quantities in hex. */
export type PaymasterStubResult = {
  paymaster: Address
  paymasterData: Hex
  paymasterVerificationGasLimit: Hex
  paymasterPostOpGasLimit: Hex
  isFinal: false
  sponsor?: { name: string }
}

/** ERC-7677's pm_getPaymasterData answer. */
export type PaymasterDataResult = Omit<PaymasterStubResult, 'isFinal' | 'sponsor'>

/** Reads a paymaster's EntryPoint deposit, in wei. */
export type ReadDeposit = (chain: PaymasterChain) => Promise<bigint>

export type SponsorParameters = {
  config: PaymasterConfig
  usage: DailyGasUsage
  now: () => number
  readDeposit: ReadDeposit
  log: (line: string) => void
}

export type Sponsor = {
  /** Answers pm_getPaymasterStubData (`final: false`) or pm_getPaymasterData (`final: true`): a result, or the refusal. */
  sponsor: (parameters: SponsorshipParams & { isFinal: boolean; origin?: string }) => Promise<{ result: PaymasterStubResult | PaymasterDataResult } | { error: PaymasterRpcError }>
}

/** Reads balanceOf(paymaster) on the chain's EntryPoint, one client per chain, without retries (5 s at most). */
export function createDepositReader(): ReadDeposit {
  const clients = new Map<number, ReturnType<typeof createPublicClient>>()
  return (chain) => {
    let client = clients.get(chain.chainId)
    if (!client) clients.set(chain.chainId, (client = createPublicClient({ transport: http(chain.rpcUrl, { timeout: 5_000, retryCount: 0 }) })))
    return client.readContract({ address: chain.entryPointAddress, abi: entryPoint08Abi, functionName: 'balanceOf', args: [chain.paymasterAddress] })
  }
}

/**
 * The policy and the signing. In order, a request is refused when its project is unknown, it comes from a page the
 * project does not list, the chain is not the project's or has no paymaster here, the EntryPoint is not the chain's,
 * the fee passes the chain's cap, a call goes outside the project's allowedContracts (or cannot be read while there is
 * one), the account's gas for today would pass dailyGasPerAccount, or (for pm_getPaymasterData) the paymaster's
 * deposit could not pay the operation's maximum cost. A stub reserves nothing; pm_getPaymasterData reserves the
 * operation's gas limits (preVerificationGas + verificationGasLimit + callGasLimit + the paymaster's two) and signs.
 * @example const { sponsor } = createSponsor({ config, usage, now: Date.now, readDeposit: createDepositReader(), log: console.error })
 */
export function createSponsor({ config, usage, now, readDeposit, log }: SponsorParameters): Sponsor {
  const deposits = new Map<number, { wei: bigint; readAtMs: number } | Promise<bigint | undefined>>()
  const refuse = (refusal: SponsorshipRefusal) => ({ error: sponsorshipError(refusal) })

  /** The chain's deposit, read at most every depositCacheMs (one read at a time); undefined when the node fails. */
  const depositOf = async (chain: PaymasterChain): Promise<bigint | undefined> => {
    const cached = deposits.get(chain.chainId)
    if (cached instanceof Promise) return cached
    if (cached && now() - cached.readAtMs < config.limits.depositCacheMs) return cached.wei
    const reading = readDeposit(chain).then(
      (wei) => {
        deposits.set(chain.chainId, { wei, readAtMs: now() })
        return wei
      },
      (error: unknown) => {
        // Fail open: the bundler refuses an operation the deposit cannot pay (AA31) anyway.
        deposits.delete(chain.chainId)
        // viem's short message names no URL (an RPC URL may hold an API key).
        log(`paymaster: reading the deposit on chain ${chain.chainId} failed: ${(error as { shortMessage?: string })?.shortMessage ?? 'unknown error'}`)
        return undefined
      },
    )
    deposits.set(chain.chainId, reading)
    return reading
  }

  const checkCalls = (project: PaymasterProject, callData: Hex): SponsorshipRefusal | undefined => {
    if (!project.allowedContracts) return undefined
    const targets = getCallTargets(callData)
    if (!targets) return { reason: 'callsNotReadable' }
    const outside = targets.find((target) => !project.allowedContracts!.has(target.toLowerCase()))
    return outside ? { reason: 'contractNotSponsored', contract: outside } : undefined
  }

  return {
    async sponsor({ userOperation, entryPoint, chainId, projectId, isFinal, origin }) {
      // 1. Who asks, where, and through which EntryPoint.
      const project = config.projects.get(projectId)
      if (!project) return refuse({ reason: 'unknownProject' })
      if (origin !== undefined && !project.allowedOrigins.has(origin)) return refuse({ reason: 'originNotAllowed' })
      const chain = project.chainIds.has(chainId) ? config.chains.get(chainId) : undefined
      if (!chain) return refuse({ reason: 'chainNotSponsored' })
      if (entryPoint.toLowerCase() !== chain.entryPointAddress.toLowerCase()) return refuse({ reason: 'entryPointNotSupported' })

      // 2. What it costs per gas and what it calls.
      const { maxFeePerGas } = userOperation
      if (chain.maxFeePerGasWei !== undefined && maxFeePerGas !== undefined && maxFeePerGas > chain.maxFeePerGasWei) {
        return refuse({ reason: 'feeTooHigh', maxFeePerGasWei: chain.maxFeePerGasWei.toString() })
      }
      const callRefusal = checkCalls(project, userOperation.callData)
      if (callRefusal) return refuse(callRefusal)

      // 3. The account's allowance for today: a stub asks whether any is left, the real request whether this fits.
      const { paymasterVerificationGasLimit, paymasterPostOpGasLimit, paymasterAddress } = chain
      const gas = isFinal
        ? userOperation.preVerificationGas + userOperation.verificationGasLimit + userOperation.callGasLimit + paymasterVerificationGasLimit + paymasterPostOpGasLimit
        : 0n
      const key = `${projectId}\n${chainId}\n${userOperation.sender.toLowerCase()}`
      const dailyGas = project.dailyGasPerAccount
      const budget = await usage.check({ key, gas, dailyGas })
      if (!budget.ok) return refuse(budgetRefusal(budget, dailyGas))

      const validAfter = 0
      const validUntil = Math.floor(now() / 1_000) + config.limits.signatureValiditySeconds
      const gasLimits = { paymasterVerificationGasLimit: numberToHex(paymasterVerificationGasLimit), paymasterPostOpGasLimit: numberToHex(paymasterPostOpGasLimit) }
      if (!isFinal) {
        return {
          result: { paymaster: paymasterAddress, paymasterData: stubPaymasterData({ validAfter, validUntil }), ...gasLimits, isFinal: false, ...(project.sponsorName ? { sponsor: { name: project.sponsorName } } : {}) },
        }
      }

      // 4. The deposit must cover the most the operation can cost; then reserve (in one step of the count, so
      //    concurrent requests, of this instance or another, cannot both take the last of an allowance) and sign.
      if (maxFeePerGas === undefined) return { error: feeRequired('maxFeePerGas') }
      if (userOperation.maxPriorityFeePerGas === undefined) return { error: feeRequired('maxPriorityFeePerGas') }
      const deposit = await depositOf(chain)
      if (deposit !== undefined && deposit < gas * maxFeePerGas) return refuse({ reason: 'depositTooLow' })
      const reserved = await usage.reserve({ key, gas, dailyGas })
      if (!reserved.ok) return refuse(budgetRefusal(reserved, dailyGas))
      const paymasterData = await signPaymasterData(config.signer, { chainId, paymasterAddress, userOperation, paymasterVerificationGasLimit, paymasterPostOpGasLimit, validAfter, validUntil })
      return { result: { paymaster: paymasterAddress, paymasterData, ...gasLimits } }
    },
  }
}

const feeRequired = (field: string): PaymasterRpcError => ({
  code: paymasterErrorCodes.invalidParams,
  message: `params[0].${field} is required by pm_getPaymasterData (the signature covers the fees).`,
})

const budgetRefusal = (check: Exclude<DailyGasCheck, { ok: true }>, dailyGas: bigint): SponsorshipRefusal =>
  check.reason === 'dailyGasExhausted' ? { reason: 'dailyGasExhausted', usedGas: check.usedGas.toString(), dailyGas: dailyGas.toString() } : { reason: check.reason }
