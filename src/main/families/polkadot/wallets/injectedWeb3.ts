import type { PolkadotSignerPayload } from '../../../../shared/families/polkadot/coreApi'

/**
 * The objects a Polkadot browser extension puts on the page (`window.injectedWeb3`), as @polkadot/extension-inject
 * defines them, written out by hand: the page never imports @polkadot/* (its libraries run in the core worker only).
 */

/** One account an extension gives the site. `address` is SS58 (often the generic prefix 42); `genesisHash` ties it to one chain. */
export type InjectedAccount = { address: string; genesisHash?: string | null; name?: string; type?: string }

export type InjectedAccounts = {
  get: (anyType?: boolean) => Promise<InjectedAccount[]>
  /** Calls `listener` with the accounts whenever they change; returns the function that stops. */
  subscribe: (listener: (accounts: InjectedAccount[]) => void | Promise<void>) => () => void
}

/** signRaw's input: hex `data`; `bytes` is wrapped in <Bytes>…</Bytes> by the extension before signing, `payload` is not. */
export type SignerPayloadRaw = { address: string; data: `0x${string}`; type: 'bytes' | 'payload' }

/** A signature (hex) and the request's id; `signedTransaction` when the payload asked for it. */
export type SignerResult = { id: number; signature: `0x${string}`; signedTransaction?: `0x${string}` }

export type InjectedSigner = {
  signPayload?: (payload: PolkadotSignerPayload) => Promise<SignerResult>
  signRaw?: (raw: SignerPayloadRaw) => Promise<SignerResult>
}

/** What `enable(origin)` answers once the visitor lets the site in. */
export type Injected = { accounts: InjectedAccounts; signer: InjectedSigner }

/** One `window.injectedWeb3[key]` entry. */
export type InjectedWindowProvider = { enable?: (origin: string) => Promise<Injected>; version?: string }
