import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

const eslint = new ESLint()

async function boundaryErrors(filePath: string, code: string) {
  const [result] = await eslint.lintText(code, { filePath })
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message)
}

describe('import boundaries (eslint.config.js)', () => {
  it.each([
    ['src/shared/protocol/x.ts', "import { a } from '../../worker/api'\nexport const b = a", 'src/shared is imported by every runtime'],
    ['src/shared/protocol/x.ts', "import { a } from '../../main/createCore'\nexport const b = a", 'src/shared is imported by every runtime'],
    ['src/shared/protocol/x.ts', "import { wrap } from 'comlink'\nexport const b = wrap", 'no React, no comlink'],
    ['src/worker/x.ts', "import { a } from '../main/createCore'\nexport const b = a", 'src/worker never imports the main thread'],
    ['src/worker/x.ts', "import { useState } from 'react'\nexport const b = useState", 'The worker has no React'],
    ['src/main/ui/x.ts', "import { wrap } from 'comlink'\nexport const b = wrap", 'never talks to comlink'],
    ['src/main/ui/x.ts', "import { a } from '../../worker/api'\nexport const b = a", 'src/main/ui never imports worker code'],
    ['src/main/core/x.ts', "import type { A } from '../../worker/api'\nexport type B = A", 'src/main talks to the workers through src/shared/protocol'],
    ['src/main/connectors/x.ts', "import { a } from '../../worker/walletConnect/walletConnectWorker'\nexport const b = a", 'it never imports worker code'],
    ['src/main/families/bip122/wallets/x.ts', "import { a } from '../../solana/wallets/createWalletStandardConnector'\nexport const b = a", "A chain family never imports another (here solana's code)"],
    ['src/main/families/polkadot/x.ts', "import type { A } from '../eip155/adapter'\nexport type B = A", "A chain family never imports another (here eip155's code)"],
    ['src/worker/families/solana/x.ts', "import { a } from '../bip122/bitcoin'\nexport const b = a", "A chain family never imports another (here bip122's code)"],
    ['src/worker/families/polkadot/x.ts', "import { a } from '../../../main/x'\nexport const b = a", 'src/worker never imports the main thread'],
  ])('%s: %s is refused', async (filePath, code, reason) => {
    const errors = await boundaryErrors(filePath, code)
    expect(errors).toHaveLength(1)
    expect(errors[0]).toContain(reason)
  })

  it.each([
    ['src/worker/x.ts', "import { a } from '../shared/protocol/x'\nexport const b = a"],
    ['src/main/x.ts', "import { wrap } from 'comlink'\nexport const b = wrap"],
    ['src/main/core/x.ts', "export const start = () => new Worker(new URL('../../worker/worker.ts', import.meta.url), { type: 'module' })"],
    ['src/main/core/x.ts', "import type { CoreWorkerApi } from '../../shared/protocol/core/coreApi'\nexport type A = CoreWorkerApi"],
    ['src/main/core/x.test.ts', "import { publishStore } from '../../worker/state/publishStore'\nexport const b = publishStore"],
    ['src/main/ui/x.ts', "import { useState } from 'react'\nexport const b = useState"],
    ['src/main/families/bip122/wallets/x.ts', "import { a } from '../../../connectors/walletStandard/toSafeImageUrl'\nexport const b = a"],
    ['src/main/families/solana/x.ts', "import { a } from './wallets/discoverWalletStandard'\nexport const b = a"],
  ])('%s: %s is allowed', async (filePath, code) => {
    expect(await boundaryErrors(filePath, code)).toEqual([])
  })
})
