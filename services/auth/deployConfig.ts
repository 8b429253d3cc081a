import * as z from 'zod/mini'
import type { AuthConfig } from './config'
import { socialProviderNames } from './config'
import { createSmtpMailer } from './mailer'

const url = z.string().check(z.refine((value) => /^https?:\/\/[^\s]+$/.test(value), 'Expected an http(s) URL'))
const address = z.string().check(z.regex(/^0x[0-9a-fA-F]{40}$/, 'Expected a 0x address'))

const socialSchema = z.object({
  issuer: url,
  clientId: z.string().check(z.minLength(1)),
  clientSecret: z.optional(z.string()),
  scopes: z.optional(z.array(z.string())),
  responseMode: z.optional(z.enum(['query', 'form_post'])),
})

/** The `auth` section of TESSERA_API_CONFIG for `npm run services`. */
export const authSectionSchema = z.object({
  publicUrl: url,
  frameOrigins: z.array(url).check(z.minLength(1)),
  mailFrom: z.string().check(z.minLength(3)),
  social: z.optional(z.partialRecord(z.enum(socialProviderNames), socialSchema)),
  farcaster: z.optional(
    z.object({
      relayUrl: url,
      domain: z.string().check(z.minLength(1)),
      siweUri: url,
      custody: z.union([z.object({ kind: z.literal('idRegistry'), rpcUrl: url, address: z.optional(address) }), z.object({ kind: z.literal('static'), accounts: z.record(z.string(), address) })]),
    }),
  ),
  trustProxy: z.optional(z.boolean()),
})

/**
 * The auth service's configuration for a deployment: the `auth` section of the services' JSON config, the SMTP
 * server from TESSERA_SMTP_URL and the code-hashing key from TESSERA_AUTH_SECRET (optional). Throws one line
 * naming what is wrong.
 */
export function readAuthDeployConfig({ section, projectIds, env }: { section: unknown; projectIds: readonly string[]; env: NodeJS.ProcessEnv }): Omit<AuthConfig, 'db'> {
  const parsed = authSectionSchema.safeParse(section)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    throw new Error(`auth.${issue.path.join('.')}: ${issue.message}`)
  }
  const smtpUrl = env.TESSERA_SMTP_URL
  if (!smtpUrl || !/^smtps?:\/\//.test(smtpUrl)) throw new Error('Set TESSERA_SMTP_URL to the SMTP server the auth service sends codes through (smtp://user:pass@host:587 or smtps://…:465).')
  const { mailFrom, ...rest } = parsed.data
  return {
    // Addresses were checked as 0x + 40 hex digits above: the schema's string is viem's Address.
    ...(rest as Pick<AuthConfig, 'publicUrl' | 'frameOrigins' | 'social' | 'farcaster' | 'trustProxy'>),
    projects: projectIds,
    mailer: createSmtpMailer({ smtpUrl, from: mailFrom }),
    ...(env.TESSERA_AUTH_SECRET ? { secret: env.TESSERA_AUTH_SECRET } : {}),
  }
}
