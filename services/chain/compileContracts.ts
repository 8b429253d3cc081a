import { readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
import solc from 'solc'
import type { Abi, Hex } from 'viem'

export type CompiledContract = { abi: Abi; bytecode: Hex; deployedBytecode: Hex }
export type CompiledContracts = Record<ContractName, CompiledContract>

export const contractNames = ['Multicall3', 'DemoToken', 'TransferEmitter', 'TesseraAccount', 'TesseraAccountFactory', 'TesseraPaymaster'] as const
export type ContractName = (typeof contractNames)[number]

export const artifactsPath = fileURLToPath(new URL('./contracts.generated.json', import.meta.url))

const require = createRequire(import.meta.url)
/** Imports of OpenZeppelin's and eth-infinitism's published sources, read from node_modules. */
function findImport(path: string): { contents: string } | { error: string } {
  try {
    return { contents: readFileSync(require.resolve(path), 'utf8') }
  } catch {
    return { error: `${path} was not found in node_modules` }
  }
}

/** Compiles the local-chain contracts with solc-js (no network, no native compiler). */
export function compileContracts(): CompiledContracts {
  const sources = Object.fromEntries(
    contractNames.map((name) => [
      `${name}.sol`,
      { content: readFileSync(new URL(`./contracts/${name}.sol`, import.meta.url), 'utf8') },
    ]),
  )
  const input = {
    language: 'Solidity',
    sources,
    settings: {
      optimizer: { enabled: true, runs: 200 },
      evmVersion: 'cancun',
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] } },
    },
  }
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: findImport }))
  const errors = (output.errors ?? []).filter((e: { severity: string }) => e.severity === 'error')
  if (errors.length > 0) {
    throw new Error(`Contract compilation failed:\n${errors.map((e: { formattedMessage: string }) => e.formattedMessage).join('\n')}`)
  }
  return Object.fromEntries(
    contractNames.map((name) => {
      const contract = output.contracts[`${name}.sol`][name]
      return [
        name,
        {
          abi: contract.abi,
          bytecode: `0x${contract.evm.bytecode.object}`,
          deployedBytecode: `0x${contract.evm.deployedBytecode.object}`,
        },
      ]
    }),
  ) as CompiledContracts
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(artifactsPath, `${JSON.stringify(compileContracts(), null, 2)}\n`)
  console.log(`wrote ${artifactsPath}`)
}
