import { schnorr, secp256k1 } from '@noble/curves/secp256k1'
import { sha256 } from '@noble/hashes/sha2.js'
import { base64, createBase58check, hex } from '@scure/base'
import type { Wallet, WalletAccount, WalletIcon } from '@wallet-standard/base'
import type { StandardEventsChangeProperties } from '@wallet-standard/features'
import { ReadonlyWalletAccount, registerWallet } from '@wallet-standard/wallet'
import { crypto as bitcoinCrypto, initEccLib, networks, payments, Psbt, type Signer } from 'bitcoinjs-lib'
import { signBip322 } from '../../../src/shared/families/bip122/bip322'
import { createGate } from '../createGate'

/** The networks the dev wallet can hold keys for, by their Bitcoin Wallet Standard and sats-connect names. */
const networkParameters = {
  regtest: { library: networks.regtest, chain: 'bitcoin:regtest', satsConnect: 'Regtest' },
  testnet: { library: networks.testnet, chain: 'bitcoin:testnet', satsConnect: 'Testnet' },
  mainnet: { library: networks.bitcoin, chain: 'bitcoin:mainnet', satsConnect: 'Mainnet' },
} as const
export type DevBitcoinNetwork = keyof typeof networkParameters

/** One dev account's keys in wallet import format: the payment (P2WPKH) and ordinals (P2TR, BIP-86 key path) ones. */
export type DevBitcoinKeys = { payment: { wif: string }; ordinals: { wif: string } }

export type DevBitcoinWalletParameters = {
  /** The accounts it holds, as the stack manifest gives them (`bitcoin.devAccounts`); the first is offered on connect. */
  accounts: readonly DevBitcoinKeys[]
  network?: DevBitcoinNetwork
  name?: string
  /** Where it remembers that the site is connected (and with which account), as an extension would across reloads. */
  storage?: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>
}

/** A wallet's error as Bitcoin Wallet Standard wallets throw them: an Error with an EIP-1193 style code (4001 is the user saying no). */
export class DevBitcoinWalletError extends Error {
  constructor(readonly code: number, message: string) {
    super(message)
    this.name = 'DevBitcoinWalletError'
  }
}

const devBitcoinWalletIcon: WalletIcon =
  'data:image/svg+xml;base64,PHN2ZyB4bWxucz0naHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmcnIHZpZXdCb3g9JzAgMCAzMiAzMic+PHJlY3Qgd2lkdGg9JzMyJyBoZWlnaHQ9JzMyJyByeD0nOCcgZmlsbD0nI2Y3OTMxYScvPjxwYXRoIGQ9J00xMSA4aDdhNCA0IDAgMCAxIDAgOGgtN3ptMCA4aDhhNCA0IDAgMCAxIDAgOGgtOHpNMTMgNnYyME0xNyA2djIwJyBmaWxsPSdub25lJyBzdHJva2U9JyNmZmYnIHN0cm9rZS13aWR0aD0nMicvPjwvc3ZnPg=='

/**
 * secp256k1 for bitcoinjs-lib from @noble/curves (pure JS, so the demo page needs no .wasm): the two operations its
 * taproot code uses, which initEccLib checks against vectors.
 */
const nobleEcc = {
  isXOnlyPoint(point: Uint8Array): boolean {
    if (point.length !== 32) return false
    try {
      secp256k1.ProjectivePoint.fromHex(Uint8Array.of(2, ...point))
      return true
    } catch {
      return false
    }
  },
  xOnlyPointAddTweak(point: Uint8Array, tweak: Uint8Array): { parity: 0 | 1; xOnlyPubkey: Uint8Array } | null {
    const { ProjectivePoint, CURVE } = secp256k1
    const t = BigInt(`0x${hex.encode(tweak) || '0'}`)
    if (tweak.length !== 32 || t >= CURVE.n) return null
    let base
    try {
      base = ProjectivePoint.fromHex(Uint8Array.of(2, ...point))
    } catch {
      return null
    }
    const tweaked = t === 0n ? base : base.add(ProjectivePoint.BASE.multiply(t))
    if (tweaked.equals(ProjectivePoint.ZERO)) return null
    const compressed = tweaked.toRawBytes(true)
    return { parity: compressed[0] === 3 ? 1 : 0, xOnlyPubkey: compressed.slice(1) }
  },
}

const base58check = createBase58check(sha256)

