import { privateKeyToAccount } from 'viem/accounts'
import { createSiweMessage, type CreateSiweMessageParameters } from 'viem/siwe'

// anvil's well-known dev keys: the victim and the forger.
const victim = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d')
const forger = privateKeyToAccount('0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a')

export type ForgeryTarget = {
  baseUrl: string
  /** A project whose allowlist is [origin]. */
  projectId: string
  origin: string
  /** Another project with the same allowlist. */
  twinProjectId: string
}

type Attempt = { name: string; run: () => Promise<Response> }

/**
 * Sends sign-in and name-registration forgeries to a running data service and counts the ones it accepted
 * (any 2xx). Every attempt is a single request; the goal is 0 accepted.
 */
export async function benchSessionForgeries({ baseUrl, projectId, origin, twinProjectId }: ForgeryTarget) {
  const url = (path: string, project = projectId) => `${baseUrl}${path}?projectId=${project}`
  const post = (path: string, body: unknown, { project = projectId, from = origin }: { project?: string; from?: string } = {}) =>
    fetch(url(path, project), { method: 'POST', headers: { 'content-type': 'application/json', origin: from }, body: JSON.stringify(body) })
  const nonce = async (project = projectId) => ((await (await post('/v1/sessions/nonce', {}, { project })).json()) as { nonce: string }).nonce
  const host = new URL(origin).host
  const message = async (fields: Partial<CreateSiweMessageParameters> = {}, project = projectId) =>
    createSiweMessage({ address: victim.address, chainId: 31337, domain: host, uri: origin, version: '1', nonce: await nonce(project), issuedAt: new Date(), ...fields })
  const signIn = async (text: string, { signer = victim, project = projectId, from = origin } = {}) =>
    post('/v1/sessions', { message: text, signature: await signer.signMessage({ message: text }) }, { project, from })

  const replayed = await message()
  const firstUse = await signIn(replayed)
  if (firstUse.status !== 201) throw new Error(`bench: a valid sign-in was refused (${firstUse.status}: ${await firstUse.text()})`)
  const session = (await firstUse.json()) as { id: string }
  const spentNonce = /Nonce: (\w+)/.exec(replayed)![1]!
  const day = 24 * 3_600_000

  const attempts: Attempt[] = [
    { name: 'sign-in: another domain', run: async () => signIn(await message({ domain: 'evil.test', uri: 'https://evil.test' })) },
    { name: 'sign-in: replayed message', run: () => signIn(replayed) },
    { name: 'sign-in: reused nonce', run: async () => signIn(await message({ nonce: spentNonce, statement: 'Again.' })) },
    { name: 'sign-in: Not Before in a year', run: async () => signIn(await message({ notBefore: new Date(Date.now() + 365 * day) })) },
    { name: 'sign-in: Issued At a year ago', run: async () => signIn(await message({ issuedAt: new Date(Date.now() - 365 * day) })) },
    { name: 'sign-in: nonce of another project', run: async () => signIn(await message({}, twinProjectId)) },
    { name: 'sign-in: made-up nonce', run: async () => signIn(await message({ nonce: 'a'.repeat(76) })) },
    { name: 'sign-in: signed by someone else', run: async () => signIn(await message(), { signer: forger }) },
    { name: 'sign-in: page on another origin', run: async () => signIn(await message(), { from: 'https://evil.test' }) },
    { name: 'sign-in: chain id past 2^53', run: async () => signIn(await message({ chainId: 2 ** 60 })) },
    { name: 'sign-in: line added after signing', run: async () => {
      const text = await message()
      return post('/v1/sessions', { message: `${text}\nAdmin: true`, signature: await victim.signMessage({ message: text }) })
    } },
    { name: 'sign-in: expired message', run: async () => signIn(await message({ expirationTime: new Date(Date.now() - 1_000) })) },
    { name: 'session: read under another project', run: () => fetch(url(`/v1/sessions/${session.id}`, twinProjectId), { headers: { origin } }) },
    { name: 'session: revoked under another project', run: async () => post(`/v1/sessions/${session.id}/revoke`, { pci: session.id, signature: await victim.signMessage({ message: `revoke:${session.id}` }) }, { project: twinProjectId }) },
    { name: 'session: revoked by someone else', run: async () => post(`/v1/sessions/${session.id}/revoke`, { pci: session.id, signature: await forger.signMessage({ message: `revoke:${session.id}` }) }) },
  ]
  return runAttempts(attempts)
}

export async function runAttempts(attempts: readonly Attempt[]) {
  const accepted: string[] = []
  const statuses: Record<string, number> = {}
  for (const { name, run } of attempts) {
    const response = await run()
    await response.body?.cancel()
    statuses[name] = response.status
    if (response.ok) accepted.push(name)
  }
  return { attempts: attempts.length, accepted: accepted.length, acceptedNames: accepted, statuses }
}
