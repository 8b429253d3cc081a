import { setTimeout as sleep } from 'node:timers/promises'
import {
  address,
  appendTransactionMessageInstructions,
  createKeyPairSignerFromBytes,
  createSolanaRpc,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  signature as toSignature,
  type Instruction,
} from '@solana/kit'
import { getTransferSolInstruction } from '@solana-program/system'
import { findAssociatedTokenPda, getCreateAssociatedTokenIdempotentInstruction, getTransferCheckedInstruction } from '@solana-program/token'
import { createPublicClient, createWalletClient, defineChain, erc20Abi, http, type Address, type Hash, type Hex } from 'viem'
import { privateKeyToAccount } from 'viem/accounts'
import type { SandboxAsset, SandboxTreasury } from './config'

/** One payment to a visitor: `amount` in the asset's base units (wei, lamports, a token's smallest unit). */
export type Transfer = { asset: SandboxAsset; to: string; amount: bigint }

/** Pays transfers from one treasury on one network. */
export type Payer = {
  /** Broadcasts the transfer and resolves to its hash (EVM) or signature (Solana) once the node took it. */
  send: (transfer: Transfer) => Promise<string>
  /** Resolves true once the transfer landed and succeeded, false once it landed and failed; rejects after `timeoutMs` or on `signal`. */
  confirm: (txHash: string, options: { timeoutMs: number; signal?: AbortSignal }) => Promise<boolean>
}

export type CreatePayerParameters = { network: string; rpcUrl: string; treasury: SandboxTreasury; pollingIntervalMs?: number }

/**
 * A payer from an EVM treasury key: the native currency by a plain transfer, an ERC-20 by `transfer(to, amount)`.
 * @example const payer = createEvmPayer({ network: 'eip155:31337', rpcUrl, treasury })
 */
export function createEvmPayer({ network, rpcUrl, treasury, pollingIntervalMs = 500 }: CreatePayerParameters & { treasury: { kind: 'evm'; privateKey: Hex } }): Payer {
  const chain = defineChain({ id: Number(network.slice('eip155:'.length)), name: network, nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 }, rpcUrls: { default: { http: [rpcUrl] } } })
  const transport = http(rpcUrl, { timeout: 15_000, retryCount: 0 })
  const wallet = createWalletClient({ account: privateKeyToAccount(treasury.privateKey), chain, transport })
  const client = createPublicClient({ chain, transport, pollingInterval: pollingIntervalMs })
  return {
    send: ({ asset, to, amount }) =>
      asset.address
        ? wallet.writeContract({ address: asset.address as Address, abi: erc20Abi, functionName: 'transfer', args: [to as Address, amount] })
        : wallet.sendTransaction({ to: to as Address, value: amount }),
    confirm: async (txHash, { timeoutMs, signal }) => {
      signal?.throwIfAborted()
      const receipt = client.waitForTransactionReceipt({ hash: txHash as Hash, timeout: timeoutMs, pollingInterval: pollingIntervalMs })
      if (!signal) return (await receipt).status === 'success'
      let onAbort = () => {}
      const aborted = new Promise<never>((_, reject) => {
        onAbort = () => reject(signal.reason as Error)
        signal.addEventListener('abort', onAbort, { once: true })
      })
      try {
        return (await Promise.race([receipt, aborted])).status === 'success'
      } finally {
        signal.removeEventListener('abort', onAbort)
        receipt.catch(() => undefined)
      }
    },
  }
}

/**
 * A payer from a Solana treasury key: SOL by a System Program transfer, an SPL token by `transferChecked` into the
 * destination's associated token account (made first if missing, the treasury paying its rent).
 * @example const payer = createSolanaPayer({ network: 'solana:…', rpcUrl, treasury })
 */