/** BIP-322's message hash: the `BIP0322-signed-message` tagged hash of the message (what sats-connect's `messageHash` is). */
function bip322MessageHash(message: string) {
  const tag = sha256(new TextEncoder().encode('BIP0322-signed-message'))
  return sha256(Uint8Array.from([...tag, ...tag, ...new TextEncoder().encode(message)]))
}

/** The 32-byte private key of a compressed-key WIF of `network`. */
function decodeWif(wif: string, network: DevBitcoinNetwork): Uint8Array {
  const payload = base58check.decode(wif)
  if (payload.length !== 34 || payload[0] !== networkParameters[network].library.wif || payload[33] !== 1) throw new Error(`Not a compressed-key ${network} WIF`)
  return payload.slice(1, 33)
}

const toBigInt = (bytes: Uint8Array) => BigInt(`0x${hex.encode(bytes)}`)
const toBytes32 = (value: bigint) => hex.decode(value.toString(16).padStart(64, '0'))

/** The BIP-86 key-path signing key of a P2TR internal key: the private key (negated for an odd Y), tweaked by its own hash. */
function taprootSigningKey(privateKey: Uint8Array): Uint8Array {
  const { n } = secp256k1.CURVE
  const publicKey = secp256k1.getPublicKey(privateKey, true)
  const d = publicKey[0] === 3 ? n - toBigInt(privateKey) : toBigInt(privateKey)
  const tweak = toBigInt(bitcoinCrypto.taggedHash('TapTweak', publicKey.slice(1)))
  return toBytes32((d + tweak) % n)
}

type DevKey = { address: string; privateKey: Uint8Array; publicKey: Uint8Array; outputScript: Uint8Array; signer: Signer; account: WalletAccount; purpose: 'payment' | 'ordinals' }

/** Features that need the user's say-so; the dev wallet waits on `hold()` and honours `rejectNext()` for them. */
export type DevBitcoinApproval = 'bitcoin:connect' | 'bitcoin:signTransaction' | 'bitcoin:signMessage'
const accountFeatures = ['bitcoin:signTransaction', 'bitcoin:signMessage'] as const
const storageKey = 'tessera-dev-bitcoin-wallet'

/**
 * A development Bitcoin wallet: the local chain's dev keys in memory (payment P2WPKH and ordinals P2TR per account),
 * signing PSBT inputs with bitcoinjs-lib and @noble/curves and messages with BIP-322 (simple). It is reachable two
 * ways, as real wallets are: the Bitcoin Wallet Standard (`wallet`) and a sats-connect provider (`satsConnect`, listed in
 * `window.btc_providers` by registerDevBitcoinWallet). Not part of the published bundle: the demo and tests use it.
 * @example const devWallet = createDevBitcoinWallet({ accounts: stack.bitcoin.devAccounts }); registerDevBitcoinWallet(devWallet)
 */
