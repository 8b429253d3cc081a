import type { Page } from '@playwright/test'
import { encodeFunctionData, erc20Abi, type Address } from 'viem'
import type { StackManifest } from '../../services/stack/manifest'
import { expect, test } from '../fixtures'

type ReviewWindow = {
  reviewBench: {
    widget: { whenStarted: () => Promise<void>; ready: () => Promise<void>; connect: (id: string) => Promise<void> }
    provider: { request: (args: { method: string; params?: unknown }) => Promise<unknown> }
  }
}

const shorten = (address: string) => `${address.slice(0, 4)}…${address.slice(-6)}`

/** The site's descriptor for the demo token's transfer: "Pay" with its own labels, bound to the token on the stack's chain. */
const payDescriptor = (chainId: number, token: Address) => ({
  context: { contract: { deployments: [{ chainId, address: token }] } },
  display: {
    formats: {
      'transfer(address to,uint256 value)': {
        intent: 'Pay a supplier',
        fields: [
          { path: '#.value', label: 'Invoice total', format: 'tokenAmount', params: { tokenPath: '@.to' } },
          { path: '#.to', label: 'Supplier', format: 'addressName' },
        ],
      },
    },
  },
})

/** The review page (test/harness/review.html) with `descriptors`, connected to its wallet, and a transfer asked through the widget's provider. */
async function reviewTransfer(page: Page, stack: StackManifest, descriptors: unknown[]) {
  const chain = stack.chains[0]!
  const [owner, supplier] = stack.devAccounts
  const query = new URLSearchParams({ rpc: chain.rpcUrl, chainId: String(chain.chainId), account: owner!, descriptors: JSON.stringify(descriptors) })
  await page.goto(`${stack.harness!.url}/review.html?${query}`)
  await page.waitForFunction(() => 'reviewBench' in window)
  await page.evaluate(async () => {
    const { widget } = (window as unknown as ReviewWindow).reviewBench
    await widget.whenStarted()
    await widget.ready()
    await widget.connect('bench.review.wallet')
  })
  const data = encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [supplier!, 2_500_000n] })
  const answer = page.evaluate(
    (request) => (window as unknown as ReviewWindow).reviewBench.provider.request({ method: 'eth_sendTransaction', params: [request] }).catch((error: { code: number }) => ({ code: error.code })),
    { from: owner!, to: chain.tokens[0]!.address, data },
  )
  return { answer, supplier: supplier!, token: chain.tokens[0]! }
}

test('a site’s ERC-7730 descriptor names the call and its fields in the review; an invalid one is said not checked', async ({ page, stack }) => {
  const chain = stack.chains[0]!
  const token = chain.tokens[0]!
  const { answer, supplier } = await reviewTransfer(page, stack, [payDescriptor(chain.chainId, token.address)])
  const review = page.getByRole('dialog', { name: 'Review request' })
  const call = review.getByLabel('Pay a supplier')
  // The descriptor's intent is the action, the function it names under it; its labels name the fields.
  await expect(call.getByRole('term')).toHaveText(['Action', 'Contract', 'Invoice total', 'Supplier'], { timeout: 30_000 })
  await expect(call.getByRole('definition')).toHaveText([/^Pay a supplier\s*transfer$/, shorten(token.address), `2.5 ${token.symbol}`, shorten(supplier)])
  await review.getByRole('button', { name: 'Reject' }).click()
  expect(await answer).toEqual({ code: 4001 })

  // A descriptor whose field has a format ERC-7730 does not have: no review is made from it, and the view says so.
  const invalid = payDescriptor(chain.chainId, token.address)
  invalid.display.formats['transfer(address to,uint256 value)'].fields[1]!.format = 'nftName'
  const second = await reviewTransfer(page, stack, [invalid])
  await expect(review.getByRole('alert')).toHaveText('This request could not be checked: what it does is not shown. Only confirm if you trust this site.', { timeout: 30_000 })
  await expect(review.getByLabel('Pay a supplier')).toHaveCount(0)
  await review.getByRole('button', { name: 'Reject' }).click()
  expect(await second.answer).toEqual({ code: 4001 })
})
