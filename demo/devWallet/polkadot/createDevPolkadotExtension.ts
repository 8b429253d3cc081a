import { injectExtension } from '@polkadot/extension-inject'
import type { Injected, InjectedAccount } from '@polkadot/extension-inject/types'
import { Keyring } from '@polkadot/keyring'
import type { KeyringPair } from '@polkadot/keyring/types'
import { TypeRegistry } from '@polkadot/types'
import type { SignerPayloadJSON, SignerPayloadRaw, SignerResult } from '@polkadot/types/types'
import { hexToU8a, u8aToHex, u8aWrapBytes } from '@polkadot/util'
import { cryptoWaitReady } from '@polkadot/util-crypto'
import { createGate } from '../createGate'

/** One dev account, as the stack manifest gives it (`polkadot.devAccounts`): its name and secret URI (`//Alice`). */
export type DevPolkadotAccount = { name: string; uri: string }

export type DevPolkadotExtensionParameters = {
  /** The accounts it holds; the first is the one it offers (switchAccount changes it). */
  accounts: readonly DevPolkadotAccount[]
  /** Its key in window.injectedWeb3 (the widget names it by its words: 'Tessera Dev Polkadot'). */
  name?: string
  version?: string
  /** The SS58 format its accounts are given in: the generic one (42) by default, as polkadot{.js} gives them. */
  ss58Format?: number
  /** Where it remembers the sites it let in (and the account), as an extension would across reloads. */
  storage?: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>
}

/** Requests that need the visitor's say-so; the dev extension waits on `hold()` and honours `rejectNext()` for them. */
export type DevPolkadotApproval = 'enable' | 'signPayload' | 'signRaw'

const storageKey = 'tessera-dev-polkadot-extension'

/**
 * A development Polkadot extension: the local chain's dev keys (sr25519, by secret URI) in a @polkadot/keyring,
 * injected into `window.injectedWeb3` with @polkadot/extension-inject as browser extensions are, and signing payloads
 * as polkadot{.js} does: `registry.createType('ExtrinsicPayload', payload, { version })` signed by the key. Not part of
 * the published bundle: the demo loads it in a chunk of its own, and tests drive it through `hold`, `rejectNext`,
 * `switchAccount` and `disconnect`.
 * @example const extension = await createDevPolkadotExtension({ accounts: stack.polkadot.devAccounts }); extension.inject()
 */