export function createDevBitcoinWallet({ accounts: accountKeys, network = 'regtest', name = 'Tessera Dev Bitcoin Wallet', storage }: DevBitcoinWalletParameters) {
  initEccLib(nobleEcc)
  const { library, chain, satsConnect: satsConnectNetwork } = networkParameters[network]
  const toKey = (wif: string, purpose: 'payment' | 'ordinals'): DevKey => {
    const privateKey = decodeWif(wif, network)
    const compressed = secp256k1.getPublicKey(privateKey, true)
    if (purpose === 'payment') {
      const { address, output } = payments.p2wpkh({ pubkey: compressed, network: library })
      const signer: Signer = { publicKey: compressed, sign: (hash) => secp256k1.sign(hash, privateKey).toCompactRawBytes() }
      const account = new ReadonlyWalletAccount({ address: address!, publicKey: compressed, chains: [chain], features: accountFeatures, label: 'Payment' })
      return { address: address!, privateKey, publicKey: compressed, outputScript: output!, signer, account, purpose }
    }
    const internalKey = compressed.slice(1)
    const { address, output } = payments.p2tr({ internalPubkey: internalKey, network: library })
    const tweaked = taprootSigningKey(privateKey)
    const signer: Signer = { publicKey: schnorr.getPublicKey(tweaked), sign: () => new Uint8Array(), signSchnorr: (hash) => schnorr.sign(hash, tweaked) }
    const account = new ReadonlyWalletAccount({ address: address!, publicKey: internalKey, chains: [chain], features: accountFeatures, label: 'Ordinals' })
    return { address: address!, privateKey, publicKey: internalKey, outputScript: output!, signer, account, purpose }
  }
  const accounts = accountKeys.map((keys) => ({ payment: toKey(keys.payment.wif, 'payment'), ordinals: toKey(keys.ordinals.wif, 'ordinals') }))
  if (accounts.length === 0) throw new Error('createDevBitcoinWallet needs at least one account')
  const keysByAddress = new Map(accounts.flatMap(({ payment, ordinals }) => [[payment.address, payment] as const, [ordinals.address, ordinals] as const]))

  const remembered = (() => {
    try {
      return JSON.parse(storage?.getItem(storageKey) ?? 'null') as { connected?: boolean; index?: number } | null
    } catch {
      return null
    }
  })()
  let isConnected = remembered?.connected === true
  let index = Number.isInteger(remembered?.index) && remembered!.index! >= 0 && remembered!.index! < accounts.length ? remembered!.index! : 0
  const listeners = new Set<(properties: StandardEventsChangeProperties) => void>()
  const satsConnectListeners = new Set<{ eventName: string; cb: (event: unknown) => void }>()
  const rejections: (DevBitcoinApproval | '*')[] = []
  const gate = createGate()

  const current = () => accounts[index]!
  const currentAccounts = (): WalletAccount[] => (isConnected ? [current().payment.account, current().ordinals.account] : [])
  const satsConnectAddresses = () =>
    [current().payment, current().ordinals].map((key) => ({ address: key.address, publicKey: hex.encode(key.publicKey), purpose: key.purpose, addressType: key.purpose === 'payment' ? 'p2wpkh' : 'p2tr', walletType: 'software' }))
  const setState = (next: { connected?: boolean; index?: number }) => {
    isConnected = next.connected ?? isConnected
    index = next.index ?? index
    storage?.setItem(storageKey, JSON.stringify({ connected: isConnected, index }))
    const walletAccounts = currentAccounts()
    for (const listener of listeners) listener({ accounts: walletAccounts })
    for (const { eventName, cb } of satsConnectListeners) {
      if (eventName === 'accountChange' && isConnected) cb({ type: 'accountChange', addresses: satsConnectAddresses() })
      if (eventName === 'disconnect' && !isConnected) cb({ type: 'disconnect' })
    }
  }

  /** Waits as a user reading the prompt, then says no if a test asked it to. */
  const approve = async (feature: DevBitcoinApproval) => {
    await gate.wait()
    const at = rejections.findIndex((r) => r === feature || r === '*')
    if (at >= 0) {
      rejections.splice(at, 1)
      throw new DevBitcoinWalletError(4001, 'User rejected the request.')
    }
  }
  const keyOf = (address: unknown): DevKey => {
    const key = typeof address === 'string' && isConnected ? keysByAddress.get(address) : undefined
    if (!key || (key !== current().payment && key !== current().ordinals)) throw new DevBitcoinWalletError(4100, `The requested account ${String(address)} has not been authorized by the user.`)
    return key
  }

  /** Signs the inputs at `indexes` with `key` (ECDSA for P2WPKH, BIP-340 Schnorr for P2TR); other inputs stay as they were. */
  const signPsbt = (psbt: Psbt, key: DevKey, indexes: readonly number[]) => {
    for (const i of indexes) {
      const input = psbt.data.inputs[i]
      if (!input) throw new DevBitcoinWalletError(-32602, `The PSBT has no input ${i}`)
      const script = input.witnessUtxo?.script
      if (!script || hex.encode(script) !== hex.encode(key.outputScript)) throw new DevBitcoinWalletError(-32602, `Input ${i} is not ${key.address}'s`)
      if (key.purpose === 'payment') psbt.signInput(i, key.signer)
      else psbt.signTaprootInput(i, key.signer)
    }
    return psbt
  }
  const parsePsbt = (read: () => Psbt) => {
    try {
      return read()
    } catch (error) {
      throw new DevBitcoinWalletError(-32602, `Not a PSBT: ${(error as Error).message}`)
    }
  }

  const features = {
    'bitcoin:connect': {
      version: '1.0.0',
      async connect({ purposes }: { purposes: readonly ('payment' | 'ordinals')[] }) {
        await approve('bitcoin:connect')
        if (!isConnected) setState({ connected: true })
        const byPurpose = { payment: current().payment.account, ordinals: current().ordinals.account }
        return { accounts: [...new Set(purposes)].map((purpose) => byPurpose[purpose]) }
      },
    },
    'bitcoin:signTransaction': {
      version: '1.0.0',
      // As published: any number of inputs, one output each. `broadcast` is not of the feature; the dev wallet never does.
      async signTransaction(...inputs: readonly { psbt: Uint8Array; chain?: string; inputsToSign: { account: WalletAccount; signingIndexes: number[] }[]; broadcast?: boolean }[]) {
        await approve('bitcoin:signTransaction')
        return inputs.map(({ psbt, inputsToSign, chain: requested, broadcast }) => {
          if (requested !== undefined && requested !== chain) throw new DevBitcoinWalletError(4901, `The wallet does not offer ${requested}`)
          if (broadcast) throw new DevBitcoinWalletError(4200, 'The dev wallet does not broadcast')
          const parsed = parsePsbt(() => Psbt.fromBuffer(psbt, { network: library }))
          for (const { account, signingIndexes } of inputsToSign) signPsbt(parsed, keyOf(account?.address), signingIndexes)
          return { signedPsbt: parsed.toBuffer() }
        })
      },
    },
    'bitcoin:signMessage': {
      version: '1.0.0',
      async signMessage(...inputs: readonly { account: WalletAccount; message: Uint8Array }[]) {
        await approve('bitcoin:signMessage')
        return inputs.map(({ account, message }) => {
          const key = keyOf(account?.address)
          const text = new TextDecoder().decode(message)
          return { signedMessage: message, signature: base64.decode(signBip322({ message: text, address: key.address, privateKey: key.privateKey })) }
        })
      },
    },
    'standard:disconnect': {
      version: '1.0.0',
      async disconnect() {
        if (isConnected) setState({ connected: false })
      },
    },
    'standard:events': {
      version: '1.0.0',
      on(event: string, listener: (properties: StandardEventsChangeProperties) => void) {
        if (event !== 'change') return () => {}
        listeners.add(listener)
        return () => void listeners.delete(listener)
      },
    },
  }

  const wallet: Wallet = Object.freeze({
    version: '1.0.0' as const,
    name,
    icon: devBitcoinWalletIcon,
    chains: [chain],
    features,
    get accounts() {
      return currentAccounts()
    },
  })

  /** sats-connect's names of the networks of the families the dev wallet does not hold (every network answer names them). */
  const networkAnswer = () => ({ bitcoin: { name: satsConnectNetwork }, stacks: { name: network === 'mainnet' ? 'mainnet' : 'testnet' }, spark: { name: network === 'mainnet' ? 'mainnet' : 'regtest' } })
  const satsConnectMethods = ['getInfo', 'getAddresses', 'signPsbt', 'signMessage', 'wallet_getAccount', 'wallet_getNetwork', 'wallet_changeNetwork', 'wallet_disconnect']
  let requestCount = 0

  /**
   * The sats-connect side, as a wallet's provider answers (the sats-connect library turns this into `{ status }` for
   * dApps): `request` resolves a JSON-RPC 2.0 response, `{ jsonrpc: '2.0', id, result }` or `{ jsonrpc: '2.0', id,
   * error: { code, message } }`, with sats-connect's RpcErrorCode values: -32000 USER_REJECTION, -32002 ACCESS_DENIED,
   * -32601 METHOD_NOT_FOUND, -32602 INVALID_PARAMS, -32603 INTERNAL_ERROR.
   */
  const satsConnect = {
    async request(method: string, params: unknown): Promise<unknown> {
      requestCount += 1
      const id = `dev-bitcoin-${requestCount}`
      const ok = (result: unknown) => ({ jsonrpc: '2.0', id, result })
      const fail = (code: number, message: string) => ({ jsonrpc: '2.0', id, error: { code, message } })
      const p = (params ?? {}) as Record<string, unknown>
      try {
        switch (method) {
          case 'getInfo':
            return ok({ version: '1.0.0', platform: 'web', methods: satsConnectMethods, supports: [] })
          case 'getAddresses':
            await approve('bitcoin:connect')
            if (!isConnected) setState({ connected: true })
            return ok({ addresses: satsConnectAddresses().filter((a) => !Array.isArray(p.purposes) || p.purposes.includes(a.purpose)), network: networkAnswer() })
          case 'wallet_getAccount':
            if (!isConnected) return fail(-32002, 'The site has no permission: connect first')
            return ok({ id: `dev-${index}`, addresses: satsConnectAddresses(), walletType: 'software', network: networkAnswer() })
          case 'wallet_getNetwork':
            return ok(networkAnswer())
          case 'wallet_changeNetwork':
            return p.name === satsConnectNetwork ? ok(null) : fail(-32602, `The dev wallet holds ${network} keys only`)
          case 'wallet_disconnect':
            if (isConnected) setState({ connected: false })
            return ok(null)
          case 'signPsbt': {
            await approve('bitcoin:signTransaction')
            if (p.broadcast) return fail(-32602, 'The dev wallet does not broadcast')
            const parsed = parsePsbt(() => Psbt.fromBase64(String(p.psbt), { network: library }))
            for (const [address, indexes] of Object.entries((p.signInputs ?? {}) as Record<string, number[]>)) signPsbt(parsed, keyOf(address), indexes)
            return ok({ psbt: parsed.toBase64() })
          }
          case 'signMessage': {
            await approve('bitcoin:signMessage')
            const key = keyOf(p.address)
            if (p.protocol !== undefined && p.protocol !== 'BIP322') return fail(-32602, 'The dev wallet signs messages with BIP-322 only')
            const message = String(p.message)
            const signature = signBip322({ message, address: key.address, privateKey: key.privateKey })
            return ok({ signature, messageHash: hex.encode(bip322MessageHash(message)), address: key.address, protocol: 'BIP322' })
          }
          default:
            return fail(-32601, `The dev wallet does not offer ${method}`)
        }
      } catch (error) {
        // sats-connect's codes: -32000 for a refusal (4001 by the Wallet Standard), -32002 for an account not authorized.
        const code = (error as DevBitcoinWalletError).code
        return fail(code === 4001 ? -32000 : code === 4100 ? -32002 : typeof code === 'number' ? code : -32603, (error as Error).message)
      }
    },
    addListener(listener: { eventName: string; cb: (event: unknown) => void }) {
      satsConnectListeners.add(listener)
      return () => void satsConnectListeners.delete(listener)
    },
  }

  return {
    wallet,
    satsConnect,
    /** The accounts' payment and ordinals addresses, in order. */
    addresses: accounts.map(({ payment, ordinals }) => ({ payment: payment.address, ordinals: ordinals.address })),
    /** Test control: the next call needing `feature` ('*' for any) is refused: 4001 by the Wallet Standard, -32000 (USER_REJECTION) through sats-connect. */
    rejectNext(feature: DevBitcoinApproval | '*' = '*') {
      rejections.push(feature)
    },
    /** Test control: calls needing approval wait until the returned function is called, as a user reading the prompt. */
    hold: gate.hold,
    /** Test control: the wallet switches to account `next`, as a user would in the extension. */
    switchAccount(next: number) {
      if (!Number.isInteger(next) || next < 0 || next >= accounts.length) throw new Error(`The dev wallet has no account ${next}`)
      setState({ index: next })
    },
    /** Test control: the wallet disconnects the site, as a user would in the extension. */
    disconnect() {
      setState({ connected: false })
    },
  }
}

