import {
  address,
  appendTransactionMessageInstructions,
  createKeyPairSignerFromPrivateKeyBytes,
  createSolanaRpc,
  createTransactionMessage,
  getBase64EncodedWireTransaction,
  lamports,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Instruction,
  type TransactionSigner,
} from '@solana/kit'
import { getCreateAccountInstruction } from '@solana-program/system'
import {
  findAssociatedTokenPda,
  getCreateAssociatedTokenIdempotentInstruction,
  getInitializeMint2Instruction,
  getMintSize,
  getMintToInstruction,
  TOKEN_PROGRAM_ADDRESS,
} from '@solana-program/token'
import { solanaDevKeys, solanaDevMintKey } from './devKeys'

export const SOLANA_DEV_LAMPORTS_EACH = 1_000n * 1_000_000_000n // 1,000 SOL
export const solanaDemoToken = { name: 'Tessera Dollar', symbol: 'TUSD', decimals: 6, amountEach: 1_000_000n * 10n ** 6n } as const

export type SeededSolana = {
  /** base58 addresses of the dev keys (see devKeys.ts). */
  devAccounts: string[]
  /** 64-byte secret keys (private then public), in the order of devAccounts. */
  devSecretKeys: Uint8Array[]
  /** The demo SPL mint (TUSD, 6 decimals); dev account 0 is its mint authority. */
  mint: string
  decimals: number
  tokenProgram: string
}

type Rpc = ReturnType<typeof createSolanaRpc>

/** Sends instructions in one transaction. The local chain lands it before it answers, so no confirmation step. */
async function send(rpc: Rpc, payer: TransactionSigner, instructions: Instruction[]) {
  const { value: latestBlockhash } = await rpc.getLatestBlockhash().send()
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (draft) => setTransactionMessageFeePayerSigner(payer, draft),
    (draft) => setTransactionMessageLifetimeUsingBlockhash(latestBlockhash, draft),
    (draft) => appendTransactionMessageInstructions(instructions, draft),
  )
  const signed = await signTransactionMessageWithSigners(message)
  await rpc.sendTransaction(getBase64EncodedWireTransaction(signed), { encoding: 'base64' }).send()
}

/**
 * Funds the dev keys with SOL and mints them the demo SPL token, through the chain's own RPC.
 * Runs once per chain: when the mint exists it only reports what is there.
 * @example const { devAccounts, mint } = await seedSolana({ rpcUrl: solana.rpcUrl })
 */
export async function seedSolana({ rpcUrl }: { rpcUrl: string }): Promise<SeededSolana> {
  const rpc = createSolanaRpc(rpcUrl)
  const keys = solanaDevKeys()
  const mintKey = solanaDevMintKey()
  const mint = address(mintKey.address)
  const seeded: SeededSolana = {
    devAccounts: keys.map((key) => key.address),
    devSecretKeys: keys.map((key) => key.secretKey),
    mint,
    decimals: solanaDemoToken.decimals,
    tokenProgram: TOKEN_PROGRAM_ADDRESS,
  }
  const { value: existingMint } = await rpc.getAccountInfo(mint, { encoding: 'base64' }).send()
  if (existingMint) return seeded

  const signers = await Promise.all(keys.map((key) => createKeyPairSignerFromPrivateKeyBytes(key.privateKey)))
  const authority = signers[0]
  if (!authority) throw new Error('seedSolana needs at least one dev key')
  for (const signer of signers) await rpc.requestAirdrop(signer.address, lamports(SOLANA_DEV_LAMPORTS_EACH)).send()

  const mintSigner = await createKeyPairSignerFromPrivateKeyBytes(mintKey.privateKey)
  const space = BigInt(getMintSize())
  const rent = await rpc.getMinimumBalanceForRentExemption(space).send()
  await send(rpc, authority, [
    getCreateAccountInstruction({ payer: authority, newAccount: mintSigner, lamports: rent, space, programAddress: TOKEN_PROGRAM_ADDRESS }),
    getInitializeMint2Instruction({ mint, decimals: solanaDemoToken.decimals, mintAuthority: authority.address, freezeAuthority: null }),
  ])
  for (const signer of signers) {
    const [ata] = await findAssociatedTokenPda({ owner: signer.address, mint, tokenProgram: TOKEN_PROGRAM_ADDRESS })
    await send(rpc, authority, [
      getCreateAssociatedTokenIdempotentInstruction({ payer: authority, ata, owner: signer.address, mint }),
      getMintToInstruction({ mint, token: ata, mintAuthority: authority, amount: solanaDemoToken.amountEach }),
    ])
  }
  return seeded
}
