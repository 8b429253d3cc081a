import { IDBFactory } from 'fake-indexeddb'
import { describe, expect, it } from 'vitest'
import { createWidgetError } from '../../shared/protocol/errors'
import { createDeviceShareStore } from './deviceShareStore'
import { createKeyVault, type AuthShareBackend, type AuthShareBundle, type PasswordPrompt } from './createKeyVault'

const scryptParams = { N: 2 ** 10, r: 8, p: 1 }
const PASSWORD = 'a long recovery password'

/** The auth service's share store for one account, in memory, counting calls. */
function authServer() {
  let bundle: AuthShareBundle | undefined
  const calls = { get: 0, put: 0 }
  const backend: AuthShareBackend = {
    async get() {
      calls.get += 1
      return bundle && structuredClone(bundle)
    },
    async put(next) {
      calls.put += 1
      if (bundle) throw createWidgetError('AUTH_SHARE_EXISTS')
      bundle = structuredClone(next)
    },
  }
  return { backend, calls, bundle: () => bundle, replace: (next: AuthShareBundle) => (bundle = next) }
}

/** A person at the password screen typing `typed` in turn; records what each attempt gave. */
function person(...typed: string[]) {
  const seen: { mode: string; outcome: string }[] = []
  const askPassword: PasswordPrompt = async ({ mode, submit }) => {
    for (const password of typed) {
      try {
        const result = await submit(password)
        seen.push({ mode, outcome: 'accepted' })
        return result
      } catch (error) {
        const { code } = error as { code: string }
        seen.push({ mode, outcome: code })
        if (code !== 'RECOVERY_PASSWORD_WRONG' && code !== 'RECOVERY_PASSWORD_TOO_SHORT') throw error
      }
    }
    throw createWidgetError('USER_REJECTED')
  }
  return { askPassword, seen }
}

const device = (indexedDB = new IDBFactory()) => ({ indexedDB, deviceShares: createDeviceShareStore({ indexedDB }) })

describe('createKeyVault', () => {
  it('makes a wallet at the first login: the password is asked once, the auth share goes to the server, the device share stays here', async () => {
    const server = authServer()
    const { deviceShares } = device()
    const alice = person(PASSWORD)
    const vault = createKeyVault({ deviceShares, askPassword: alice.askPassword, scryptParams })
    const publicKeys = await vault.unlock('alice', server.backend)
    expect(alice.seen).toEqual([{ mode: 'create', outcome: 'accepted' }])
    expect(server.calls.put).toBe(1)
    expect(server.bundle()!.publicKeys).toEqual(publicKeys)
    expect(vault.keys().eip155.address).toBe(publicKeys.eip155.address)
    expect((await deviceShares.load('alice'))!.commitment).toBe(server.bundle()!.commitment)
  })

  it('opens the wallet again on the same device with no password (device share + auth share)', async () => {
    const server = authServer()
    const { deviceShares } = device()
    const first = await createKeyVault({ deviceShares, askPassword: person(PASSWORD).askPassword, scryptParams }).unlock('alice', server.backend)
    const nobody = person()
    const again = createKeyVault({ deviceShares, askPassword: nobody.askPassword, scryptParams })
    expect(await again.unlock('alice', server.backend)).toEqual(first)
    expect(nobody.seen).toEqual([])
    expect(server.calls.put).toBe(1)
  })

  it('opens the same wallet on a second device with the recovery password, after a wrong one, and needs it only once there', async () => {
    const server = authServer()
    const first = await createKeyVault({ ...device(), askPassword: person(PASSWORD).askPassword, scryptParams }).unlock('alice', server.backend)
    const secondDevice = device()
    const alice = person('not the password', PASSWORD)
    const vault = createKeyVault({ deviceShares: secondDevice.deviceShares, askPassword: alice.askPassword, scryptParams })
    expect(await vault.unlock('alice', server.backend)).toEqual(first)
    expect(alice.seen).toEqual([{ mode: 'recover', outcome: 'RECOVERY_PASSWORD_WRONG' }, { mode: 'recover', outcome: 'accepted' }])
    const later = person()
    expect(await createKeyVault({ deviceShares: createDeviceShareStore({ indexedDB: secondDevice.indexedDB }), askPassword: later.askPassword, scryptParams }).unlock('alice', server.backend)).toEqual(first)
    expect(later.seen).toEqual([])
  })

  it('stays locked when the person gives up at the password screen', async () => {
    const server = authServer()
    await createKeyVault({ ...device(), askPassword: person(PASSWORD).askPassword, scryptParams }).unlock('alice', server.backend)
    const vault = createKeyVault({ ...device(), askPassword: person('wrong password 1', 'wrong password 2').askPassword, scryptParams })
    await expect(vault.unlock('alice', server.backend)).rejects.toMatchObject({ code: 'USER_REJECTED' })
    expect(() => vault.keys()).toThrow(expect.objectContaining({ code: 'AUTH_SESSION_EXPIRED' }))
  })

  it('refuses an auth share that does not match the commitment: KEY_COMMITMENT_MISMATCH, and no keys are held', async () => {
    const server = authServer()
    const { deviceShares } = device()
    await createKeyVault({ deviceShares, askPassword: person(PASSWORD).askPassword, scryptParams }).unlock('alice', server.backend)
    const otherServer = authServer()
    await createKeyVault({ ...device(), askPassword: person(PASSWORD).askPassword, scryptParams }).unlock('alice', otherServer.backend)
    // The server answers another wallet's share under this wallet's commitment and recovery envelope.
    server.replace({ ...server.bundle()!, share: otherServer.bundle()!.share })
    const vault = createKeyVault({ deviceShares, askPassword: person(PASSWORD).askPassword, scryptParams })
    await expect(vault.unlock('alice', server.backend)).rejects.toMatchObject({ code: 'KEY_COMMITMENT_MISMATCH' })
    expect(vault.publicKeys()).toBeUndefined()
  })

  it('asks once when two requests open the wallet together, and forgets the keys on lock', async () => {
    const server = authServer()
    const alice = person(PASSWORD)
    const vault = createKeyVault({ ...device(), askPassword: alice.askPassword, scryptParams })
    const [a, b] = await Promise.all([vault.unlock('alice', server.backend), vault.unlock('alice', server.backend)])
    expect(a).toEqual(b)
    expect(alice.seen).toHaveLength(1)
    const secretKey = vault.keys().solana.secretKey
    vault.lock()
    expect(secretKey.every((byte) => byte === 0)).toBe(true)
    expect(vault.publicKeys()).toBeUndefined()
  })

  it('keeps nothing when signed out while the wallet was opening', async () => {
    const server = authServer()
    let release: () => void = () => {}
    const gate = new Promise<void>((resolve) => (release = resolve))
    const vault = createKeyVault({
      ...device(),
      scryptParams,
      askPassword: async ({ submit }) => {
        await gate
        return submit(PASSWORD)
      },
    })
    const opening = vault.unlock('alice', server.backend)
    vault.lock()
    release()
    await expect(opening).rejects.toMatchObject({ code: 'AUTH_SESSION_EXPIRED' })
    expect(vault.publicKeys()).toBeUndefined()
  })
})