export async function createDevPolkadotExtension({ accounts, name = 'tessera-dev-polkadot', version = '0.1.0', ss58Format = 42, storage }: DevPolkadotExtensionParameters) {
  if (accounts.length === 0) throw new Error('createDevPolkadotExtension needs at least one account')
  await cryptoWaitReady()
  const keyring = new Keyring({ type: 'sr25519', ss58Format })
  const pairs = accounts.map(({ name: accountName, uri }) => keyring.addFromUri(uri, { name: accountName }))

  const remembered = (() => {
    try {
      return JSON.parse(storage?.getItem(storageKey) ?? 'null') as { origins?: string[]; index?: number } | null
    } catch {
      return null
    }
  })()
  const origins = new Set(Array.isArray(remembered?.origins) ? remembered.origins.filter((o) => typeof o === 'string') : [])
  let index = Number.isInteger(remembered?.index) && remembered!.index! >= 0 && remembered!.index! < pairs.length ? remembered!.index! : 0
  const save = () => storage?.setItem(storageKey, JSON.stringify({ origins: [...origins], index }))
  const subscribers = new Set<(accounts: InjectedAccount[]) => void>()
  const rejections: (DevPolkadotApproval | '*')[] = []
  const gate = createGate()
  /** Every request that reached the extension, in order: what tests read to see that nothing was asked. */
  const requests: { kind: DevPolkadotApproval; address?: string }[] = []
  let nextId = 0

  const current = (): KeyringPair => pairs[index]!
  const visibleAccounts = (): InjectedAccount[] => (origins.size > 0 ? [{ address: current().address, name: String(current().meta.name ?? ''), type: 'sr25519', genesisHash: null }] : [])
  const notify = () => {
    const list = visibleAccounts()
    for (const subscriber of subscribers) subscriber(list)
  }

  /** Waits as a person reading the prompt would, then refuses if a test asked for it (as polkadot{.js}: a plain Error). */
  const approve = async (kind: DevPolkadotApproval) => {
    await gate.wait()
    const at = rejections.findIndex((r) => r === kind || r === '*')
    if (at >= 0) {
      rejections.splice(at, 1)
      throw new Error('Cancelled')
    }
  }
  const pairOf = (address: string) => {
    const pair = pairs.find((p) => {
      try {
        return u8aToHex(keyring.decodeAddress(address)) === u8aToHex(p.publicKey)
      } catch {
        return false
      }
    })
    if (!pair || pair !== current()) throw new Error(`Unable to find a keypair for ${address}`)
    return pair
  }

  const enable = async (origin: string): Promise<Injected> => {
    requests.push({ kind: 'enable' })
    // A site it let in before is let in again without a prompt, as extensions do.
    if (!origins.has(origin)) {
      await approve('enable')
      origins.add(origin)
      save()
    }
    return {
      accounts: {
        get: async () => visibleAccounts(),
        subscribe(listener) {
          const subscriber = (list: InjectedAccount[]) => void listener(list)
          subscribers.add(subscriber)
          subscriber(visibleAccounts())
          return () => void subscribers.delete(subscriber)
        },
      },
      signer: {
        async signPayload(payload: SignerPayloadJSON): Promise<SignerResult> {
          requests.push({ kind: 'signPayload', address: payload.address })
          await approve('signPayload')
          const pair = pairOf(payload.address)
          // As polkadot{.js} signs without the chain's metadata: a registry that knows the payload's signed extensions.
          const registry = new TypeRegistry()
          registry.setSignedExtensions(payload.signedExtensions)
          const { signature } = registry.createType('ExtrinsicPayload', payload, { version: payload.version }).sign(pair)
          return { id: ++nextId, signature }
        },
        async signRaw({ address, data, type }: SignerPayloadRaw): Promise<SignerResult> {
          requests.push({ kind: 'signRaw', address })
          await approve('signRaw')
          const pair = pairOf(address)
          // `bytes` are signed wrapped in <Bytes>…</Bytes> so that no message can pass for a transaction.
          const bytes = type === 'bytes' ? u8aWrapBytes(hexToU8a(data)) : hexToU8a(data)
          return { id: ++nextId, signature: u8aToHex(pair.sign(bytes)) }
        },
      },
    }
  }

  return {
    name,
    /** Puts the extension in `window.injectedWeb3[name]`, as a browser extension's content script does. */
    inject: () => injectExtension(enable, { name, version }),
    /** The accounts' addresses in its SS58 format, in order. */
    addresses: pairs.map((pair) => pair.address),
    /** What reached the extension so far. */
    requests,
    /** Test control: the next request needing `kind` ('*' for any) is refused, as a person closing the prompt. */
    rejectNext(kind: DevPolkadotApproval | '*' = '*') {
      rejections.push(kind)
    },
    /** Test control: requests needing approval wait until the returned function is called, as a person reading the prompt. */
    hold: gate.hold,
    /** Test control: the extension offers account `next`, as a person choosing another account in it. */
    switchAccount(next: number) {
      if (!Number.isInteger(next) || next < 0 || next >= pairs.length) throw new Error(`The dev extension has no account ${next}`)
      index = next
      save()
      notify()
    },
    /** Test control: the extension forgets every site it let in (its accounts list empties), as a person revoking access. */
    disconnect() {
      origins.clear()
      save()
      notify()
    },
  }
}

export type DevPolkadotExtension = Awaited<ReturnType<typeof createDevPolkadotExtension>>
