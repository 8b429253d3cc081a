import { randomBytes } from 'node:crypto'
import type { Database } from '../api/db/createDatabase'
import { startMailCapture } from '../mail/startMailCapture'
import { devFarcasterAccounts, devUsers } from '../oidc/devAccounts'
import { startLocalIdentityProviders } from '../oidc/startLocalIdentityProviders'
import { socialCallbackUrl, socialProviderNames, type SocialProviderName } from './config'
import { createSmtpMailer } from './mailer'
import { startAuthServer } from './server'

/** The local sign-in back-ends, as the stack manifest lists them for the demo, the frame and the tests. */
export type StackAuth = {
  /** The auth service (services/auth, README "Auth service"). */
  url: string
  /** The secure frame's origin: the only page origin the auth service answers, and where the frame is served. */
  frameOrigin: string
  /** The local inbox: a page listing received mails, and `GET /messages?to=` (JSON) for tests. */
  inboxUrl: string
  /** The SMTP capture the auth service sends its mails to. */
  smtpUrl: string
  /** One local OpenID issuer per social provider, each with its own login and consent pages. */
  issuers: Record<SocialProviderName, string>
  /** The local Farcaster Auth relay (and its dev Farcaster client page). */
  farcasterRelayUrl: string
  /** TEST-ONLY people of the local providers (their passwords are shown on the login pages). */
  devUsers: { email: string; password: string; name: string }[]
  /** TEST-ONLY Farcaster accounts the local relay's dev client signs in as. */
  devFarcasterAccounts: { fid: number; username: string; custodyAddress: string }[]
}

export type StartLocalAuthParameters = {
  host: string
  ports: { auth: number; oidc: number; smtp: number; mail: number; frame: number }
  db: Database
  projectIds: readonly string[]
  log?: (line: string) => void
}

/**
 * The auth service with local stand-ins for everything it talks to: the SMTP capture and its inbox, one local OpenID
 * provider per social provider (Apple's answering by form_post, as Apple does), and a local Farcaster relay. The
 * auth service answers the secure frame's origin (`http://host:ports.frame`) only. stop() ends all four.
 */
export async function startLocalAuth({ host, ports, db, projectIds, log = () => {} }: StartLocalAuthParameters): Promise<{ manifest: StackAuth; stop: () => Promise<void> }> {
  const stops: (() => Promise<void>)[] = []
  const stop = async () => {
    for (const stopOne of stops.splice(0).reverse()) await stopOne().catch(() => {})
  }
  try {
    const frameOrigin = `http://${host}:${ports.frame}`
    const url = `http://${host}:${ports.auth}`
    const mail = await startMailCapture({ host, smtpPort: ports.smtp, httpPort: ports.mail })
    stops.push(mail.stop)
    log(`local inbox on ${mail.inboxUrl} (SMTP ${mail.smtpUrl})`)

    // A new client secret each start: nothing outside this process needs it.
    const client = { clientId: 'tessera-local', clientSecret: randomBytes(24).toString('base64url'), redirectUris: [socialCallbackUrl(url)] }
    const idp = await startLocalIdentityProviders({ host, port: ports.oidc, client })
    stops.push(idp.stop)
    log(`local identity providers on ${idp.url} (${socialProviderNames.map((name) => `/${name}`).join(', ')}, Farcaster relay /farcaster)`)

    const auth = await startAuthServer({
      host,
      port: ports.auth,
      db,
      publicUrl: url,
      frameOrigins: [frameOrigin],
      projects: projectIds,
      mailer: createSmtpMailer({ smtpUrl: mail.smtpUrl, from: 'Tessera (local) <no-reply@tessera.test>' }),
      social: Object.fromEntries(
        socialProviderNames.map((name) => [name, { issuer: idp.issuers[name], clientId: client.clientId, clientSecret: client.clientSecret, ...(name === 'apple' ? { responseMode: 'form_post' as const } : {}) }]),
      ),
      // The local stack is development only: its tests may make a code expire now (routes/testing.ts).
      testRoutes: true,
      farcaster: {
        relayUrl: idp.farcasterRelayUrl,
        domain: new URL(frameOrigin).host,
        siweUri: frameOrigin,
        custody: { kind: 'static', accounts: Object.fromEntries(devFarcasterAccounts.map((account) => [String(account.fid), account.custodyAddress])) },
      },
    })
    stops.push(auth.stop)
    log(`auth service on ${auth.url} (for the secure frame at ${frameOrigin})`)

    return {
      manifest: {
        url: auth.url,
        frameOrigin,
        inboxUrl: mail.inboxUrl,
        smtpUrl: mail.smtpUrl,
        issuers: idp.issuers,
        farcasterRelayUrl: idp.farcasterRelayUrl,
        devUsers: devUsers.map(({ email, password, name }) => ({ email, password, name })),
        devFarcasterAccounts: devFarcasterAccounts.map(({ fid, username, custodyAddress }) => ({ fid, username, custodyAddress })),
      },
      stop,
    }
  } catch (error) {
    await stop()
    throw error
  }
}