export type DevBitcoinWallet = ReturnType<typeof createDevBitcoinWallet>

/** Where the dev wallet's sats-connect provider sits on `window` (the path its `btc_providers` entry names). */
export const DEV_SATS_CONNECT_ID = 'TesseraDevBitcoin.BitcoinProvider'

/**
 * Makes the dev wallet reachable: by the Wallet Standard (`registerWallet`) and, as a sats-connect provider, in
 * `target.btc_providers` with its provider at `target.TesseraDevBitcoin.BitcoinProvider`. Either can be left out.
 */
export function registerDevBitcoinWallet(devWallet: Pick<DevBitcoinWallet, 'wallet' | 'satsConnect'>, { target = globalThis.window as Window | undefined, standard = true, satsConnect = true } = {}) {
  if (standard) registerWallet(devWallet.wallet)
  if (satsConnect && target) {
    const page = target as Window & { btc_providers?: unknown[]; TesseraDevBitcoin?: unknown }
    page.TesseraDevBitcoin = { BitcoinProvider: devWallet.satsConnect }
    page.btc_providers = [...(Array.isArray(page.btc_providers) ? page.btc_providers : []), { id: DEV_SATS_CONNECT_ID, name: devWallet.wallet.name, icon: devWallet.wallet.icon, methods: ['getAddresses', 'signPsbt', 'signMessage'] }]
  }
}
