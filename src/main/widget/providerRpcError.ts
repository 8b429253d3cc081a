/** An EIP-1193 error: a numeric code libraries (viem, ethers, wagmi) understand, and the widget's sentence. */
export class ProviderRpcError extends Error {
  override name = 'ProviderRpcError'
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown,
  ) {
    super(message)
  }
}
