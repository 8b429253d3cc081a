import { AccountRole, address, createNoopSigner, type Address, type Instruction } from '@solana/kit'
import * as system from '@solana-program/system'
import * as token from '@solana-program/token'
import { describe, expect, it } from 'vitest'
import type { SolanaAccountMeta } from '../../../shared/protocol/review'
import { decodeInstruction } from './decodeInstruction'

const key = (n: number) => address(['11111111111111111111111111111112', 'SysvarC1ock11111111111111111111111111111111', 'So11111111111111111111111111111111111111112', 'Vote111111111111111111111111111111111111111', 'Stake11111111111111111111111111111111111111', 'BPFLoaderUpgradeab1e11111111111111111111111', 'Config1111111111111111111111111111111111111', 'Ed25519SigVerify111111111111111111111111111'][n]!)
const [alice, bob, carol, mint, owner, delegate] = [key(0), key(1), key(2), key(3), key(4), key(5)]
const signer = (at: Address) => createNoopSigner(at)
const TOKEN_2022 = address('TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb')
const U64_MAX = 2n ** 64n - 1n

/** An instruction as the message gives it to the review: its accounts with their roles. */
const decode = (instruction: Instruction, index = 0) =>
  decodeInstruction({
    programAddress: instruction.programAddress,
    accounts: (instruction.accounts ?? []).map(({ address, role }): SolanaAccountMeta => ({ address, isSigner: role >= AccountRole.READONLY_SIGNER, isWritable: (role & 1) === 1 })),
    data: new Uint8Array(instruction.data ?? []),
    index,
  })

/** The values a package's own parser reads: every data field (options unwrapped) and every account, as strings. */
function packageValues(parsed: { data?: object; accounts?: object }): string[] {
  const data = Object.entries(parsed.data ?? {}).flatMap(([name, value]: [string, unknown]) => {
    if (name === 'discriminator') return []
    const unwrapped = typeof value === 'object' && value !== null && '__option' in value ? (value as { __option: string; value?: unknown }).value : value
    return unwrapped === undefined ? [] : [String(unwrapped)]
  })
  const accounts = Object.values(parsed.accounts ?? {}).flatMap((meta: { address?: string } | undefined) => (meta?.address ? [meta.address] : []))
  return [...data, ...accounts]
}

/** The values the review shows, as strings. */
function reviewValues(result: ReturnType<typeof decode>): string[] {
  if (result.instruction.kind !== 'instruction') return []
  return result.instruction.args.map(({ value }) =>
    value.kind === 'address' ? value.address : value.kind === 'lamports' || value.kind === 'tokenAmount' ? String(value.amount) : value.kind === 'number' ? String(value.value) : value.value,
  )
}