export function createSolanaPayer({ rpcUrl, treasury, pollingIntervalMs = 500 }: CreatePayerParameters & { treasury: { kind: 'solana'; secretKey: Uint8Array } }): Payer {
  const rpc = createSolanaRpc(rpcUrl)
  const signer = createKeyPairSignerFromBytes(treasury.secretKey)
  // Awaited by every send; a key the configuration let through never fails here, but a failure must not go unhandled.
  signer.catch(() => undefined)

  const instructionsFor = async ({ asset, to, amount }: Transfer): Promise<Instruction[]> => {
    const source = await signer
    const destination = address(to)
    if (!asset.address) return [getTransferSolInstruction({ source, destination, amount })]
    const mint = address(asset.address)
    // The mint's owner is its token program: Token or Token-2022.
    const { value: mintAccount } = await rpc.getAccountInfo(mint, { encoding: 'base64' }).send()
    if (!mintAccount) throw new Error(`The mint ${asset.address} does not exist on ${asset.network}`)
    const tokenProgram = mintAccount.owner
    const [[sourceAta], [destinationAta]] = await Promise.all([
      findAssociatedTokenPda({ owner: source.address, mint, tokenProgram }),
      findAssociatedTokenPda({ owner: destination, mint, tokenProgram }),
    ])
    return [
      getCreateAssociatedTokenIdempotentInstruction({ payer: source, ata: destinationAta, owner: destination, mint, tokenProgram }),
      getTransferCheckedInstruction({ source: sourceAta, mint, destination: destinationAta, authority: source, amount, decimals: asset.decimals }, { programAddress: tokenProgram }),
    ]
  }

  return {
    send: async (transfer) => {
      const [payer, instructions, { value: latestBlockhash }] = await Promise.all([signer, instructionsFor(transfer), rpc.getLatestBlockhash().send()])
      const message = pipe(
        createTransactionMessage({ version: 0 }),
        (draft) => setTransactionMessageFeePayerSigner(payer, draft),
        (draft) => setTransactionMessageLifetimeUsingBlockhash(latestBlockhash, draft),
        (draft) => appendTransactionMessageInstructions(instructions, draft),
      )
      const signed = await signTransactionMessageWithSigners(message)
      await rpc.sendTransaction(getBase64EncodedWireTransaction(signed), { encoding: 'base64' }).send()
      return getSignatureFromTransaction(signed)
    },
    confirm: async (txHash, { timeoutMs, signal }) => {
      const deadline = Date.now() + timeoutMs
      for (;;) {
        const { value } = await rpc.getSignatureStatuses([toSignature(txHash)]).send()
        const status = value[0]
        if (status && (status.confirmationStatus === 'confirmed' || status.confirmationStatus === 'finalized' || status.err)) return status.err === null
        if (Date.now() + pollingIntervalMs > deadline) throw new Error(`The transaction ${txHash} was not confirmed within ${timeoutMs} ms`)
        await sleep(pollingIntervalMs, undefined, signal ? { signal } : {})
      }
    },
  }
}

/**
 * A payer per network of the configured assets, each sending one transfer at a time (a queue per treasury), so two
 * payments never take the same nonce; confirmations run side by side.
 * @example const payers = createPayers({ assets: config.assets, treasuries: config.treasuries })
 */
export function createPayers({ assets, treasuries, pollingIntervalMs }: { assets: readonly SandboxAsset[]; treasuries: ReadonlyMap<string, SandboxTreasury>; pollingIntervalMs?: number }): ReadonlyMap<string, Payer> {
  const payers = new Map<string, Payer>()
  for (const asset of assets) {
    const treasury = treasuries.get(asset.network)
    if (!treasury || payers.has(asset.network)) continue
    const parameters = { network: asset.network, rpcUrl: asset.rpcUrl, ...(pollingIntervalMs !== undefined ? { pollingIntervalMs } : {}) }
    const payer = treasury.kind === 'evm' ? createEvmPayer({ ...parameters, treasury }) : createSolanaPayer({ ...parameters, treasury })
    let tail: Promise<unknown> = Promise.resolve()
    payers.set(asset.network, {
      send: (transfer) => {
        const sent = tail.then(() => payer.send(transfer))
        tail = sent.catch(() => undefined)
        return sent
      },
      confirm: payer.confirm,
    })
  }
  return payers
}