describe('decodeInstruction against the programs’ own clients (@solana-program/system and token)', () => {
  const systemCases: [string, Instruction][] = [
    ['createAccount', system.getCreateAccountInstruction({ payer: signer(alice), newAccount: signer(bob), lamports: 1_461_600n, space: 82n, programAddress: token.TOKEN_PROGRAM_ADDRESS })],
    ['assign', system.getAssignInstruction({ account: signer(alice), programAddress: carol })],
    ['transfer', system.getTransferSolInstruction({ source: signer(alice), destination: bob, amount: 1_000_000_000n })],
    ['createAccountWithSeed', system.getCreateAccountWithSeedInstruction({ payer: signer(alice), newAccount: bob, baseAccount: signer(carol), base: carol, seed: 'vault-1', amount: 5n, space: 0n, programAddress: owner })],
    ['advanceNonceAccount', system.getAdvanceNonceAccountInstruction({ nonceAccount: bob, nonceAuthority: signer(alice) })],
    ['withdrawNonceAccount', system.getWithdrawNonceAccountInstruction({ nonceAccount: bob, recipientAccount: carol, nonceAuthority: signer(alice), withdrawAmount: 42n })],
    ['initializeNonceAccount', system.getInitializeNonceAccountInstruction({ nonceAccount: bob, nonceAuthority: alice })],
    ['authorizeNonceAccount', system.getAuthorizeNonceAccountInstruction({ nonceAccount: bob, nonceAuthority: signer(alice), newNonceAuthority: carol })],
    ['allocate', system.getAllocateInstruction({ newAccount: signer(alice), space: 165n })],
    ['allocateWithSeed', system.getAllocateWithSeedInstruction({ newAccount: bob, baseAccount: signer(alice), base: alice, seed: 's', space: 10n, programAddress: carol })],
    ['assignWithSeed', system.getAssignWithSeedInstruction({ account: bob, baseAccount: signer(alice), base: alice, seed: 'seed', programAddress: carol })],
    ['transferWithSeed', system.getTransferSolWithSeedInstruction({ source: bob, baseAccount: signer(alice), destination: carol, amount: 7n, fromSeed: 'from', fromOwner: owner })],
    ['upgradeNonceAccount', system.getUpgradeNonceAccountInstruction({ nonceAccount: bob })],
    ['createAccountAllowPrefund', system.getCreateAccountAllowPrefundInstruction({ newAccount: signer(bob), payer: signer(alice), lamports: 9n, space: 1n, programAddress: carol })],
  ]
  it.each(systemCases)('System %s: its name, and every value the package parses', (name, instruction) => {
    const result = decode(instruction)
    expect(result.instruction).toMatchObject({ kind: 'instruction', program: 'system', instruction: name })
    expect(reviewValues(result)).toEqual(expect.arrayContaining(packageValues(system.parseSystemInstruction(instruction as Parameters<typeof system.parseSystemInstruction>[0]))))
  })

  const tokenCases: [string, Instruction][] = [
    ['transfer', token.getTransferInstruction({ source: alice, destination: bob, authority: signer(owner), amount: 5_000n })],
    ['transferChecked', token.getTransferCheckedInstruction({ source: alice, mint, destination: bob, authority: signer(owner), amount: 1_500_000n, decimals: 6 })],
    ['approve', token.getApproveInstruction({ source: alice, delegate, owner: signer(owner), amount: U64_MAX })],
    ['approveChecked', token.getApproveCheckedInstruction({ source: alice, mint, delegate, owner: signer(owner), amount: 10n, decimals: 6 })],
    ['revoke', token.getRevokeInstruction({ source: alice, owner: signer(owner) })],
    ['setAuthority', token.getSetAuthorityInstruction({ owned: alice, owner: signer(owner), authorityType: token.AuthorityType.AccountOwner, newAuthority: delegate })],
    ['mintTo', token.getMintToInstruction({ mint, token: alice, mintAuthority: signer(owner), amount: 3n })],
    ['burn', token.getBurnInstruction({ account: alice, mint, authority: signer(owner), amount: 4n })],
    ['burnChecked', token.getBurnCheckedInstruction({ account: alice, mint, authority: signer(owner), amount: 4n, decimals: 6 })],
    ['closeAccount', token.getCloseAccountInstruction({ account: alice, destination: bob, owner: signer(owner) })],
    ['freezeAccount', token.getFreezeAccountInstruction({ account: alice, mint, owner: signer(owner) })],
    ['syncNative', token.getSyncNativeInstruction({ account: alice })],
    ['initializeMint2', token.getInitializeMint2Instruction({ mint, decimals: 6, mintAuthority: owner, freezeAuthority: carol })],
    ['initializeAccount3', token.getInitializeAccount3Instruction({ account: alice, mint, owner })],
    ['uiAmountToAmount', token.getUiAmountToAmountInstruction({ mint, uiAmount: '1.25' })],
    ['withdrawExcessLamports', token.getWithdrawExcessLamportsInstruction({ source: alice, destination: bob, authority: signer(owner) })],
    ['unwrapLamports', token.getUnwrapLamportsInstruction({ source: alice, destination: bob, authority: signer(owner), amount: 77n })],
  ]
  it.each(tokenCases)('SPL Token %s: its name, and every value the package parses', (name, instruction) => {
    const result = decode(instruction)
    expect(result.instruction).toMatchObject({ kind: 'instruction', program: 'token', instruction: name })
    expect(reviewValues(result)).toEqual(expect.arrayContaining(packageValues(token.parseTokenInstruction(instruction as Parameters<typeof token.parseTokenInstruction>[0]))))
  })

  it('Associated Token Account create and createIdempotent, as the widget’s own transfers use them', async () => {
    const [ata] = await token.findAssociatedTokenPda({ owner, mint, tokenProgram: token.TOKEN_PROGRAM_ADDRESS })
    const idempotent = token.getCreateAssociatedTokenIdempotentInstruction({ payer: signer(alice), ata, owner, mint })
    expect(decode(idempotent).instruction).toMatchObject({ program: 'associatedToken', instruction: 'createIdempotent', args: expect.arrayContaining([{ name: 'associatedAccount', value: { kind: 'address', address: ata } }]) })
    expect(decode(token.getCreateAssociatedTokenInstruction({ payer: signer(alice), ata, owner, mint })).instruction).toMatchObject({ instruction: 'create' })
  })

  it('gives a transferChecked its mint and decimals, and the accounts by name', () => {
    const instruction = token.getTransferCheckedInstruction({ source: alice, mint, destination: bob, authority: signer(owner), amount: 1_500_000n, decimals: 6 })
    expect(decode(instruction).instruction).toEqual({
      kind: 'instruction',
      program: 'token',
      programAddress: token.TOKEN_PROGRAM_ADDRESS,
      instruction: 'transferChecked',
      args: [
        { name: 'amount', value: { kind: 'tokenAmount', amount: 1_500_000n, mint, decimals: 6, isUnlimited: false } },
        { name: 'decimals', value: { kind: 'number', value: 6n } },
        { name: 'source', value: { kind: 'address', address: alice } },
        { name: 'mint', value: { kind: 'address', address: mint } },
        { name: 'destination', value: { kind: 'address', address: bob } },
        { name: 'authority', value: { kind: 'address', address: owner } },
      ],
    })
  })

  it('calls out approvals (u64 max as unlimited, on Token-2022 too), authority and owner changes; a revoking approve of 0 stays an approval of 0', () => {
    const unlimited = token.getApproveInstruction({ source: alice, delegate, owner: signer(owner), amount: U64_MAX }, { programAddress: TOKEN_2022 as string as typeof token.TOKEN_PROGRAM_ADDRESS })
    expect(decode(unlimited, 3)).toMatchObject({ instruction: { program: 'token2022', instruction: 'approve' }, warnings: [{ kind: 'unlimitedApproval', instructionIndex: 3, source: alice, delegate, amount: U64_MAX }] })
    const limited = token.getApproveCheckedInstruction({ source: alice, mint, delegate, owner: signer(owner), amount: 10n, decimals: 6 })
    expect(decode(limited).warnings).toEqual([{ kind: 'approval', instructionIndex: 0, source: alice, delegate, amount: 10n, mint, decimals: 6 }])
    const setOwner = token.getSetAuthorityInstruction({ owned: alice, owner: signer(owner), authorityType: token.AuthorityType.AccountOwner, newAuthority: delegate })
    expect(decode(setOwner).warnings).toEqual([{ kind: 'authorityChange', instructionIndex: 0, account: alice, authorityType: 2, newAuthority: delegate }])
    const removeMintAuthority = token.getSetAuthorityInstruction({ owned: mint, owner: signer(owner), authorityType: token.AuthorityType.MintTokens, newAuthority: null })
    expect(decode(removeMintAuthority).warnings).toEqual([{ kind: 'authorityChange', instructionIndex: 0, account: mint, authorityType: 0 }])
    expect(decode(system.getAssignInstruction({ account: signer(alice), programAddress: carol })).warnings).toEqual([{ kind: 'ownerChange', instructionIndex: 0, account: alice, owner: carol }])
    expect(decode(system.getTransferSolInstruction({ source: signer(alice), destination: bob, amount: 1n })).warnings).toEqual([])
  })

  it.each([
    ['setComputeUnitLimit', [2, 0x40, 0x0d, 0x03, 0x00], [{ name: 'units', value: { kind: 'number', value: 200_000n } }]],
    ['setComputeUnitPrice', [3, 0x10, 0x27, 0, 0, 0, 0, 0, 0], [{ name: 'microLamports', value: { kind: 'number', value: 10_000n } }]],
    ['requestHeapFrame', [1, 0, 0, 4, 0], [{ name: 'bytes', value: { kind: 'number', value: 262_144n } }]],
    ['setLoadedAccountsDataSizeLimit', [4, 0, 0, 1, 0], [{ name: 'bytes', value: { kind: 'number', value: 65_536n } }]],
  ])('Compute Budget %s', (name, data, args) => {
    const result = decode({ programAddress: address('ComputeBudget111111111111111111111111111111'), data: new Uint8Array(data) })
    expect(result.instruction).toEqual({ kind: 'instruction', program: 'computeBudget', programAddress: 'ComputeBudget111111111111111111111111111111', instruction: name, args })
  })

  it('a memo as its text (bytes that are not UTF-8 in base64)', () => {
    const memo = address('MemoSq4gqABAXKb96qnH8TysNcWxMyWCqXgDLGmfcHr')
    expect(decode({ programAddress: memo, data: new TextEncoder().encode('order #42 ✓') }).instruction).toMatchObject({ instruction: 'memo', args: [{ name: 'text', value: { kind: 'text', value: 'order #42 ✓' } }] })
    expect(decode({ programAddress: memo, data: new Uint8Array([0xff, 0xfe]) }).instruction).toMatchObject({ args: [{ name: 'text', value: { kind: 'bytes', value: '//4=' } }] })
  })

  it.each([
    ['another program', { programAddress: carol, accounts: [{ address: alice, role: AccountRole.WRITABLE }], data: new Uint8Array([1, 2, 3]) }, { programAddress: carol, dataBytes: 3, accounts: [{ address: alice, isSigner: false, isWritable: true }] }],
    ['a System discriminator past the last', { programAddress: system.SYSTEM_PROGRAM_ADDRESS, data: new Uint8Array([99, 0, 0, 0]) }, { program: 'system', dataBytes: 4 }],
    ['a System transfer cut short', { programAddress: system.SYSTEM_PROGRAM_ADDRESS, data: new Uint8Array([2, 0, 0, 0, 1, 2]) }, { program: 'system', dataBytes: 6 }],
    ['no data for the System program', { programAddress: system.SYSTEM_PROGRAM_ADDRESS, data: new Uint8Array() }, { program: 'system', dataBytes: 0 }],
    ['a seed longer than 32 bytes', { programAddress: system.SYSTEM_PROGRAM_ADDRESS, data: new Uint8Array([3, 0, 0, 0, ...new Uint8Array(32), 200, 0, 0, 0, 0, 0, 0, 0]) }, { program: 'system' }],
    ['a token option tag that is neither 0 nor 1', { programAddress: token.TOKEN_PROGRAM_ADDRESS, data: new Uint8Array([6, 2, 7]) }, { program: 'token', dataBytes: 3 }],
    ['a Token-2022 extension instruction', { programAddress: TOKEN_2022, data: new Uint8Array([26, 0]) }, { program: 'token2022', dataBytes: 2 }],
    ['an SPL Token discriminator Token-2022 alone has', { programAddress: token.TOKEN_PROGRAM_ADDRESS, data: new Uint8Array([35, ...new Uint8Array(32)]) }, { program: 'token', dataBytes: 33 }],
  ])('%s is unknown, with its program, accounts and data length', (_, instruction, expected) => {
    expect(decode(instruction as Instruction)).toEqual({ instruction: expect.objectContaining({ kind: 'unknown', ...expected }), warnings: [] })
  })

  it('an instruction with an account its lookup table did not give is unknown', () => {
    const result = decodeInstruction({ programAddress: system.SYSTEM_PROGRAM_ADDRESS, accounts: [{ address: alice, isSigner: true, isWritable: true }, { isSigner: false, isWritable: true, lookupTable: carol }], data: new Uint8Array([2, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0]), index: 0 })
    expect(result.instruction).toMatchObject({ kind: 'unknown', program: 'system', accounts: [{ address: alice }, { lookupTable: carol }] })
  })
})
